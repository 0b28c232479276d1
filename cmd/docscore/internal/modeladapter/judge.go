// Package modeladapter holds the native model adapters of the evaluation
// harness: the OpenAI Responses API and the Anthropic Messages API through
// a small client on net/http (wire.go; the official Go SDKs are its
// reference in the tests), and a local command (Ollama, vLLM, a script) that
// reads a request as JSON on standard input and writes its answer on
// standard output. It owns everything that touches the network or
// processes: HTTP, retries with backoff on 429 and 5xx (honouring
// retry-after), a deadline per attempt and bounded concurrency per
// provider. Everything else (requests, parsing, voting, ground truth) is in
// the pure package scoring/judging.
//
// Keys come only from the caller (the command line reads OPENAI_API_KEY
// and ANTHROPIC_API_KEY from the process environment); nothing else of
// the environment is read here, no file is read for them, and a key
// never appears in an error, a log line, a usage record or a checkpoint.
package modeladapter

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// Config configures a provider adapter.
type Config struct {
	// Model is the model id; it is required.
	Model string
	// APIKey is the provider key; it is required for the HTTP adapters.
	APIKey string
	// BaseURL overrides the provider's API address (a proxy, a
	// compatible server, a test server).
	BaseURL string
	// Temperature is sent when set (OpenAI only: the Anthropic Messages API
	// of SDK v2 takes none, so setting one there is an error).
	Temperature *float64
	// ReasoningEffort is OpenAI's reasoning.effort or Anthropic's
	// output_config.effort.
	ReasoningEffort string
	// MaxOutputTokens bounds the answer (Anthropic requires one; default
	// 8192).
	MaxOutputTokens int64
	// Prices, when set, price each call into its usage record.
	Prices *judging.Prices
	// Budget, when set, is the run's cost ceiling: each call reserves its
	// upper bound first and is refused (a *judging.NotJudgedError) when the
	// ceiling would be exceeded. It needs Prices.
	Budget *Budget
	// BatchPrices price the calls made through the batch API (a price
	// table's, BatchPricesOf); when nil, Prices less their BatchDiscount,
	// or DefaultBatchDiscount when they name none.
	BatchPrices *judging.Prices
	// HTTPClient is used for requests (default: a new http.Client).
	HTTPClient *http.Client
	// Policy and Limiter govern retries, deadlines and concurrency; a nil
	// Limiter means no bound.
	Policy  Policy
	Limiter *Limiter
}

func (c Config) check(provider string) error {
	if strings.TrimSpace(c.Model) == "" {
		return fmt.Errorf("%s adapter: a model is required", provider)
	}
	for _, p := range []*judging.Prices{c.Prices, c.BatchPrices} {
		if p != nil {
			if err := p.Validate(); err != nil {
				return fmt.Errorf("%s adapter: %w", provider, err)
			}
		}
	}
	if c.Budget != nil && c.Prices == nil {
		return fmt.Errorf("%s adapter: a cost ceiling needs the model's prices", provider)
	}
	return nil
}

// DefaultBatchDiscount is the share both providers take off the direct
// price of a batch request (50 %, OpenAI Batch API and Anthropic Message
// Batches, as published when this was written), used when the prices
// name no discount of their own.
const DefaultBatchDiscount = 0.5

// batchPrices are the prices of batch requests (nil: unpriced).
func (c Config) batchPrices() *judging.Prices {
	if c.BatchPrices != nil {
		return c.BatchPrices
	}
	if c.Prices == nil {
		return nil
	}
	p := *c.Prices
	if p.BatchDiscount == 0 {
		p.BatchDiscount = DefaultBatchDiscount
	}
	return BatchPricesOf(p)
}

// BatchPricesOf returns p's batch prices: every price less p's
// BatchDiscount (a price table's, 0 meaning none), BatchDiscount 0.
func BatchPricesOf(p judging.Prices) *judging.Prices {
	d := p.BatchDiscount
	p.InputPerMTok *= 1 - d
	p.CachedInputPerMTok *= 1 - d
	p.OutputPerMTok *= 1 - d
	p.BatchDiscount = 0 // these are the batch prices already
	return &p
}

