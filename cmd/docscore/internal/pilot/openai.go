package pilot

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/runfile"
)

// OpenAIConfig configures an OpenAIEngine.
type OpenAIConfig struct {
	// BaseURL is the server's API root, such as http://localhost:8000/v1;
	// requests go to BaseURL + "/chat/completions".
	BaseURL string
	// APIKey is sent as a bearer token when not empty. It is never
	// written anywhere.
	APIKey      string
	Model       string
	MaxTokens   int
	Temperature *float64
	// Extra is a JSON object of extra request members (canonical form,
	// see CanonicalExtra), or nil.
	Extra json.RawMessage
	// Prompt is sent as a text part before the image; none when empty.
	Prompt string
	// MaxConns bounds the open connections (the highest concurrency).
	MaxConns int
}

// maxAnswerBytes bounds a server's answer.
const maxAnswerBytes = 64 << 20

// reservedMembers are the request members docscore sets itself.
var reservedMembers = []string{"model", "messages", "max_tokens", "max_completion_tokens", "temperature", "stream", "n"}

// OpenAIEngine sends each image to an OpenAI-compatible chat completions
// server (vLLM, SGLang, llama.cpp, Ollama) as a base64 data URL content
// part, with no retries.
//
// It is written on net/http, as the judges' client is, rather than on the
// official SDK (github.com/openai/openai-go/v3, checked at v3.98.0). The SDK can meet
// three of the runner's needs: no retries (option.WithMaxRetries(0)), a
// deadline per request (the context, or option.WithRequestTimeout), and
// the raw status and body for the finish reason (option.WithResponseInto;
// option.WithRequestBody sends bytes decided here). The one it cannot
// meet through its public options: a recorded run must not depend on the
// process environment, and openai.NewClient always applies
// OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_ORG_ID, OPENAI_PROJECT_ID and
// OPENAI_CUSTOM_HEADERS (arbitrary extra headers) from it; the switch that
// turns this off, requestconfig.WithEnvironmentDefaultsDisabled, is
// internal API. An option.WithMiddleware that rebuilds the headers from an
// allow-list would work around it; until a run proves that, this client
// stays.
type OpenAIEngine struct {
	client *http.Client
	url    string
	key    string
	prefix []byte // the request body up to the image's data URL
	suffix []byte // the rest of the body after it
}

// NewOpenAI returns an engine for cfg.
func NewOpenAI(cfg OpenAIConfig) (*OpenAIEngine, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--base-url %q: expected an http:// or https:// URL such as http://localhost:8000/v1", RedactURL(cfg.BaseURL))
	}
	if cfg.Model == "" {
		return nil, errors.New("--model is required for the openai engine: the model name the server serves")
	}
	var head bytes.Buffer
	head.WriteString(`{"model":`)
	writeJSONString(&head, cfg.Model)
	head.WriteString(`,"messages":[{"role":"user","content":[`)
	if cfg.Prompt != "" {
		head.WriteString(`{"type":"text","text":`)
		writeJSONString(&head, cfg.Prompt)
		head.WriteString(`},`)
	}
	head.WriteString(`{"type":"image_url","image_url":{"url":"`)
	var tail bytes.Buffer
	tail.WriteString(`"}}]}]`)
	if cfg.MaxTokens > 0 {
		fmt.Fprintf(&tail, `,"max_tokens":%d`, cfg.MaxTokens)
	}
	if cfg.Temperature != nil {
		t, _ := json.Marshal(*cfg.Temperature)
		tail.WriteString(`,"temperature":`)
		tail.Write(t)
	}
	if len(cfg.Extra) > 0 {
		extra := bytes.TrimSpace(cfg.Extra)
		if len(extra) > 2 { // not "{}"
			tail.WriteByte(',')
			tail.Write(extra[1 : len(extra)-1])
		}
	}
	tail.WriteByte('}')

	conns := max(cfg.MaxConns, 1)
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConns = conns + 16
	transport.MaxIdleConnsPerHost = conns + 16
	transport.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	return &OpenAIEngine{
		client: &http.Client{Transport: transport},
		url:    strings.TrimRight(cfg.BaseURL, "/") + "/chat/completions",
		key:    cfg.APIKey,
		prefix: head.Bytes(),
		suffix: tail.Bytes(),
	}, nil
}

// Close closes the idle connections.
func (e *OpenAIEngine) Close() error {
	e.client.CloseIdleConnections()
	return nil
}

// Do sends one image and classifies the answer: ok (a 2xx chat
// completion), http_error (another status, or a 2xx body that is not a
// chat completion) or transport_error (no complete answer).
func (e *OpenAIEngine) Do(ctx context.Context, req EngineRequest) Result {
	mt := req.MediaType
	if mt == "" {
		mt = "application/octet-stream"
	}
	dataURL := "data:" + mt + ";base64,"
	body := make([]byte, 0, len(e.prefix)+len(dataURL)+base64.StdEncoding.EncodedLen(len(req.Image))+len(e.suffix))
	body = append(body, e.prefix...)
	body = append(body, dataURL...)
	body = base64.StdEncoding.AppendEncode(body, req.Image)
	body = append(body, e.suffix...)

	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return Result{Status: runfile.StatusTransportError, Err: err.Error()}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if e.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+e.key)
	}
	resp, err := e.client.Do(hreq)
	if err != nil {
		return Result{Status: runfile.StatusTransportError, Err: "no answer: " + transportMessage(err)}
	}
	data, rerr := readAllLimit(resp.Body, maxAnswerBytes)
	resp.Body.Close()
	if rerr != nil {
		return Result{Status: runfile.StatusTransportError, HTTPStatus: resp.StatusCode,
			Err: fmt.Sprintf("HTTP %d, then the answer broke off: %s", resp.StatusCode, transportMessage(rerr))}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Result{Status: runfile.StatusHTTPError, HTTPStatus: resp.StatusCode,
			Err: fmt.Sprintf("HTTP %d: %s", resp.StatusCode, errorMessage(data))}
	}
	ans, perr := ParseChatResponse(data)
	if perr != nil {
		return Result{Status: runfile.StatusHTTPError, HTTPStatus: resp.StatusCode,
			Err: fmt.Sprintf("HTTP %d, but the answer is not a chat completion: %v", resp.StatusCode, perr)}
	}
	return Result{Status: runfile.StatusOK, HTTPStatus: resp.StatusCode,
		FinishReason: ans.FinishReason, Output: ans.Content, Usage: ans.Usage}
}

