package judging

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/docscore/docscore/scoring/evalcase"
)

// ModelInfo says which model an adapter calls and with which settings. It
// labels votes (provider/model groups), producer provenance and usage
// records, and it joins the fingerprint of cached calls, so a change of
// model or temperature never reuses an old answer.
type ModelInfo struct {
	// Provider is "openai", "anthropic", "command", "local", …
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// Temperature is nil when the adapter sends none (the provider's
	// default, or a provider without sampling controls).
	Temperature     *float64 `json:"temperature"`
	ReasoningEffort string   `json:"reasoning_effort,omitempty"`
	// Settings are other settings that change answers (max tokens, a
	// command line); they are fingerprinted, never secrets.
	Settings map[string]string `json:"settings,omitempty"`
}

// Label returns "provider/model" (or the provider alone).
func (i ModelInfo) Label() string {
	if i.Model == "" {
		return i.Provider
	}
	return i.Provider + "/" + i.Model
}

// The purposes of a model call.
const (
	PurposeJudge          = "judge"
	PurposeGroundTruth    = "ground_truth"
	PurposeAdjudication   = "ground_truth_adjudication"
	PurposeAdvisoryReview = "advisory_review"
)

// ModelRequest is one structured-output call to a model: the system
// instructions, the task as JSON, the JSON Schema the answer must match and
// the files to attach. Every provider receives the same request; adapters
// differ only in how they transport it. Secrets never appear in it.
type ModelRequest struct {
	// Purpose is PurposeJudge, PurposeGroundTruth, … (it names the request
	// in logs and usage records).
	Purpose      string `json:"purpose"`
	Instructions string `json:"instructions"`
	// Input is the task, sent as JSON text in the user message.
	Input any `json:"input"`
	// SchemaName names OutputSchema for providers that want a name.
	SchemaName   string          `json:"schema_name"`
	OutputSchema json.RawMessage `json:"output_schema"`
	// Attachments are the references whose bytes travel as files: images
	// and PDFs (Content set). Text references are part of Input instead.
	Attachments []evalcase.ReferenceArtifact `json:"-"`
	// Sample numbers a repeated asking of the same request (LLMJudgeMetric
	// Samples): 0 for the first. It joins the fingerprint, so each sample is
	// its own cached call, and adapters do not send it.
	Sample int `json:"sample,omitempty"`
}

// AttachmentFingerprints lists the attachments by id, media type and
// SHA-256: what a fingerprint of the request hashes instead of the bytes.
func (r ModelRequest) AttachmentFingerprints() []AttachmentRef {
	out := make([]AttachmentRef, 0, len(r.Attachments))
	for _, a := range r.Attachments {
		out = append(out, AttachmentRef{ArtifactID: a.ArtifactID, Kind: a.Kind, MediaType: a.MediaType, SHA256: a.SHA256})
	}
	return out
}

// AttachmentRef names an attachment without its bytes.
type AttachmentRef struct {
	ArtifactID string                `json:"artifact_id"`
	Kind       evalcase.ArtifactKind `json:"kind"`
	MediaType  string                `json:"media_type"`
	SHA256     string                `json:"sha256"`
}

// Fingerprint is the SHA-256 of the request (attachments by hash) and the
// model settings: two calls with one fingerprint ask the same question of
// the same model.
func (r ModelRequest) Fingerprint(info ModelInfo) (string, error) {
	b, err := evalcase.CanonicalJSON(struct {
		Version     int             `json:"version"`
		Model       ModelInfo       `json:"model"`
		Request     ModelRequest    `json:"request"`
		Attachments []AttachmentRef `json:"attachments"`
	}{1, info, r, r.AttachmentFingerprints()})
	if err != nil {
		return "", err
	}
	return evalcase.SHA256Hex(b), nil
}

// ModelResponse is a model's answer: its raw text (parsed by the caller,
// which keeps it when it cannot be used) and the call's usage.
type ModelResponse struct {
	Text  string `json:"text"`
	Usage Usage  `json:"usage"`
	// Model is the model that answered, as the provider names it.
	Model string `json:"model,omitempty"`
	// Warnings say what could not be sent (an attachment of a type the
	// provider does not accept).
	Warnings []string `json:"warnings,omitempty"`
}

// ModelAdapter calls one model. The native adapters (OpenAI Responses,
// Anthropic Messages, a local command) live in cmd/docscore; any other
// model is one function away with NewModelAdapter. An error means no
// answer arrived (transport, HTTP status, deadline); an answer that arrived
// but cannot be used is returned as text for the caller to reject.
type ModelAdapter interface {
	Info() ModelInfo
	Call(ctx context.Context, req ModelRequest) (ModelResponse, error)
}

