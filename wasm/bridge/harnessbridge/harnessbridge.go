// Package harnessbridge is the method table of harness.wasm: the
// evaluation harness's deterministic metrics (SPEC C, expressions
// included) behind wasm/bridge's dispatcher. It is a package of its own so
// that only harness.wasm links the harness and its expression engine.
package harnessbridge

import (
	"context"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/wasm/bridge"
)

// ReportRequest asks for the Markdown of a harness report file.
type ReportRequest struct {
	Report api.File `json:"report"`
}

// Methods returns the harness family's methods:
//
//   - evaluate: an evalapi.EvalRequest (a cases file and the files it
//     names by path, binary ones as base64) → the report as a string,
//     exactly the bytes "docscore eval --cases F --judge none" writes with
//     --output (format json) or --markdown (format md).
//   - reportMarkdown: a ReportRequest holding a harness report JSON → its
//     Markdown, the bytes "docscore eval --markdown" wrote beside it.
func Methods() map[string]bridge.Method {
	return map[string]bridge.Method{
		"evaluate": func(r bridge.Request) (any, error) {
			var req evalapi.EvalRequest
			if err := bridge.Decode("evaluate", r, &req); err != nil {
				return nil, err
			}
			out, err := evalapi.Evaluate(context.Background(), req)
			if err != nil {
				return nil, err
			}
			return bridge.Raw(out), nil
		},
		"reportMarkdown": func(r bridge.Request) (any, error) {
			var req ReportRequest
			if err := bridge.Decode("reportMarkdown", r, &req); err != nil {
				return nil, err
			}
			out, err := evalapi.ReportMarkdown(req.Report)
			if err != nil {
				return nil, err
			}
			return bridge.Raw(out), nil
		},
	}
}
