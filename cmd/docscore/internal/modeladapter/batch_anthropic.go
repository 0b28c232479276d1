package modeladapter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/judging"
)

// RequestWarnings are the warnings a request's answer carries (an
// attachment the API does not take).
func (a *AnthropicAdapter) RequestWarnings(req judging.ModelRequest) []string {
	_, w, _ := a.Params(req)
	return w
}

// BatchParams returns the Message Batches request of items: custom_id and
// the params the direct call would send.
func (a *AnthropicAdapter) BatchParams(items []BatchItem) (anthropicBatchRequest, error) {
	var out anthropicBatchRequest
	for _, it := range items {
		p, _, err := a.Params(it.Request)
		if err != nil {
			return out, fmt.Errorf("request %s: %w", it.CustomID, err)
		}
		out.Requests = append(out.Requests, anthropicBatchItem{CustomID: it.CustomID, Params: p})
	}
	return out, nil
}

// SubmitBatch creates a Message Batch.
func (a *AnthropicAdapter) SubmitBatch(ctx context.Context, items []BatchItem) (BatchHandle, error) {
	params, err := a.BatchParams(items)
	if err != nil {
		return BatchHandle{}, err
	}
	b, _, err := call(ctx, "anthropic", "anthropic/"+a.cfg.Model, a.cfg.Policy, nil, false, nil, func(ctx context.Context) (*anthropicBatch, error) {
		var b anthropicBatch
		if err := a.api.do(ctx, http.MethodPost, "v1/messages/batches", params, &b); err != nil {
			return nil, err
		}
		return &b, nil
	})
	if err != nil {
		return BatchHandle{}, redactErr(fmt.Errorf("batch creation: %w", err), a.cfg.APIKey)
	}
	return BatchHandle{Provider: "anthropic", Model: a.cfg.Model, ID: b.ID}, nil
}

// PollBatch retrieves the batch's processing_status and request counts.
func (a *AnthropicAdapter) PollBatch(ctx context.Context, h BatchHandle) (BatchStatus, error) {
	b, _, err := call(ctx, "anthropic", "anthropic/"+a.cfg.Model, a.cfg.Policy, nil, true, nil, func(ctx context.Context) (*anthropicBatch, error) {
		var b anthropicBatch
		if err := a.api.do(ctx, http.MethodGet, "v1/messages/batches/"+pathSegment(h.ID), nil, &b); err != nil {
			return nil, err
		}
		return &b, nil
	})
	if err != nil {
		return BatchStatus{}, redactErr(err, a.cfg.APIKey)
	}
	c := b.RequestCounts
	st := BatchStatus{
		Status: string(b.ProcessingStatus), Done: int(c.Succeeded), Failed: int(c.Errored + c.Expired + c.Canceled),
		InProgress: int(c.Processing),
	}
	if t, err := time.Parse(time.RFC3339, b.ExpiresAt); err == nil {
		st.ExpiresAt = t.UTC()
	}
	st.Total = st.Done + st.Failed + st.InProgress
	if b.ProcessingStatus == "ended" {
		st.Ended, st.Outcome = true, "completed"
		switch {
		case b.CancelInitiatedAt != "":
			st.Outcome = ItemCancelled
		case c.Expired > 0:
			st.Outcome = ItemExpired
		}
	}
	return st, nil
}

// BatchResults streams the results JSONL: succeeded (a Message), errored,
// expired or canceled, by custom_id.
func (a *AnthropicAdapter) BatchResults(ctx context.Context, h BatchHandle, _ BatchStatus) (map[string]BatchResult, error) {
	prices := a.cfg.batchPrices()
	out, _, err := call(ctx, "anthropic", "anthropic/"+a.cfg.Model, a.cfg.Policy, nil, true, nil, func(ctx context.Context) (map[string]BatchResult, error) {
		out := map[string]BatchResult{}
		resp, err := a.api.send(withBatchFile(ctx), http.MethodGet, "v1/messages/batches/"+pathSegment(h.ID)+"/results", "", nil, "application/x-jsonl")
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("anthropic: %w", err)
		}
		// The one JSONL reader: blank lines, CRLF and a BOM as every
		// input has them.
		lines := ingest.NewLines("batch "+h.ID+" results", data)
		for lines.Next() {
			line := lines.Line()
			var r anthropicResult
			if err := json.Unmarshal(line.Text, &r); err != nil {
				return nil, fmt.Errorf("anthropic: batch %s results, line %d: expected a result line (%v)", h.ID, line.No, err)
			}
			switch r.Result.Type {
			case "succeeded":
				resp := anthropicResponse(&r.Result.Message, nil, prices)
				out[r.CustomID] = BatchResult{State: ItemSucceeded, Response: &resp}
			case "errored":
				e := r.Result.Error.Error
				msg := e.Message
				if e.Type != "" {
					msg = e.Type + ": " + msg
				}
				out[r.CustomID] = BatchResult{State: ItemErrored, Error: redact(msg, a.cfg.APIKey)}
			case "expired":
				out[r.CustomID] = BatchResult{State: ItemExpired, Error: "the batch expired before the request was processed"}
			case "canceled":
				out[r.CustomID] = BatchResult{State: ItemCancelled, Error: "the batch was canceled before the request was processed"}
			default:
				out[r.CustomID] = BatchResult{State: ItemErrored, Error: fmt.Sprintf("unknown result type %q", r.Result.Type)}
			}
		}
		if err := lines.Err(); err != nil {
			return nil, fmt.Errorf("anthropic: batch %s results: %w", h.ID, err)
		}
		return out, nil
	})
	if err != nil {
		return nil, redactErr(err, a.cfg.APIKey)
	}
	return out, nil
}
