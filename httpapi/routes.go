package httpapi

import (
	"context"
	"errors"
	"net/http"
	"reflect"

	core "github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/scoring/tabular"
)

// bounded is a request's context with the handler's work limits: the
// operations stop when it is done and count their work against the cap
// (api.Bounded).
type bounded struct {
	context.Context
	limits tabular.Limits
}

func (b bounded) WorkLimits() tabular.Limits { return b.limits }

// ReceiptsLimits bound a receipts request's ROUGE-L work
// (receiptsapi.Bounded): DefaultMaxLCSCells token pairs per scoring,
// DefaultMaxPageTokens tokens per page drill-down.
func (b bounded) ReceiptsLimits() receiptsapi.Limits {
	return receiptsapi.Limits{MaxLCSCells: DefaultMaxLCSCells, MaxPageTokens: DefaultMaxPageTokens}
}

// DefaultMaxLCSCells caps the token pairs (prediction tokens × reference
// tokens, summed over the pages) one receipts scoring's ROUGE-L compares:
// 2^32, some 0.2 s of CPU, thousands of times the bundled sample's 3
// million. One page of 940,000 tokens against as many took 13 s of CPU;
// it is now a 422 too_much_work.
const DefaultMaxLCSCells = 1 << 32

// DefaultMaxPageTokens caps the tokens of one page's drill-down
// (POST /v1/receipts/page), prediction and reference together: its answer
// has a segment per token, so it stays within a few megabytes (a page of
// 940,000 tokens answered 102 MB).
const DefaultMaxPageTokens = 1 << 16

// The static site is Options.Fallback natively, and the Worker's static
// assets (worker/wrangler.toml) on Cloudflare.

// contentTypes are the media types of the report formats.
var contentTypes = map[string]string{
	"json":  "application/json; charset=utf-8",
	"csv":   "text/csv; charset=utf-8",
	"md":    "text/markdown; charset=utf-8",
	"junit": "application/xml; charset=utf-8",
}

// operationRoute serves an operation: it decodes the body (JSON or
// multipart/form-data) into the operation's request, applies the query
// parameters the operation takes, checks its required fields, runs it and
// answers its report in the report's media type, or its value as JSON.
func operationRoute(o core.Operation) func(*handler, *http.Request) (*reply, error) {
	return func(h *handler, r *http.Request) (*reply, error) {
		req := o.New()
		if err := decodeBody(r, req); err != nil {
			return nil, err
		}
		// Parts are the site's worker's way of handing texts to its
		// bridge; an HTTP request carries its files' contents.
		for _, f := range req.InputFiles() {
			if f.Part != 0 {
				return nil, errorf(http.StatusBadRequest, "bad_request", "%s: names part %d: an HTTP request carries the file's text or base64", f.Name, f.Part)
			}
		}
		if err := applyQuery(r, req, o.QueryNames()); err != nil {
			return nil, err
		}
		v := reflect.ValueOf(req).Elem()
		for _, f := range o.Required {
			if fv, ok := fieldByName(v, f.Name); ok && isEmpty(fv) {
				return nil, errorf(http.StatusBadRequest, "bad_request", "missing field %q (expected %s)", f.Name, f.Want)
			}
		}
		res, err := o.Run(bounded{r.Context(), h.limits()}, req)
		var inc *receiptsapi.IncompleteError
		if errors.As(err, &inc) {
			// The refusal names this host's way to score the run anyway.
			return nil, inc.Allowing("allow_incomplete: true")
		}
		if err != nil {
			return nil, err
		}
		if res.Bytes == nil && res.Value != nil {
			return jsonReply(res.Value)
		}
		return &reply{contentType: contentTypes[res.Format], body: res.Bytes}, nil
	}
}
