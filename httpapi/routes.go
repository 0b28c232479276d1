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
		if err := applyQuery(r, req, o.Query); err != nil {
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
