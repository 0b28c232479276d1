package modeladapter

// The providers' official SDKs as the reference of the hand-written
// client (wire.go): the request bodies the adapters built with them
// before, and the answers they parsed, are compared with the client's.
// The SDKs are linked into this test only, never into the binary.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// sdkOpenAIParams is the request body the adapter built with openai-go.
func sdkOpenAIParams(cfg Config, req judging.ModelRequest) responses.ResponseNewParams {
	text, _ := inputText(req)
	schema, _ := schemaMap(req)
	parts := responses.ResponseInputMessageContentListParam{
		{OfInputText: &responses.ResponseInputTextParam{Text: text}},
	}
	for _, att := range req.Attachments {
		switch {
		case att.MediaType == "application/pdf":
			parts = append(parts,
				responses.ResponseInputContentUnionParam{OfInputText: &responses.ResponseInputTextParam{Text: attachmentLabel(att)}},
				responses.ResponseInputContentUnionParam{OfInputFile: &responses.ResponseInputFileParam{
					Filename: openai.String(att.ArtifactID), FileData: openai.String(dataURL(att)),
				}})
		case openAIImage(att.MediaType):
			parts = append(parts,
				responses.ResponseInputContentUnionParam{OfInputText: &responses.ResponseInputTextParam{Text: attachmentLabel(att)}},
				responses.ResponseInputContentUnionParam{OfInputImage: &responses.ResponseInputImageParam{
					ImageURL: openai.String(dataURL(att)), Detail: responses.ResponseInputImageDetailHigh,
				}})
		default:
			w := fmt.Sprintf("attachment %s (%s) not sent: the OpenAI Responses API accepts PNG, JPEG, WebP and GIF images and PDF files", att.ArtifactID, att.MediaType)
			parts = append(parts, responses.ResponseInputContentUnionParam{OfInputText: &responses.ResponseInputTextParam{Text: w}})
		}
	}
	p := responses.ResponseNewParams{
		Model:        shared.ResponsesModel(cfg.Model),
		Instructions: openai.String(req.Instructions),
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage(parts, responses.EasyInputMessageRoleUser),
		}},
		Text: responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigUnionParam{
			OfJSONSchema: &responses.ResponseFormatTextJSONSchemaConfigParam{Name: schemaName(req), Schema: schema, Strict: openai.Bool(true)},
		}},
		Store: openai.Bool(false),
	}
	if cfg.Temperature != nil {
		p.Temperature = openai.Float(*cfg.Temperature)
	}
	if cfg.ReasoningEffort != "" {
		p.Reasoning = shared.ReasoningParam{Effort: shared.ReasoningEffort(cfg.ReasoningEffort)}
	}
	if cfg.MaxOutputTokens > 0 {
		p.MaxOutputTokens = openai.Int(cfg.MaxOutputTokens)
	}
	return p
}

// sdkAnthropicParams is the request body the adapter built with
// anthropic-sdk-go (cfg.MaxOutputTokens already defaulted).
func sdkAnthropicParams(cfg Config, req judging.ModelRequest) anthropic.MessageNewParams {
	text, _ := inputText(req)
	schema, _ := schemaMap(req)
	blocks := []anthropic.ContentBlockParamUnion{anthropic.NewTextBlock(text)}
	for _, att := range req.Attachments {
		data := base64.StdEncoding.EncodeToString(att.Content)
		switch {
		case att.MediaType == "application/pdf":
			blocks = append(blocks, anthropic.NewTextBlock(attachmentLabel(att)),
				anthropic.NewDocumentBlock(anthropic.Base64PDFSourceParam{Data: data}))
		case anthropicImage(att.MediaType):
			blocks = append(blocks, anthropic.NewTextBlock(attachmentLabel(att)),
				anthropic.NewImageBlockBase64(att.MediaType, data))
		default:
			w := fmt.Sprintf("attachment %s (%s) not sent: the Anthropic Messages API accepts JPEG, PNG, GIF and WebP images and PDF documents", att.ArtifactID, att.MediaType)
			blocks = append(blocks, anthropic.NewTextBlock(w))
		}
	}
	return anthropic.MessageNewParams{
		Model:     anthropic.Model(cfg.Model),
		MaxTokens: cfg.MaxOutputTokens,
		System:    []anthropic.TextBlockParam{{Text: req.Instructions}},
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(blocks...)},
		OutputConfig: anthropic.OutputConfigParam{
			Format: anthropic.JSONOutputFormatParam{Schema: schema},
			Effort: anthropic.OutputConfigEffort(cfg.ReasoningEffort),
		},
	}
}

