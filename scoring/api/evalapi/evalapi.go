// Package evalapi is the harness entry point of scoring/api: the request
// every host decodes and the function that answers it with the report of
// "docscore eval" (deterministic metrics only). It is a package of its own
// so that hosts without the harness do not link it and its expression
// engine.
package evalapi

import (
	"context"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/harness"
	"github.com/docscore/docscore/scoring/inputerr"
)

// EvalRequest asks for a deterministic harness evaluation (SPEC C): a
// cases file and the files its references name by path.
type EvalRequest struct {
	Cases  api.File   `json:"cases"`
	Files  []api.File `json:"files,omitempty"`
	Format string     `json:"format,omitempty"` // json (default) or md
}

// Evaluate runs the deterministic metrics of a cases file (no model
// judges: those run natively) and returns the report in its format.
func Evaluate(ctx context.Context, req EvalRequest) ([]byte, error) {
	opts := harness.RunOptions{Name: req.Cases.Name}
	if len(req.Files) > 0 {
		opts.Files = map[string][]byte{}
		for _, f := range req.Files {
			b, err := f.Bytes()
			if err != nil {
				return nil, err
			}
			opts.Files[f.Name] = b
		}
	}
	switch req.Format {
	case "", "json":
		return harness.EvaluateCasesJSON(ctx, []byte(req.Cases.Text), opts)
	case "md":
		return harness.EvaluateCasesMarkdown(ctx, []byte(req.Cases.Text), opts)
	}
	return nil, inputerr.New("", 0, "format %q: expected json or md", req.Format)
}