// ChatAnswer is what a chat completion says about its first choice.
type ChatAnswer struct {
	Content      *string // nil when the message content is null
	FinishReason *string // nil when null or absent
	Usage        *runfile.Usage
}

// ParseChatResponse reads a chat completions answer: the first choice's
// message content (a string, null, or an array of text parts, which are
// joined), its finish_reason and the usage. Any other shape is an error
// saying what was expected.
func ParseChatResponse(data []byte) (*ChatAnswer, error) {
	var v struct {
		Choices *[]struct {
			Message *struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     *int `json:"prompt_tokens"`
			CompletionTokens *int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("expected a JSON object with a \"choices\" array: %v", shortJSONError(err))
	}
	if v.Choices == nil || len(*v.Choices) == 0 {
		return nil, errors.New("expected a non-empty \"choices\" array")
	}
	choice := (*v.Choices)[0]
	if choice.Message == nil {
		return nil, errors.New("choices[0]: expected a \"message\" object")
	}
	ans := &ChatAnswer{FinishReason: choice.FinishReason}
	content := bytes.TrimSpace(choice.Message.Content)
	switch {
	case len(content) == 0 || bytes.Equal(content, []byte("null")):
	case content[0] == '"':
		var s string
		if err := json.Unmarshal(content, &s); err != nil {
			return nil, fmt.Errorf("choices[0].message.content: %v", shortJSONError(err))
		}
		ans.Content = &s
	case content[0] == '[':
		var parts []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if err := json.Unmarshal(content, &parts); err != nil {
			return nil, fmt.Errorf("choices[0].message.content: expected a string or an array of text parts: %v", shortJSONError(err))
		}
		var b strings.Builder
		for _, p := range parts {
			if p.Text != nil {
				b.WriteString(*p.Text)
			}
		}
		s := b.String()
		ans.Content = &s
	default:
		return nil, errors.New("choices[0].message.content: expected a string, null or an array of text parts")
	}
	if u := v.Usage; u != nil && (u.PromptTokens != nil || u.CompletionTokens != nil) {
		ans.Usage = &runfile.Usage{}
		if u.PromptTokens != nil {
			ans.Usage.PromptTokens = *u.PromptTokens
		}
		if u.CompletionTokens != nil {
			ans.Usage.CompletionTokens = *u.CompletionTokens
		}
	}
	return ans, nil
}

// shortJSONError drops encoding/json's Go type names from an error.
func shortJSONError(err error) string {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		if typ.Field != "" {
			return fmt.Sprintf("member %q is %s of the wrong kind", typ.Field, typ.Value)
		}
		return fmt.Sprintf("got %s", typ.Value)
	}
	return err.Error()
}

// errorMessage extracts a server's error message: the error.message (or a
// string error, or detail) of a JSON body, else the start of the body.
func errorMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			return clip(inner.Message, 500)
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return clip(s, 500)
		case v.Message != "":
			return clip(v.Message, 500)
		case json.Unmarshal(v.Detail, &s) == nil && s != "":
			return clip(s, 500)
		case len(v.Detail) > 0:
			return clip(string(v.Detail), 500)
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return "(empty body)"
	}
	return clip(string(bytes.TrimSpace(body)), 500)
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// transportMessage describes a transport failure without the request
// URL's user information.
func transportMessage(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// RedactURL removes the user information (a password or token) from a
// URL, for headers and messages.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = nil
	return u.String()
}

// writeJSONString writes s as a JSON string, without HTML escaping.
func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // the encoder's newline
}

// CanonicalExtra checks a JSON object of extra request members and
// returns it compact with its keys sorted (numbers kept as written). A
// member docscore sets itself (model, messages, max_tokens, temperature,
// stream, n) is refused: use its own setting.
func CanonicalExtra(raw []byte) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, fmt.Errorf("extra request members: expected a JSON object such as {\"top_p\": 1}: %v", shortJSONErrorOr(err))
	}
	if dec.More() {
		return nil, errors.New("extra request members: expected one JSON object")
	}
	for _, k := range reservedMembers {
		if _, ok := m[k]; ok {
			return nil, fmt.Errorf("extra request members: %q is set by docscore: use its own setting (--model, --max-tokens, --temperature)", k)
		}
	}
	if len(m) == 0 {
		return nil, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(b.Bytes())), nil
}

func shortJSONErrorOr(err error) string {
	if err == nil {
		return "got null"
	}
	return shortJSONError(err)
}

// itoa is strconv.Itoa, for messages.
func itoa(i int) string { return strconv.Itoa(i) }
