package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/docscore/docscore/rules"
	core "github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
)

// A scorer's route is a function here and a line in the route table. The
// static site is Options.Fallback natively, and the Worker's static assets
// (worker/wrangler.toml) on Cloudflare.

// tabularFields: POST /v1/score/tabular takes a scoring/api TabularRequest.
var tabularFields = fields{
	required: []requiredField{
		{"gt", "one or more ground-truth CSV files"},
		{"runs", "the runs JSONL file"},
	},
	query: []string{"gate", "preview", "format", "skip_bad_lines"},
}

// contentTypes are the media types of the report formats.
var contentTypes = map[string]string{
	"":     "application/json; charset=utf-8",
	"json": "application/json; charset=utf-8",
	"csv":  "text/csv; charset=utf-8",
	"md":   "text/markdown; charset=utf-8",
}

// scoreTabular answers exactly what "docscore score tabular --format F"
// writes.
func scoreTabular(ctx context.Context, h *handler, req *core.TabularRequest) (*reply, error) {
	ct, ok := contentTypes[req.Format]
	if !ok {
		return nil, errorf(http.StatusBadRequest, "bad_request", "format %q: expected json, csv or md", req.Format)
	}
	// Parameter values are checked as every host checks them; a bad one
	// is a malformed request (400), not a file the scorer rejects.
	if err := req.CheckGate(); err != nil {
		return nil, errorf(http.StatusBadRequest, "bad_request", "%v", err)
	}
	if _, err := rules.ParseSelection(req.Preview); err != nil {
		return nil, errorf(http.StatusBadRequest, "bad_request", "%v", err)
	}
	b, err := core.ScoreTabularContext(ctx, *req, h.limits())
	if err != nil {
		return nil, err
	}
	return &reply{contentType: ct, body: b}, nil
}

// rulesCheckFields: POST /v1/rules/check takes a scoring/api
// RulesCheckRequest.
var rulesCheckFields = fields{
	required: []requiredField{{"rules", "the EQUIVALENCES.md rule file"}},
}

// checkRules answers the parsed rows, errors and warnings of a rule file.
// Problems with the rule file are the answer (200, listed in "errors");
// an unreadable GT or schema file is a 422.
func checkRules(ctx context.Context, h *handler, req *core.RulesCheckRequest) (*reply, error) {
	res, err := core.CheckRules(*req)
	if err != nil {
		return nil, err
	}
	return jsonReply(res)
}

// receiptsFields: POST /v1/score/receipts takes a receiptsapi
// ReceiptsRequest.
var receiptsFields = fields{
	required: []requiredField{
		{"refs", "one or more CORD annotation (.json) or reference (.jsonl) files"},
		{"run", "the pilot run file (JSONL)"},
	},
	query: []string{"format", "allow_incomplete", "reading_order", "skip_bad_lines"},
}

// scoreReceipts answers exactly what "docscore score receipts --format F"
// writes; an incomplete run without allow_incomplete is a 422 naming the
// missing and duplicated pairs.
func scoreReceipts(ctx context.Context, h *handler, req *receiptsapi.ReceiptsRequest) (*reply, error) {
	ct, ok := contentTypes[req.Format]
	if !ok {
		return nil, errorf(http.StatusBadRequest, "bad_request", "format %q: expected json, csv or md", req.Format)
	}
	b, err := receiptsapi.ScoreReceiptsContext(ctx, *req)
	var inc *receiptsapi.IncompleteError
	if errors.As(err, &inc) {
		return nil, inc.Allowing("allow_incomplete: true")
	}
	if err != nil {
		return nil, err
	}
	return &reply{contentType: ct, body: b}, nil
}

// evalFields: POST /v1/eval takes an evalapi EvalRequest.
var evalFields = fields{
	required: []requiredField{{"cases", "the cases file (JSON or JSONL)"}},
	query:    []string{"format"},
}

// evaluate runs the harness's deterministic metrics on a cases file (model
// judges run only natively).
func evaluate(ctx context.Context, h *handler, req *evalapi.EvalRequest) (*reply, error) {
	ct, ok := contentTypes[req.Format]
	if !ok || req.Format == "csv" {
		return nil, errorf(http.StatusBadRequest, "bad_request", "format %q: expected json or md", req.Format)
	}
	b, err := evalapi.Evaluate(ctx, *req)
	if err != nil {
		return nil, err
	}
	return &reply{contentType: ct, body: b}, nil
}