// wireRequests are requests with every kind of part: an image, a PDF,
// an attachment no API takes, and none.
func wireRequests(t *testing.T) []judging.ModelRequest {
	c := stage(t)
	odt, _ := evalcase.ArtifactFromBytes("notes.odt", []byte("PK\x03\x04"), evalcase.ArtifactOptions{})
	return []judging.ModelRequest{
		{Purpose: "judge", Instructions: "Judge the prediction.", Input: map[string]any{"case": c.CaseID, "prediction": c.Prediction}, SchemaName: "verdict", OutputSchema: judging.JudgeOutputSchema, Attachments: c.References[:2]},
		{Purpose: "judge", Instructions: "x", Input: map[string]any{}, OutputSchema: judging.JudgeOutputSchema, Attachments: []evalcase.ReferenceArtifact{odt}},
		{Purpose: "ground_truth", Instructions: "y", Input: []any{"a", 1.5}, SchemaName: "s", OutputSchema: judging.JudgeOutputSchema},
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWireMatchesTheSDKs: the bodies the hand-written client sends are
// byte for byte those the SDKs wrote, for every setting that changes
// them, direct and batched.
func TestWireMatchesTheSDKs(t *testing.T) {
	zero, half := 0.0, 0.5
	for _, cfg := range []Config{
		{Model: "gpt-x"},
		{Model: "gpt-x", Temperature: &half, ReasoningEffort: "high", MaxOutputTokens: 77},
		{Model: "gpt-x", Temperature: &zero},
	} {
		cfg.APIKey = testKey
		a, err := NewOpenAI(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i, req := range wireRequests(t) {
			got, _, err := a.Params(req)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := mustJSON(t, got), mustJSON(t, sdkOpenAIParams(cfg, req)); g != w {
				t.Errorf("openai %+v, request %d:\n got %.400s\nwant %.400s", cfg, i, g, w)
			}
			line, err := a.BatchFile([]BatchItem{{CustomID: "c-1", Request: req}})
			if err != nil {
				t.Fatal(err)
			}
			want := mustJSON(t, struct {
				CustomID string                      `json:"custom_id"`
				Method   string                      `json:"method"`
				URL      string                      `json:"url"`
				Body     responses.ResponseNewParams `json:"body"`
			}{"c-1", "POST", "/v1/responses", sdkOpenAIParams(cfg, req)}) + "\n"
			if string(line) != want {
				t.Errorf("openai batch line %d:\n got %.300s\nwant %.300s", i, line, want)
			}
		}
	}
	for _, cfg := range []Config{{Model: "claude-x"}, {Model: "claude-x", ReasoningEffort: "max", MaxOutputTokens: 100}} {
		cfg.APIKey = testKey
		a, err := NewAnthropic(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ref := a.cfg // MaxOutputTokens defaulted
		for i, req := range wireRequests(t) {
			got, _, err := a.Params(req)
			if err != nil {
				t.Fatal(err)
			}
			sdk := sdkAnthropicParams(ref, req)
			if g, w := mustJSON(t, got), mustJSON(t, sdk); g != w {
				t.Errorf("anthropic %+v, request %d:\n got %.400s\nwant %.400s", cfg, i, g, w)
			}
			batch, err := a.BatchParams([]BatchItem{{CustomID: "c-1", Request: req}})
			if err != nil {
				t.Fatal(err)
			}
			want := anthropic.MessageBatchNewParams{Requests: []anthropic.MessageBatchNewParamsRequest{{
				CustomID: "c-1",
				Params: anthropic.MessageBatchNewParamsRequestParams{
					Model: sdk.Model, MaxTokens: sdk.MaxTokens, System: sdk.System, Messages: sdk.Messages, OutputConfig: sdk.OutputConfig,
				},
			}}}
			if g, w := mustJSON(t, batch), mustJSON(t, want); g != w {
				t.Errorf("anthropic batch %d:\n got %.400s\nwant %.400s", i, g, w)
			}
		}
	}
}

// TestAnswersParsedAsTheSDKs: an answer reads into the same response
// through the client's types as through the SDKs'.
func TestAnswersParsedAsTheSDKs(t *testing.T) {
	prices := &judging.Prices{InputPerMTok: 2, CachedInputPerMTok: 1, OutputPerMTok: 8}
	oa := []string{
		judgetest.OpenAIAnswer(passAnswer, 1200, 80),
		`{"model":"m","status":"incomplete","output":[{"type":"reasoning","content":[]},{"type":"message","content":[{"type":"output_text","text":"a"},{"type":"refusal","refusal":"no"},{"type":"output_text","text":"b"}]}],"usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":4},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":3},"total_tokens":15}}`,
	}
	for i, body := range oa {
		var sdk responses.Response
		var ours openAIAnswer
		if err := json.Unmarshal([]byte(body), &sdk); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(body), &ours); err != nil {
			t.Fatal(err)
		}
		want := judging.ModelResponse{Text: sdk.OutputText(), Model: sdk.Model, Warnings: []string{"w"}}
		want.Usage = priced(judging.Usage{
			InputTokens: sdk.Usage.InputTokens, CachedInputTokens: sdk.Usage.InputTokensDetails.CachedTokens,
			OutputTokens: sdk.Usage.OutputTokens, ReasoningTokens: sdk.Usage.OutputTokensDetails.ReasoningTokens,
			TotalTokens: sdk.Usage.TotalTokens,
		}, prices)
		if sdk.Status != "" && sdk.Status != "completed" {
			want.Warnings = append(want.Warnings, "response status "+string(sdk.Status))
		}
		if got := openAIResponse(&ours, []string{"w"}, prices); !reflect.DeepEqual(got, want) {
			t.Errorf("openai answer %d: got %+v, want %+v", i, got, want)
		}
	}
	an := []string{
		judgetest.AnthropicAnswer(passAnswer, 900, 60),
		`{"id":"msg_1","type":"message","role":"assistant","model":"c","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"text","text":"x"},{"type":"text","text":"y"}],"stop_reason":"max_tokens","usage":{"input_tokens":7,"output_tokens":3,"cache_creation_input_tokens":2,"cache_read_input_tokens":5}}`,
	}
	for i, body := range an {
		var sdk anthropic.Message
		var ours anthropicAnswer
		if err := json.Unmarshal([]byte(body), &sdk); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(body), &ours); err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, b := range sdk.Content {
			if b.Type == "text" {
				text.WriteString(b.Text)
			}
		}
		want := judging.ModelResponse{Text: text.String(), Model: string(sdk.Model)}
		in := sdk.Usage.InputTokens + sdk.Usage.CacheReadInputTokens + sdk.Usage.CacheCreationInputTokens
		want.Usage = priced(judging.Usage{InputTokens: in, CachedInputTokens: sdk.Usage.CacheReadInputTokens,
			OutputTokens: sdk.Usage.OutputTokens, TotalTokens: in + sdk.Usage.OutputTokens}, prices)
		if sdk.StopReason != "" && sdk.StopReason != "end_turn" {
			want.Warnings = append(want.Warnings, "stop_reason "+string(sdk.StopReason))
		}
		if got := anthropicResponse(&ours, nil, prices); !reflect.DeepEqual(got, want) {
			t.Errorf("anthropic answer %d: got %+v, want %+v", i, got, want)
		}
	}
}

// capture records the requests a server receives and answers each with
// reply.
type capture struct {
	mu   sync.Mutex
	reqs []*http.Request
	body [][]byte
}

func (c *capture) server(reply func(path string) (int, string)) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.reqs, c.body = append(c.reqs, r), append(c.body, b)
		c.mu.Unlock()
		status, body := reply(r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
}

// errorServer answers every request with HTTP 400, retry-after 7 s and
// body.
func errorServer(body string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(400)
		io.WriteString(w, body)
	}))
}

