package modeladapter

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/docscore/docscore/scoring/judging"
)

// DefaultAnthropicBaseURL is the Anthropic API's address.
const DefaultAnthropicBaseURL = "https://api.anthropic.com/"

// DefaultAnthropicMaxTokens is the max_tokens sent when none is configured.
const DefaultAnthropicMaxTokens = 8192

// AnthropicAdapter calls the Anthropic Messages API (POST /v1/messages)
// on net/http (wire.go says why not the SDK): the instructions as the system prompt, the task
// as a text block, images as base64 image blocks and PDFs as base64
// document blocks, and the output schema as output_config.format
// (json_schema). It keeps usage records (LastUsage, UsageRecords,
// TotalUsage, ResetUsage).
type AnthropicAdapter struct {
	judging.UsageTracker
	cfg Config
	api *apiClient
}

// NewAnthropic returns an Anthropic adapter. The key must be given: it is
// never read from the environment or a profile file here. A temperature
// is refused: the Messages API version spoken (anthropicVersion) takes no
// sampling parameters.
func NewAnthropic(cfg Config) (*AnthropicAdapter, error) {
	if err := cfg.check("anthropic"); err != nil {
		return nil, err
	}
	if cfg.APIKey == "" {
		return nil, errors.New("anthropic adapter: no API key (set ANTHROPIC_API_KEY in the process environment)")
	}
	if cfg.Temperature != nil {
		return nil, errors.New("anthropic adapter: the Messages API (version 2026-10-21, SDK v2) takes no temperature; leave it unset")
	}
	switch cfg.ReasoningEffort {
	case "", "low", "medium", "high", "xhigh", "max":
	default:
		return nil, fmt.Errorf("anthropic adapter: reasoning effort %q: expected low, medium, high, xhigh or max", cfg.ReasoningEffort)
	}
	if cfg.MaxOutputTokens <= 0 {
		cfg.MaxOutputTokens = DefaultAnthropicMaxTokens
	}
	base := cfg.BaseURL
	if base == "" {
		base = DefaultAnthropicBaseURL
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return &AnthropicAdapter{cfg: cfg, api: newAnthropicClient(cfg, base)}, nil
}

// Info describes the model and its settings.
func (a *AnthropicAdapter) Info() judging.ModelInfo {
	return judging.ModelInfo{Provider: "anthropic", Model: a.cfg.Model, ReasoningEffort: a.cfg.ReasoningEffort,
		Settings: map[string]string{"max_tokens": fmt.Sprint(a.cfg.MaxOutputTokens)}}
}

// Params returns the request body the adapter sends for req.
func (a *AnthropicAdapter) Params(req judging.ModelRequest) (anthropicRequest, []string, error) {
	text, err := inputText(req)
	if err != nil {
		return anthropicRequest{}, nil, err
	}
	schema, err := schemaMap(req)
	if err != nil {
		return anthropicRequest{}, nil, err
	}
	var warnings []string
	blocks := []anthropicBlock{textBlock(text)}
	for _, att := range req.Attachments {
		data := base64.StdEncoding.EncodeToString(att.Content)
		switch {
		case att.MediaType == "application/pdf":
			blocks = append(blocks, textBlock(attachmentLabel(att)), sourceBlock("document", "application/pdf", data))
		case anthropicImage(att.MediaType):
			blocks = append(blocks, textBlock(attachmentLabel(att)), sourceBlock("image", att.MediaType, data))
		default:
			w := fmt.Sprintf("attachment %s (%s) not sent: the Anthropic Messages API accepts JPEG, PNG, GIF and WebP images and PDF documents", att.ArtifactID, att.MediaType)
			warnings = append(warnings, w)
			blocks = append(blocks, textBlock(w))
		}
	}
	p := anthropicRequest{
		Model:     a.cfg.Model,
		MaxTokens: a.cfg.MaxOutputTokens,
		System:    []anthropicBlock{textBlock(req.Instructions)},
		Messages:  []anthropicMessage{{Content: blocks, Role: "user"}},
		OutputConfig: anthropicOutput{
			Format: anthropicFormat{Type: "json_schema", Schema: schema},
			Effort: a.cfg.ReasoningEffort,
		},
	}
	return p, warnings, nil
}

func anthropicImage(mt string) bool {
	switch mt {
	case "image/png", "image/jpeg", "image/webp", "image/gif":
		return true
	}
	return false
}

// Call sends req under the adapter's policy and records its usage.
func (a *AnthropicAdapter) Call(ctx context.Context, req judging.ModelRequest) (judging.ModelResponse, error) {
	params, warnings, err := a.Params(req)
	if err != nil {
		return judging.ModelResponse{}, err
	}
	label := "anthropic/" + a.cfg.Model
	resp, attempts, err := call(ctx, "anthropic", label, a.cfg.Policy, a.cfg.Limiter, true, a.cfg.gate("anthropic", req), func(ctx context.Context) (judging.ModelResponse, error) {
		var m anthropicAnswer
		if err := a.api.do(ctx, http.MethodPost, "v1/messages", params, &m); err != nil {
			return judging.ModelResponse{}, err
		}
		return anthropicResponse(&m, warnings, a.cfg.Prices), nil
	})
	if err != nil {
		return judging.ModelResponse{}, redactErr(err, a.cfg.APIKey)
	}
	a.RecordUsage(judging.UsageRecord{Provider: "anthropic", Model: a.cfg.Model, Purpose: req.Purpose, Attempts: attempts, Usage: resp.Usage})
	return resp, nil
}

// Estimate is req's expected input tokens (EstimateInputTokens), output
// bound (max_output_tokens) and their price.
func (a *AnthropicAdapter) Estimate(req judging.ModelRequest) judging.CostEstimate {
	return a.cfg.estimate("anthropic", req)
}

// Priced reports whether the adapter has prices.
func (a *AnthropicAdapter) Priced() bool { return a.cfg.Prices != nil }

// BatchEstimate is Estimate at the batch price.
func (a *AnthropicAdapter) BatchEstimate(req judging.ModelRequest) judging.CostEstimate {
	return a.cfg.batchEstimate("anthropic", req)
}

// anthropicResponse reads a Messages API answer (a direct call's, or a
// batch's succeeded result) into a ModelResponse priced with prices.
func anthropicResponse(m *anthropicAnswer, warnings []string, prices *judging.Prices) judging.ModelResponse {
	var text strings.Builder
	for _, b := range m.Content {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	out := judging.ModelResponse{Text: text.String(), Model: m.Model, Warnings: append([]string(nil), warnings...)}
	in := m.Usage.InputTokens + m.Usage.CacheReadInputTokens + m.Usage.CacheCreationInputTokens
	out.Usage = priced(judging.Usage{
		InputTokens: in, CachedInputTokens: m.Usage.CacheReadInputTokens,
		OutputTokens: m.Usage.OutputTokens, TotalTokens: in + m.Usage.OutputTokens,
	}, prices)
	if m.StopReason != "" && m.StopReason != "end_turn" {
		out.Warnings = append(out.Warnings, fmt.Sprintf("stop_reason %s", m.StopReason))
	}
	return out
}