type funcAdapter struct {
	info ModelInfo
	call func(ctx context.Context, req ModelRequest) (ModelResponse, error)
}

func (f funcAdapter) Info() ModelInfo { return f.info }

func (f funcAdapter) Call(ctx context.Context, req ModelRequest) (ModelResponse, error) {
	return f.call(ctx, req)
}

// NewModelAdapter wraps a function that calls a model (Ollama, vLLM, a
// test double) as a ModelAdapter described by info.
func NewModelAdapter(info ModelInfo, call func(ctx context.Context, req ModelRequest) (ModelResponse, error)) ModelAdapter {
	return funcAdapter{info: info, call: call}
}

// ModelJudge is the one judge: it turns a JudgeRequest into a ModelRequest,
// asks its adapter, and parses and validates the answer against the judge
// output schema. An answer that cannot be used is an *UnusableAnswerError
// with the raw text kept, so LLMJudgeMetric reports the stage uncertain and
// queues it for review.
type ModelJudge struct {
	Adapter ModelAdapter
}

// Info returns the adapter's model.
func (j *ModelJudge) Info() ModelInfo { return j.Adapter.Info() }

// judgeInput is the user message of a judge call: the task, and the
// content of every reference that travels as text.
type judgeInput struct {
	Task       JudgeTask       `json:"task"`
	References []TextReference `json:"references"`
}

// TextReference is a reference sent to a model in-line: its entry and its
// content (text, or JSON). Files travel as attachments and are listed with
// Attached set and no content.
type TextReference struct {
	ArtifactID string                `json:"artifact_id"`
	Authority  evalcase.Authority    `json:"authority"`
	Kind       evalcase.ArtifactKind `json:"kind"`
	MediaType  string                `json:"media_type"`
	Attached   bool                  `json:"attached"`
	Content    any                   `json:"content,omitempty"`
}

// SplitReferences puts text references in-line and files in attachments.
func SplitReferences(refs []evalcase.ReferenceArtifact) ([]TextReference, []evalcase.ReferenceArtifact) {
	text := []TextReference{}
	var files []evalcase.ReferenceArtifact
	for _, r := range refs {
		tr := TextReference{ArtifactID: r.ArtifactID, Authority: r.Authority, Kind: r.Kind, MediaType: r.MediaType}
		if r.Content != nil {
			tr.Attached = true
			files = append(files, r)
		} else {
			tr.Content = r.Value
		}
		text = append(text, tr)
	}
	return text, files
}

// ModelRequestForJudge returns the ModelRequest a ModelJudge sends for req.
func ModelRequestForJudge(req JudgeRequest) ModelRequest {
	text, files := SplitReferences(req.References)
	return ModelRequest{
		Purpose:      PurposeJudge,
		Instructions: req.Instructions,
		Input:        judgeInput{Task: req.Task, References: text},
		SchemaName:   "docscore_judge_output",
		OutputSchema: req.OutputSchema,
		Attachments:  files,
		Sample:       req.Sample,
	}
}

// Judge asks the adapter and parses its answer.
func (j *ModelJudge) Judge(ctx context.Context, req JudgeRequest) (JudgeOutput, error) {
	if j.Adapter == nil {
		return JudgeOutput{}, errors.New("model judge without an adapter")
	}
	resp, err := j.Adapter.Call(ctx, ModelRequestForJudge(req))
	if err != nil {
		return JudgeOutput{}, err
	}
	out, err := ParseJudgeOutput([]byte(resp.Text))
	if err != nil {
		return JudgeOutput{}, err
	}
	if err := out.checkAgainst(req); err != nil {
		return JudgeOutput{}, &UnusableAnswerError{Raw: resp.Text, Err: err}
	}
	return out, nil
}

