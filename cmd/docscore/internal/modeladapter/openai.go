package modeladapter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/docscore/docscore/scoring/judging"
)

// DefaultOpenAIBaseURL is the OpenAI API's address.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1/"

// OpenAIAdapter calls the OpenAI Responses API (POST /v1/responses) with
// net/http (wire.go says why not the SDK): the instructions as instructions, the task as input
// text, images as input_image and PDFs as input_file parts (base64 data
// URLs), and the output schema as a strict JSON-schema text format. It
// keeps usage records (LastUsage, UsageRecords, TotalUsage, ResetUsage).
type OpenAIAdapter struct {
	judging.UsageTracker
	cfg Config
	api *apiClient
}

// NewOpenAI returns an OpenAI adapter. The key must be given: it is never
// read from the environment here.
func NewOpenAI(cfg Config) (*OpenAIAdapter, error) {
	if err := cfg.check("openai"); err != nil {
		return nil, err
	}
	if cfg.APIKey == "" {
		return nil, errors.New("openai adapter: no API key (set OPENAI_API_KEY in the process environment)")
	}
	if cfg.Budget != nil && cfg.MaxOutputTokens <= 0 {
		// A ceiling needs a bound on every answer.
		cfg.MaxOutputTokens = DefaultMaxOutputTokens
	}
	base := cfg.BaseURL
	if base == "" {
		base = DefaultOpenAIBaseURL
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return &OpenAIAdapter{cfg: cfg, api: newOpenAIClient(cfg, base)}, nil
}

// Info describes the model and its settings.
func (a *OpenAIAdapter) Info() judging.ModelInfo {
	info := judging.ModelInfo{Provider: "openai", Model: a.cfg.Model, Temperature: a.cfg.Temperature, ReasoningEffort: a.cfg.ReasoningEffort}
	if a.cfg.MaxOutputTokens > 0 {
		info.Settings = map[string]string{"max_output_tokens": fmt.Sprint(a.cfg.MaxOutputTokens)}
	}
	return info
}

// Params returns the request body the adapter sends for req.
func (a *OpenAIAdapter) Params(req judging.ModelRequest) (openAIRequest, []string, error) {
	text, err := inputText(req)
	if err != nil {
		return openAIRequest{}, nil, err
	}
	schema, err := schemaMap(req)
	if err != nil {
		return openAIRequest{}, nil, err
	}
	var warnings []string
	parts := []openAIPart{inputTextPart(text)}
	for _, att := range req.Attachments {
		switch {
		case att.MediaType == "application/pdf":
			parts = append(parts, inputTextPart(attachmentLabel(att)),
				openAIPart{Type: "input_file", Filename: att.ArtifactID, FileData: dataURL(att)})
		case openAIImage(att.MediaType):
			parts = append(parts, inputTextPart(attachmentLabel(att)),
				openAIPart{Type: "input_image", ImageURL: dataURL(att), Detail: "high"})
		default:
			w := fmt.Sprintf("attachment %s (%s) not sent: the OpenAI Responses API accepts PNG, JPEG, WebP and GIF images and PDF files", att.ArtifactID, att.MediaType)
			warnings = append(warnings, w)
			parts = append(parts, inputTextPart(w))
		}
	}
	p := openAIRequest{
		Model:        a.cfg.Model,
		Instructions: req.Instructions,
		Input:        []openAIMessage{{Content: parts, Role: "user"}},
		Text:         openAIText{Format: openAIFormat{Type: "json_schema", Name: schemaName(req), Schema: schema, Strict: true}},
		Store:        false,
	}
	if a.cfg.Temperature != nil {
		t := *a.cfg.Temperature
		p.Temperature = &t
	}
	if a.cfg.ReasoningEffort != "" {
		p.Reasoning = &openAIReasoning{Effort: a.cfg.ReasoningEffort}
	}
	if a.cfg.MaxOutputTokens > 0 {
		p.MaxOutputTokens = a.cfg.MaxOutputTokens
	}
	return p, warnings, nil
}

func openAIImage(mt string) bool {
	switch mt {
	case "image/png", "image/jpeg", "image/webp", "image/gif":
		return true
	}
	return false
}

// Call sends req under the adapter's policy and records its usage.
func (a *OpenAIAdapter) Call(ctx context.Context, req judging.ModelRequest) (judging.ModelResponse, error) {
	params, warnings, err := a.Params(req)
	if err != nil {
		return judging.ModelResponse{}, err
	}
	label := "openai/" + a.cfg.Model
	resp, attempts, err := call(ctx, "openai", label, a.cfg.Policy, a.cfg.Limiter, true, a.cfg.gate("openai", req), func(ctx context.Context) (judging.ModelResponse, error) {
		var r openAIAnswer
		if err := a.api.do(ctx, http.MethodPost, "responses", params, &r); err != nil {
			return judging.ModelResponse{}, err
		}
		return openAIResponse(&r, warnings, a.cfg.Prices), nil
	})
	if err != nil {
		return judging.ModelResponse{}, redactErr(err, a.cfg.APIKey)
	}
	a.RecordUsage(judging.UsageRecord{Provider: "openai", Model: a.cfg.Model, Purpose: req.Purpose, Attempts: attempts, Usage: resp.Usage})
	return resp, nil
}

// Estimate is req's expected input tokens (EstimateInputTokens), output
// bound (max_output_tokens) and their price.
func (a *OpenAIAdapter) Estimate(req judging.ModelRequest) judging.CostEstimate {
	return a.cfg.estimate("openai", req)
}

// Priced reports whether the adapter has prices.
func (a *OpenAIAdapter) Priced() bool { return a.cfg.Prices != nil }

// BatchEstimate is Estimate at the batch price.
func (a *OpenAIAdapter) BatchEstimate(req judging.ModelRequest) judging.CostEstimate {
	return a.cfg.batchEstimate("openai", req)
}

// openAIResponse reads a Responses API answer (a direct call's, or the
// body of a batch output line) into a ModelResponse priced with prices.
func openAIResponse(r *openAIAnswer, warnings []string, prices *judging.Prices) judging.ModelResponse {
	out := judging.ModelResponse{Text: r.outputText(), Model: r.Model, Warnings: append([]string(nil), warnings...)}
	out.Usage = priced(judging.Usage{
		InputTokens: r.Usage.InputTokens, CachedInputTokens: r.Usage.InputTokensDetails.CachedTokens,
		OutputTokens: r.Usage.OutputTokens, ReasoningTokens: r.Usage.OutputTokensDetails.ReasoningTokens,
		TotalTokens: r.Usage.TotalTokens,
	}, prices)
	if r.Status != "" && r.Status != "completed" {
		out.Warnings = append(out.Warnings, fmt.Sprintf("response status %s", r.Status))
	}
	return out
}
