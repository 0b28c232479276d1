package modeladapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/judging"
)

// openAIBatchLine is one line of a batch request file.
type openAIBatchLine struct {
	CustomID string        `json:"custom_id"`
	Method   string        `json:"method"`
	URL      string        `json:"url"`
	Body     openAIRequest `json:"body"`
}

// openAIResultLine is one line of a batch's output or error file.
type openAIResultLine struct {
	ID       string `json:"id"`
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		RequestID  string          `json:"request_id"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// RequestWarnings are the warnings a request's answer carries (an
// attachment the API does not take).
func (a *OpenAIAdapter) RequestWarnings(req judging.ModelRequest) []string {
	_, w, _ := a.Params(req)
	return w
}

// BatchFile returns the JSONL request file of items: one POST
// /v1/responses line each, the body the direct call would send. It holds
// no credential.
func (a *OpenAIAdapter) BatchFile(items []BatchItem) ([]byte, error) {
	var buf bytes.Buffer
	for _, it := range items {
		p, _, err := a.Params(it.Request)
		if err != nil {
			return nil, fmt.Errorf("request %s: %w", it.CustomID, err)
		}
		b, err := json.Marshal(openAIBatchLine{CustomID: it.CustomID, Method: "POST", URL: "/v1/responses", Body: p})
		if err != nil {
			return nil, fmt.Errorf("request %s: %w", it.CustomID, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

// SubmitBatch uploads the request file (Files API, purpose batch) and
// creates a batch on /v1/responses with a 24 h completion window.
func (a *OpenAIAdapter) SubmitBatch(ctx context.Context, items []BatchItem) (BatchHandle, error) {
	data, err := a.BatchFile(items)
	if err != nil {
		return BatchHandle{}, err
	}
	label := "openai/" + a.cfg.Model
	f, _, err := call(ctx, "openai", label, a.cfg.Policy, nil, true, nil, func(ctx context.Context) (*struct{ ID string }, error) {
		var f struct{ ID string }
		if err := a.api.upload(ctx, "files", [][2]string{{"purpose", "batch"}}, "docscore-batch.jsonl", "application/jsonl", data, &f); err != nil {
			return nil, err
		}
		return &f, nil
	})
	if err != nil {
		return BatchHandle{}, redactErr(fmt.Errorf("upload of the batch file: %w", err), a.cfg.APIKey)
	}
	b, _, err := call(ctx, "openai", label, a.cfg.Policy, nil, false, nil, func(ctx context.Context) (*openAIBatch, error) {
		var b openAIBatch
		err := a.api.do(ctx, http.MethodPost, "batches", map[string]any{
			"completion_window": "24h", "endpoint": "/v1/responses", "input_file_id": f.ID,
			"metadata": map[string]string{"created_by": "docscore"},
		}, &b)
		if err != nil {
			return nil, err
		}
		return &b, nil
	})
	if err != nil {
		return BatchHandle{}, redactErr(fmt.Errorf("batch creation: %w", err), a.cfg.APIKey)
	}
	return BatchHandle{Provider: "openai", Model: a.cfg.Model, ID: b.ID, InputFileID: f.ID}, nil
}

// PollBatch retrieves the batch.
func (a *OpenAIAdapter) PollBatch(ctx context.Context, h BatchHandle) (BatchStatus, error) {
	b, _, err := call(ctx, "openai", "openai/"+a.cfg.Model, a.cfg.Policy, nil, true, nil, func(ctx context.Context) (*openAIBatch, error) {
		var b openAIBatch
		if err := a.api.do(ctx, http.MethodGet, "batches/"+pathSegment(h.ID), nil, &b); err != nil {
			return nil, err
		}
		return &b, nil
	})
	if err != nil {
		return BatchStatus{}, redactErr(err, a.cfg.APIKey)
	}
	st := BatchStatus{
		Status: string(b.Status), Total: int(b.RequestCounts.Total), Done: int(b.RequestCounts.Completed),
		Failed: int(b.RequestCounts.Failed), OutputFileID: b.OutputFileID, ErrorFileID: b.ErrorFileID,
	}
	if b.ExpiresAt > 0 {
		st.ExpiresAt = time.Unix(b.ExpiresAt, 0).UTC()
	}
	st.InProgress = max(st.Total-st.Done-st.Failed, 0)
	switch b.Status {
	case "completed", "failed", "expired", "cancelled":
		st.Ended, st.Outcome = true, string(b.Status)
	}
	for _, e := range b.Errors.Data {
		msg := e.Code + ": " + e.Message
		if e.Line > 0 {
			msg = fmt.Sprintf("line %d: %s", e.Line, msg)
		}
		st.Errors = append(st.Errors, redact(msg, a.cfg.APIKey))
	}
	return st, nil
}

// BatchResults downloads the output and error files and reads each line:
// an answer (status 200, a Responses API body), an HTTP error, or an
// error such as batch_expired or batch_cancelled.
func (a *OpenAIAdapter) BatchResults(ctx context.Context, h BatchHandle, st BatchStatus) (map[string]BatchResult, error) {
	out := map[string]BatchResult{}
	prices := a.cfg.batchPrices()
	for _, fileID := range []string{st.OutputFileID, st.ErrorFileID} {
		if fileID == "" {
			continue
		}
		data, _, err := call(ctx, "openai", "openai/"+a.cfg.Model, a.cfg.Policy, nil, true, nil, func(ctx context.Context) ([]byte, error) {
			resp, err := a.api.send(withBatchFile(ctx), http.MethodGet, "files/"+pathSegment(fileID)+"/content", "", nil, "application/binary")
			if err != nil {
				return nil, err
			}
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		})
		if err != nil {
			return nil, redactErr(fmt.Errorf("file %s: %w", fileID, err), a.cfg.APIKey)
		}
		// The one JSONL reader: blank lines, CRLF and a BOM as every
		// input has them.
		lines := ingest.NewLines("file "+fileID, data)
		for lines.Next() {
			line := lines.Line()
			var l openAIResultLine
			if err := json.Unmarshal(line.Text, &l); err != nil || l.CustomID == "" {
				return nil, fmt.Errorf("file %s, line %d: expected a batch result line with a custom_id (%v)", fileID, line.No, err)
			}
			out[l.CustomID] = a.resultOf(l, prices)
		}
		if err := lines.Err(); err != nil {
			return nil, fmt.Errorf("file %s: %w", fileID, err)
		}
	}
	return out, nil
}

func (a *OpenAIAdapter) resultOf(l openAIResultLine, prices *judging.Prices) BatchResult {
	switch {
	case l.Error != nil:
		state := ItemErrored
		switch l.Error.Code {
		case "batch_expired":
			state = ItemExpired
		case "batch_cancelled":
			state = ItemCancelled
		}
		return BatchResult{State: state, Error: redact(strings.TrimSpace(l.Error.Code+": "+l.Error.Message), a.cfg.APIKey)}
	case l.Response == nil:
		return BatchResult{State: ItemErrored, Error: "no response and no error in the result line"}
	case l.Response.StatusCode != 200:
		var e struct {
			Error struct {
				Type, Message string
			} `json:"error"`
		}
		json.Unmarshal(l.Response.Body, &e)
		msg := fmt.Sprintf("HTTP %d", l.Response.StatusCode)
		if e.Error.Message != "" {
			msg += ": " + strings.TrimPrefix(e.Error.Type+": ", ": ") + e.Error.Message
		}
		return BatchResult{State: ItemErrored, Error: redact(msg, a.cfg.APIKey)}
	}
	var r openAIAnswer
	if err := json.Unmarshal(l.Response.Body, &r); err != nil {
		return BatchResult{State: ItemErrored, Error: fmt.Sprintf("the response body is not a Responses API object: %v", err)}
	}
	resp := openAIResponse(&r, nil, prices)
	return BatchResult{State: ItemSucceeded, Response: &resp}
}