// Usage is the token count (and, with prices, the cost) of one call or of
// many.
type Usage struct {
	InputTokens       int64 `json:"input_tokens"`
	CachedInputTokens int64 `json:"cached_input_tokens"`
	OutputTokens      int64 `json:"output_tokens"`
	ReasoningTokens   int64 `json:"reasoning_tokens"`
	TotalTokens       int64 `json:"total_tokens"`
	// CostUSD is set when prices were given.
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// Add returns u + v; the cost is set when either has one.
func (u Usage) Add(v Usage) Usage {
	out := Usage{
		InputTokens: u.InputTokens + v.InputTokens, CachedInputTokens: u.CachedInputTokens + v.CachedInputTokens,
		OutputTokens: u.OutputTokens + v.OutputTokens, ReasoningTokens: u.ReasoningTokens + v.ReasoningTokens,
		TotalTokens: u.TotalTokens + v.TotalTokens,
	}
	if u.CostUSD != nil || v.CostUSD != nil {
		c := 0.0
		if u.CostUSD != nil {
			c += *u.CostUSD
		}
		if v.CostUSD != nil {
			c += *v.CostUSD
		}
		out.CostUSD = &c
	}
	return out
}

// Prices are a model's prices in US dollars per million tokens.
type Prices struct {
	InputPerMTok       float64 `json:"input_per_mtok"`
	CachedInputPerMTok float64 `json:"cached_input_per_mtok"`
	OutputPerMTok      float64 `json:"output_per_mtok"`
	// BatchDiscount is the share a provider's batch API takes off every
	// token (0.5: half price); CostOf applies it to batch calls.
	BatchDiscount float64 `json:"batch_discount,omitempty"`
}

// Validate refuses negative or non-finite prices.
func (p Prices) Validate() error {
	for name, v := range map[string]float64{"input": p.InputPerMTok, "cached input": p.CachedInputPerMTok, "output": p.OutputPerMTok} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("%s price %v: expected a number of US dollars per million tokens, 0 or more", name, v)
		}
	}
	if d := p.BatchDiscount; math.IsNaN(d) || d < 0 || d >= 1 {
		return fmt.Errorf("batch discount %v: expected the share taken off batch calls, 0 ≤ d < 1", d)
	}
	return nil
}

// CostOf prices a call as Cost does, a batch call at the batch discount.
func (p Prices) CostOf(u Usage, batch bool) float64 {
	c := p.Cost(u)
	if batch && p.BatchDiscount > 0 {
		c *= 1 - p.BatchDiscount
	}
	return c
}

// Cost prices a call: uncached input, cached input (at the input price
// when no cached price is given) and output, which includes reasoning.
func (p Prices) Cost(u Usage) float64 {
	cached := p.CachedInputPerMTok
	if cached == 0 {
		cached = p.InputPerMTok
	}
	uncached := u.InputTokens - u.CachedInputTokens
	if uncached < 0 {
		uncached = 0
	}
	return (float64(uncached)*p.InputPerMTok + float64(u.CachedInputTokens)*cached + float64(u.OutputTokens)*p.OutputPerMTok) / 1e6
}

// UsageRecord is the usage of one call.
type UsageRecord struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Purpose  string `json:"purpose"`
	// Attempts counts HTTP attempts (retries included).
	Attempts int `json:"attempts"`
	// Cached is true when the answer came from a checkpoint: nothing was
	// paid for it again.
	Cached bool `json:"cached"`
	// Batch is true when the call went through the provider's batch API
	// (priced at the batch price).
	Batch bool  `json:"batch,omitempty"`
	Usage Usage `json:"usage"`
}

// UsageTracker keeps the usage records of an adapter: LastUsage,
// UsageRecords, TotalUsage and ResetUsage. It is safe for concurrent use;
// the zero value is ready.
type UsageTracker struct {
	mu      sync.Mutex
	records []UsageRecord
}

// RecordUsage appends a record.
func (t *UsageTracker) RecordUsage(r UsageRecord) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.records = append(t.records, r)
}

// LastUsage returns the latest record; ok is false when there is none.
func (t *UsageTracker) LastUsage() (UsageRecord, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.records) == 0 {
		return UsageRecord{}, false
	}
	return t.records[len(t.records)-1], true
}

// UsageRecords returns a copy of every record, oldest first.
func (t *UsageTracker) UsageRecords() []UsageRecord {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]UsageRecord(nil), t.records...)
}

// TotalUsage adds up the records that were paid for (cached answers cost
// nothing again).
func (t *UsageTracker) TotalUsage() Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	var u Usage
	for _, r := range t.records {
		if !r.Cached {
			u = u.Add(r.Usage)
		}
	}
	return u
}

// ResetUsage forgets every record.
func (t *UsageTracker) ResetUsage() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.records = nil
}

// UsageSummary is the usage part of a report: calls made and reused, and
// the tokens (and cost) paid for.
type UsageSummary struct {
	Calls       int `json:"calls"`
	CachedCalls int `json:"cached_calls"`
	// BatchCalls counts the calls (of Calls) made through a batch API.
	BatchCalls int   `json:"batch_calls,omitempty"`
	Total      Usage `json:"total"`
	// ByModel has one line per provider/model, sorted.
	ByModel []ModelUsage `json:"by_model"`
	// Estimated is the whole run's estimate before any call, PriceTable
	// names the price table (its file and the date it was written) and
	// MaxCostUSD the ceiling, when the host set them.
	Estimated  *CostEstimate `json:"estimated,omitempty"`
	PriceTable string        `json:"price_table,omitempty"`
	MaxCostUSD *float64      `json:"max_cost_usd,omitempty"`
}

