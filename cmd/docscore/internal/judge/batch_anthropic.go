package judge

import (
	"context"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"

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
func (a *AnthropicAdapter) BatchParams(items []BatchItem) (anthropic.MessageBatchNewParams, error) {
	var out anthropic.MessageBatchNewParams
	for _, it := range items {
		p, _, err := a.Params(it.Request)
		if err != nil {
			return out, fmt.Errorf("request %s: %w", it.CustomID, err)
		}
		out.Requests = append(out.Requests, anthropic.MessageBatchNewParamsRequest{
			CustomID: it.CustomID,
			Params: anthropic.MessageBatchNewParamsRequestParams{
				Model: p.Model, MaxTokens: p.MaxTokens, System: p.System, Messages: p.Messages, OutputConfig: p.OutputConfig,
			},
		})
	}
	return out, nil
}

// SubmitBatch creates a Message Batch.
func (a *AnthropicAdapter) SubmitBatch(ctx context.Context, items []BatchItem) (BatchHandle, error) {
	params, err := a.BatchParams(items)
	if err != nil {
		return BatchHandle{}, err
	}
	b, _, err := call(ctx, "anthropic", "anthropic/"+a.cfg.Model, a.cfg.Policy, nil, false, nil, func(ctx context.Context) (*anthropic.MessageBatch, error) {
		b, err := a.batches.New(ctx, params)
		if err != nil {
			return nil, a.httpError(err)
		}
		return b, nil
	})
	if err != nil {
		return BatchHandle{}, redactErr(fmt.Errorf("batch creation: %w", err), a.cfg.APIKey)
	}
	return BatchHandle{Provider: "anthropic", Model: a.cfg.Model, ID: b.ID}, nil
}

// PollBatch retrieves the batch's processing_status and request counts.
func (a *AnthropicAdapter) PollBatch(ctx context.Context, h BatchHandle) (BatchStatus, error) {
	b, _, err := call(ctx, "anthropic", "anthropic/"+a.cfg.Model, a.cfg.Policy, nil, true, nil, func(ctx context.Context) (*anthropic.MessageBatch, error) {
		b, err := a.batches.Get(ctx, h.ID, anthropic.MessageBatchGetParams{})
		if err != nil {
			return nil, a.httpError(err)
		}
		return b, nil
	})
	if err != nil {
		return BatchStatus{}, redactErr(err, a.cfg.APIKey)
	}
	c := b.RequestCounts
	st := BatchStatus{
		Status: string(b.ProcessingStatus), Done: int(c.Succeeded), Failed: int(c.Errored + c.Expired + c.Canceled),
		InProgress: int(c.Processing), ExpiresAt: b.ExpiresAt.UTC(),
	}
	st.Total = st.Done + st.Failed + st.InProgress
	if b.ProcessingStatus == anthropic.MessageBatchProcessingStatusEnded {
		st.Ended, st.Outcome = true, "completed"
		switch {
		case !b.CancelInitiatedAt.IsZero():
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
		stream := a.batches.ResultsStreaming(withBatchFile(ctx), h.ID, anthropic.MessageBatchResultsParams{})
		defer stream.Close()
		for stream.Next() {
			r := stream.Current()
			switch r.Result.Type {
			case "succeeded":
				m := r.Result.AsSucceeded().Message
				resp := anthropicResponse(&m, nil, prices)
				out[r.CustomID] = BatchResult{State: ItemSucceeded, Response: &resp}
			case "errored":
				e := r.Result.AsErrored().Error.Error
				msg := e.Message
				if e.Type != "" {
					msg = string(e.Type) + ": " + msg
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
		if err := stream.Err(); err != nil {
			return nil, a.httpError(err)
		}
		return out, nil
	})
	if err != nil {
		return nil, redactErr(err, a.cfg.APIKey)
	}
	return out, nil
}