// TestHeadersAndErrorsAsTheSDKs: the method, path, credential, version
// and content headers are the SDKs', and an error answer gives the same
// HTTPError as the SDKs' errors gave.
func TestHeadersAndErrorsAsTheSDKs(t *testing.T) {
	req := wireRequests(t)[0]
	ctx := context.Background()
	errBody := map[string]string{
		"openai":    judgetest.OpenAIError("invalid_request_error", "bad model"),
		"anthropic": judgetest.AnthropicError("invalid_request_error", "bad model"),
	}
	for _, provider := range []string{"openai", "anthropic"} {
		var sdkCap, ourCap capture
		ok := func(string) (int, string) {
			if provider == "openai" {
				return 200, judgetest.OpenAIAnswer("{}", 1, 1)
			}
			return 200, judgetest.AnthropicAnswer("{}", 1, 1)
		}
		sdkSrv, ourSrv := sdkCap.server(ok), ourCap.server(ok)
		var ourErr error
		if provider == "openai" {
			cfg := Config{Model: "m", APIKey: testKey, BaseURL: sdkSrv.URL + "/v1/"}
			c := openai.NewClient(option.WithBaseURL(cfg.BaseURL), option.WithAPIKey(testKey), option.WithMaxRetries(0))
			if _, err := c.Responses.New(ctx, sdkOpenAIParams(cfg, req)); err != nil {
				t.Fatal(err)
			}
			cfg.BaseURL = ourSrv.URL + "/v1/"
			a, _ := NewOpenAI(cfg)
			if _, err := a.Call(ctx, req); err != nil {
				t.Fatal(err)
			}
			errSrv := errorServer(errBody[provider])
			cfg.BaseURL = errSrv.URL + "/v1/"
			a, _ = NewOpenAI(cfg)
			_, ourErr = a.Call(ctx, req)
			errSrv.Close()
		} else {
			cfg := Config{Model: "m", APIKey: testKey, BaseURL: sdkSrv.URL + "/"}
			a, _ := NewAnthropic(cfg)
			c := anthropic.NewClient(aoption.WithBaseURL(cfg.BaseURL), aoption.WithAPIKey(testKey), aoption.WithMaxRetries(0))
			if _, err := c.Messages.New(ctx, sdkAnthropicParams(a.cfg, req)); err != nil {
				t.Fatal(err)
			}
			cfg.BaseURL = ourSrv.URL + "/"
			a, _ = NewAnthropic(cfg)
			if _, err := a.Call(ctx, req); err != nil {
				t.Fatal(err)
			}
			errSrv := errorServer(errBody[provider])
			cfg.BaseURL = errSrv.URL + "/"
			a, _ = NewAnthropic(cfg)
			_, ourErr = a.Call(ctx, req)
			errSrv.Close()
		}
		sdkSrv.Close()
		ourSrv.Close()
		s, o := sdkCap.reqs[0], ourCap.reqs[0]
		if s.Method != o.Method || s.URL.Path != o.URL.Path {
			t.Errorf("%s: %s %s, the SDK %s %s", provider, o.Method, o.URL.Path, s.Method, s.URL.Path)
		}
		for _, h := range []string{"Authorization", "X-Api-Key", "Anthropic-Version", "Content-Type", "Accept"} {
			if s.Header.Get(h) != o.Header.Get(h) {
				t.Errorf("%s: header %s %q, the SDK's %q", provider, h, o.Header.Get(h), s.Header.Get(h))
			}
		}
		if !bytes.Equal(sdkCap.body[0], ourCap.body[0]) {
			t.Errorf("%s: body\n%.300s\nthe SDK's\n%.300s", provider, ourCap.body[0], sdkCap.body[0])
		}
		var he *HTTPError
		wantMsg := map[string]string{"openai": "bad model", "anthropic": "invalid_request_error: bad model"}[provider]
		if !errors.As(ourErr, &he) || he.Status != 400 || he.Message != wantMsg || he.RetryAfter.Seconds() != 7 {
			t.Errorf("%s: error %v (%+v)", provider, ourErr, he)
		}
	}
}