// ModelUsage is the usage of one provider/model.
type ModelUsage struct {
	Provider    string `json:"provider"`
	Model       string `json:"model"`
	Calls       int    `json:"calls"`
	CachedCalls int    `json:"cached_calls"`
	BatchCalls  int    `json:"batch_calls,omitempty"`
	Usage       Usage  `json:"usage"`
	// Estimated is what the run expected this model to cost before any
	// call (set by hosts that estimate; absent otherwise).
	Estimated *CostEstimate `json:"estimated,omitempty"`
}

// CostEstimate is a run's expected cost before any call: the calls not
// answered from a checkpoint, their input tokens (estimated from the
// requests' sizes), their output tokens (the max_output_tokens bound) and
// the price of both.
type CostEstimate struct {
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	// Batch is true when the calls go through a batch API, priced at the
	// batch price.
	Batch bool `json:"batch,omitempty"`
}

// Add returns e + f.
func (e CostEstimate) Add(f CostEstimate) CostEstimate {
	return CostEstimate{Calls: e.Calls + f.Calls, InputTokens: e.InputTokens + f.InputTokens, OutputTokens: e.OutputTokens + f.OutputTokens, CostUSD: e.CostUSD + f.CostUSD, Batch: e.Batch || f.Batch}
}

// ModelEstimate is the estimate of one provider/model.
type ModelEstimate struct {
	Provider string
	Model    string
	CostEstimate
}

// SetEstimates records the estimate per provider/model (a model that was
// estimated but never called gets a line of its own) and their total.
func (s *UsageSummary) SetEstimates(est []ModelEstimate) {
	var total CostEstimate
	for _, e := range est {
		total = total.Add(e.CostEstimate)
		i := slices.IndexFunc(s.ByModel, func(m ModelUsage) bool { return m.Provider == e.Provider && m.Model == e.Model })
		if i < 0 {
			s.ByModel = append(s.ByModel, ModelUsage{Provider: e.Provider, Model: e.Model})
			i = len(s.ByModel) - 1
		}
		c := e.CostEstimate
		if s.ByModel[i].Estimated != nil {
			c = c.Add(*s.ByModel[i].Estimated)
		}
		s.ByModel[i].Estimated = &c
	}
	s.Estimated = &total
	sortModels(s.ByModel)
}

// CostMarkdown is a table of the estimated and actual cost per
// provider/model ("" when nothing was priced or estimated).
func (s *UsageSummary) CostMarkdown() string {
	priced := s.Estimated != nil || s.Total.CostUSD != nil
	if !priced {
		return ""
	}
	usd := func(v *float64) string {
		if v == nil {
			return "—"
		}
		return "$" + strconv.FormatFloat(*v, 'f', 4, 64)
	}
	var b strings.Builder
	b.WriteString("## Judge cost\n\n")
	if s.PriceTable != "" {
		fmt.Fprintf(&b, "Prices: %s.", s.PriceTable)
	}
	if s.MaxCostUSD != nil {
		fmt.Fprintf(&b, " Ceiling (--max-cost): %s.", usd(s.MaxCostUSD))
	}
	if s.PriceTable != "" || s.MaxCostUSD != nil {
		b.WriteString("\n\n")
	}
	b.WriteString("| provider | model | calls made | reused | estimated calls | estimated cost | actual cost |\n|---|---|---|---|---|---|---|\n")
	row := func(provider, model string, calls, cached int, est *CostEstimate, actual *float64) {
		ec, ecost := "—", "—"
		if est != nil {
			c := est.CostUSD
			ec, ecost = strconv.Itoa(est.Calls), usd(&c)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %s |\n", provider, model, calls, cached, ec, ecost, usd(actual))
	}
	for _, m := range s.ByModel {
		row(m.Provider, m.Model, m.Calls, m.CachedCalls, m.Estimated, m.Usage.CostUSD)
	}
	row("**total**", "", s.Calls, s.CachedCalls, s.Estimated, s.Total.CostUSD)
	b.WriteString("\n")
	return b.String()
}

func sortModels(ms []ModelUsage) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		return a.Provider+"\x00"+a.Model < b.Provider+"\x00"+b.Model
	})
}