// httpClient is the client of the provider's requests: HTTPClient or a
// new one, every response body capped (MaxAnswerBytes).
func (c Config) httpClient() *http.Client {
	if c.HTTPClient != nil {
		return cappedClient(c.HTTPClient)
	}
	return cappedClient(&http.Client{})
}

// HTTPError is a provider's non-2xx answer.
type HTTPError struct {
	Provider string
	Status   int
	// RetryAfter is the provider's retry-after (0 when absent).
	RetryAfter time.Duration
	// Message is the provider's error message, with the key redacted.
	Message string
}

// Error describes the status and the provider's message.
func (e *HTTPError) Error() string {
	s := fmt.Sprintf("%s: HTTP %d %s", e.Provider, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Retryable reports whether the status is worth retrying (429, 5xx).
func (e *HTTPError) Retryable() bool {
	return e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// parseRetryAfter reads retry-after-ms or retry-after (seconds or an HTTP
// date).
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if ms := h.Get("Retry-After-Ms"); ms != "" {
		if f, err := strconv.ParseFloat(ms, 64); err == nil && f > 0 {
			return time.Duration(f * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 {
		return time.Duration(f * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// Policy is the retry, backoff and deadline policy of judge calls. Only
// judges retry; pilots never do.
type Policy struct {
	// Retries is the number of retries after the first attempt.
	Retries int
	// InitialBackoff doubles after each retry, up to MaxBackoff; a
	// provider's retry-after, when longer, is waited instead.
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
	// MaxRetryAfter is the longest retry-after honoured; a provider asking
	// for more ends the call with its error.
	MaxRetryAfter time.Duration
	// Timeout is the deadline of one attempt.
	Timeout time.Duration
	// Sleep waits between attempts (tests inject a recorder); nil sleeps.
	Sleep func(ctx context.Context, d time.Duration) error
	// Log receives one line per retry; it never sees a key.
	Log func(line string)
}

// DefaultPolicy is 4 retries from 1 s up to 30 s, retry-after honoured up
// to 120 s, and a 120 s deadline per attempt.
func DefaultPolicy() Policy {
	return Policy{Retries: 4, InitialBackoff: time.Second, MaxBackoff: 30 * time.Second, MaxRetryAfter: 120 * time.Second, Timeout: 120 * time.Second}
}

func (p Policy) withDefaults() Policy {
	d := DefaultPolicy()
	if p.InitialBackoff <= 0 {
		p.InitialBackoff = d.InitialBackoff
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = d.MaxBackoff
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = d.MaxRetryAfter
	}
	if p.Timeout <= 0 {
		p.Timeout = d.Timeout
	}
	if p.Retries < 0 {
		p.Retries = 0
	}
	if p.Sleep == nil {
		p.Sleep = sleep
	}
	return p
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Limiter bounds the calls in flight per provider.
type Limiter struct {
	perProvider int
	mu          sync.Mutex
	sems        map[string]chan struct{}
}

// NewLimiter allows n calls in flight per provider (n < 1 means 1).
func NewLimiter(n int) *Limiter {
	if n < 1 {
		n = 1
	}
	return &Limiter{perProvider: n, sems: map[string]chan struct{}{}}
}

func (l *Limiter) acquire(ctx context.Context, provider string) (func(), error) {
	if l == nil {
		return func() {}, nil
	}
	l.mu.Lock()
	sem, ok := l.sems[provider]
	if !ok {
		sem = make(chan struct{}, l.perProvider)
		l.sems[provider] = sem
	}
	l.mu.Unlock()
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// call runs attempts (try) under the policy: a slot of the provider's
// limit, a deadline per attempt, retries on 429 and 5xx with backoff (or
// the provider's retry-after when longer). It returns the answer and the
// number of attempts. Batch API calls (upload, create, poll, download) run
// through it too.
//
// gate, when set, runs once the slot is held, before the first attempt:
// it reserves the call's cost upper bound and returns what settles it with
// the answer's usage (a refusal ends the call with no attempt). Only a
// model call (T judging.ModelResponse) has usage to settle with.
func call[T any](ctx context.Context, provider, label string, p Policy, l *Limiter, retry bool, gate func() (func(judging.Usage), error), try func(ctx context.Context) (T, error)) (T, int, error) {
	var zero T
	p = p.withDefaults()
	release, err := l.acquire(ctx, provider)
	if err != nil {
		return zero, 0, err
	}
	defer release()
	if gate != nil {
		settle, err := gate()
		if err != nil {
			return zero, 0, err
		}
		var answered judging.Usage
		defer func() { settle(answered) }()
		inner := try
		try = func(ctx context.Context) (T, error) {
			resp, err := inner(ctx)
			if r, ok := any(resp).(judging.ModelResponse); ok && err == nil {
				answered = r.Usage
			}
			return resp, err
		}
	}
	backoff := p.InitialBackoff
	for n := 1; ; n++ {
		actx, cancel := context.WithTimeout(ctx, p.Timeout)
		resp, err := try(actx)
		timedOut := actx.Err() == context.DeadlineExceeded && ctx.Err() == nil
		cancel()
		if err == nil {
			return resp, n, nil
		}
		if timedOut {
			err = fmt.Errorf("%s: no answer within the %s deadline: %w", label, p.Timeout, err)
		}
		var he *HTTPError
		if !retry || !errors.As(err, &he) || !he.Retryable() || n > p.Retries || ctx.Err() != nil {
			return zero, n, err
		}
		wait := backoff
		if he.RetryAfter > p.MaxRetryAfter {
			return zero, n, fmt.Errorf("%w (retry-after %s is longer than the %s this run waits)", err, he.RetryAfter, p.MaxRetryAfter)
		}
		if he.RetryAfter > wait {
			wait = he.RetryAfter
		}
		if p.Log != nil {
			p.Log(fmt.Sprintf("judge %s: HTTP %d, retry %d of %d in %s", label, he.Status, n, p.Retries, wait))
		}
		if err := p.Sleep(ctx, wait); err != nil {
			return zero, n, err
		}
		backoff *= 2
		if backoff > p.MaxBackoff {
			backoff = p.MaxBackoff
		}
	}
}

// redact removes a key (and long fragments of it) from text.
func redact(s, key string) string {
	if key == "" {
		return s
	}
	s = strings.ReplaceAll(s, key, "[redacted]")
	if len(key) >= 16 {
		s = strings.ReplaceAll(s, key[:8], "[redacted]")
		s = strings.ReplaceAll(s, key[len(key)-8:], "[redacted]")
	}
	return s
}

// redactedError keeps an error's chain but redacts its message.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

func redactErr(err error, key string) error {
	if err == nil || key == "" {
		return err
	}
	var he *HTTPError
	if errors.As(err, &he) {
		he.Message = redact(he.Message, key)
	}
	return &redactedError{msg: redact(err.Error(), key), err: err}
}

// inputText is the user message's text: the task as indented JSON.
func inputText(req judging.ModelRequest) (string, error) {
	b, err := json.MarshalIndent(req.Input, "", "  ")
	if err != nil {
		return "", fmt.Errorf("request input: %w", err)
	}
	return string(b), nil
}

// schemaMap decodes the output schema for the requests' schema fields
// (re-encoded with sorted keys, as the SDKs sent it).
func schemaMap(req judging.ModelRequest) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(req.OutputSchema, &m); err != nil {
		return nil, fmt.Errorf("output schema: %w", err)
	}
	return m, nil
}

func dataURL(a evalcase.ReferenceArtifact) string {
	return "data:" + a.MediaType + ";base64," + base64.StdEncoding.EncodeToString(a.Content)
}

func attachmentLabel(a evalcase.ReferenceArtifact) string {
	return fmt.Sprintf("Attachment %s (%s, %s, sha256 %s):", a.ArtifactID, a.Authority, a.MediaType, a.SHA256)
}

func priced(u judging.Usage, p *judging.Prices) judging.Usage {
	if p != nil {
		c := p.Cost(u)
		u.CostUSD = &c
	}
	return u
}

func schemaName(req judging.ModelRequest) string {
	if req.SchemaName != "" {
		return req.SchemaName
	}
	return "docscore_output"
}