// SummarizeUsage adds up records per provider/model.
func SummarizeUsage(records []UsageRecord) *UsageSummary {
	s := &UsageSummary{ByModel: []ModelUsage{}}
	index := map[string]int{}
	for _, r := range records {
		k := r.Provider + "\x00" + r.Model
		i, ok := index[k]
		if !ok {
			i = len(s.ByModel)
			index[k] = i
			s.ByModel = append(s.ByModel, ModelUsage{Provider: r.Provider, Model: r.Model})
		}
		m := &s.ByModel[i]
		if r.Cached {
			s.CachedCalls++
			m.CachedCalls++
			continue
		}
		s.Calls++
		m.Calls++
		if r.Batch {
			s.BatchCalls++
			m.BatchCalls++
		}
		m.Usage = m.Usage.Add(r.Usage)
		s.Total = s.Total.Add(r.Usage)
	}
	sortModels(s.ByModel)
	return s
}

// UsageReporter is implemented by adapters that keep usage records.
type UsageReporter interface {
	UsageRecords() []UsageRecord
}

// CachedAdapter answers a call from its store when the same request was
// already answered by the same model, and otherwise calls the adapter and
// stores the answer before returning it: a rerun never pays for the same
// judgment twice. Only the answer text, the served model and the usage are
// stored, never the request's bytes or any credential.
type CachedAdapter struct {
	Adapter ModelAdapter
	Store   evalcase.CheckpointStore
	// Context is fingerprinted with each request (a prompt version, a
	// setting the adapter's Info leaves out).
	Context any
	// Usage, when set, receives a Cached record for every answer served
	// from the store.
	Usage *UsageTracker
}

// Info returns the wrapped adapter's model.
func (c *CachedAdapter) Info() ModelInfo { return c.Adapter.Info() }

type cachedCall struct {
	Version     int           `json:"version"`
	Fingerprint string        `json:"fingerprint"`
	Provider    string        `json:"provider"`
	Model       string        `json:"model"`
	Purpose     string        `json:"purpose"`
	Response    ModelResponse `json:"response"`
}

// Call returns the stored answer or asks the adapter.
func (c *CachedAdapter) Call(ctx context.Context, req ModelRequest) (ModelResponse, error) {
	info := c.Adapter.Info()
	fp, err := req.Fingerprint(info)
	if err != nil {
		return ModelResponse{}, err
	}
	if c.Context != nil {
		b, err := evalcase.CanonicalJSON(struct {
			FP  string `json:"fp"`
			Ctx any    `json:"ctx"`
		}{fp, c.Context})
		if err != nil {
			return ModelResponse{}, fmt.Errorf("call cache context: %w", err)
		}
		fp = evalcase.SHA256Hex(b)
	}
	key := "call/" + fp
	if data, ok, err := c.Store.Load(key); err != nil {
		return ModelResponse{}, fmt.Errorf("call cache: %w", err)
	} else if ok {
		var cc cachedCall
		if json.Unmarshal(data, &cc) == nil && cc.Version == 1 && cc.Fingerprint == fp {
			if c.Usage != nil {
				c.Usage.RecordUsage(UsageRecord{Provider: info.Provider, Model: info.Model, Purpose: req.Purpose, Cached: true, Usage: cc.Response.Usage})
			}
			return cc.Response, nil
		}
	}
	resp, err := c.Adapter.Call(ctx, req)
	if err != nil {
		return resp, err
	}
	data, err := evalcase.CanonicalJSON(cachedCall{Version: 1, Fingerprint: fp, Provider: info.Provider, Model: info.Model, Purpose: req.Purpose, Response: resp})
	if err != nil {
		return resp, err
	}
	if err := c.Store.Save(key, data); err != nil {
		return resp, fmt.Errorf("call cache: %w", err)
	}
	return resp, nil
}

// Provenance labels a judge against the producer of the prediction.
type Provenance string

// The provenance labels of the seed.
const (
	ProvenanceSameModel    Provenance = "same_model"
	ProvenanceSameProvider Provenance = "same_provider"
	ProvenanceIndependent  Provenance = "independent"
	// ProvenanceUnknown: the producer was not given; nothing is assumed
	// about the judge's independence.
	ProvenanceUnknown Provenance = "unknown"
)

// JudgeProvenance labels a judge (provider, model) against the producer:
// same_model, same_provider, independent, or unknown when the producer (or
// the judge's provider) is not known. Names compare case-insensitively.
func JudgeProvenance(producer *evalcase.Producer, provider, model string) Provenance {
	if producer == nil || strings.TrimSpace(producer.Provider) == "" || strings.TrimSpace(provider) == "" {
		return ProvenanceUnknown
	}
	if !sameName(producer.Provider, provider) {
		return ProvenanceIndependent
	}
	if producer.Model != "" && sameName(producer.Model, model) {
		return ProvenanceSameModel
	}
	return ProvenanceSameProvider
}

func sameName(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}
