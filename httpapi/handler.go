package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	core "github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/compareapi"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/scoring/api/tablesapi"
	"github.com/docscore/docscore/scoring/api/textapi"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/tabular"
)

// DefaultMaxBodyBytes is the largest request body accepted when
// Options.MaxBodyBytes is zero: 2 MiB, about eight times the bundled
// sample. A request holds some 20 (tabular) to 80 (a harness evaluation,
// whose report is ten times its cases) times its body in memory, and a
// Worker has 128 MB (docs/worker.md); larger jobs are for the command
// line.
const DefaultMaxBodyBytes = 2 << 20

// DefaultMaxPairs is the work cap of a tabular scoring when
// Options.MaxPairs is zero: two million name pairs compared (see
// tabular.Limits), some 300 times the bundled sample and 13 times the
// benchmark corpus, a few seconds of CPU in the worst case (names that all
// clear the prefilter). Bigger jobs are for the command line, which has
// no cap.
const DefaultMaxPairs = 2_000_000

// DefaultDeadline bounds the work of one request when Options.Deadline is
// zero.
const DefaultDeadline = 30 * time.Second

// Options configures the handler New returns.
type Options struct {
	// Version is the docscore version GET /v1/version reports ("dev" when
	// empty).
	Version string
	// Commit and Date are the commit the server was built from and its
	// date (RFC 3339), which GET /v1/version reports; "" when unknown.
	Commit, Date string
	// MaxBodyBytes caps a request body; a larger one is answered 413.
	// Zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxPairs caps the name pairs one tabular scoring compares; a request
	// over it is answered 422 "too_much_work". Zero means DefaultMaxPairs,
	// a negative value no cap.
	MaxPairs int64
	// Deadline bounds the time one request's work may take, from the
	// moment the handler receives it; past it the work stops and the
	// request is answered 503 "timeout". Zero means DefaultDeadline, a
	// negative value none. Either way the work stops when the client goes
	// away (the request's context). Under WebAssembly in a Worker the
	// clock stands still while the CPU works: MaxPairs is the bound there.
	Deadline time.Duration
	// Work, when set, has every tabular scoring's name pairs compared
	// added to it as the scoring goes (monitoring, tests).
	Work *atomic.Int64
	// Fallback, when set, serves the paths no route claims outside /v1/
	// (the static site); without it they are answered 404 in JSON.
	Fallback http.Handler
}

// route is one entry of the route table: a method and an exact path.
type route struct {
	method string
	path   string
	serve  func(h *handler, r *http.Request) (*reply, error)
}

// Operations lists every operation the API serves: each one with a Route
// is answered at POST Route (see operationRoute).
func Operations() []core.Operation {
	var ops []core.Operation
	for _, l := range [][]core.Operation{core.TabularOperations(), receiptsapi.Operations(), tablesapi.Operations(), textapi.Operations(), evalapi.Operations(), compareapi.Operations()} {
		for _, o := range l {
			if o.Route != "" {
				ops = append(ops, o)
			}
		}
	}
	return ops
}

// routeTable is the route table: health and version, then one route per
// operation, built on the first request or handler (routes), not at
// every start of the command.
var routeTable struct {
	once sync.Once
	rs   []route
}

// routes returns the route table.
func routes() []route {
	routeTable.once.Do(func() {
		rs := []route{
			{http.MethodGet, "/healthz", serveHealth},
			{http.MethodGet, "/v1/version", serveVersion},
		}
		for _, o := range Operations() {
			rs = append(rs, route{http.MethodPost, o.Route, operationRoute(o)})
		}
		routeTable.rs = rs
	})
	return routeTable.rs
}

// reply is a successful answer: its bytes and their content type.
type reply struct {
	contentType string
	body        []byte
}

// handler serves the route table.
type handler struct {
	opts  Options
	names []string // "METHOD /path" of every route
}

// New returns the HTTP API's handler.
func New(opts Options) http.Handler {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxPairs == 0 {
		opts.MaxPairs = DefaultMaxPairs
	}
	if opts.Deadline == 0 {
		opts.Deadline = DefaultDeadline
	}
	return &handler{opts: opts, names: routeNames()}
}

// ServeHTTP answers one request: it finds the route, runs it, and writes
// its reply or its error as JSON.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, rt := range routes() {
		if rt.path != r.URL.Path {
			continue
		}
		if rt.method != r.Method {
			allowed = append(allowed, rt.method)
			continue
		}
		rep, err := h.run(rt, w, r)
		if err != nil {
			writeError(w, err)
			return
		}
		w.Header().Set("Content-Type", rep.contentType)
		w.Header().Set("Content-Length", strconv.Itoa(len(rep.body)))
		w.WriteHeader(http.StatusOK)
		w.Write(rep.body)
		return
	}
	switch {
	case len(allowed) > 0:
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeError(w, errorf(http.StatusMethodNotAllowed, "method_not_allowed", "%s %s: method not allowed (expected %s)",
			r.Method, r.URL.Path, strings.Join(allowed, " or ")))
	case h.opts.Fallback != nil && !strings.HasPrefix(r.URL.Path, "/v1/"):
		h.opts.Fallback.ServeHTTP(w, r)
	default:
		writeError(w, errorf(http.StatusNotFound, "not_found", "no route %s %s (routes: %s)",
			r.Method, r.URL.Path, strings.Join(h.names, ", ")))
	}
}

// run calls a route, turning a panic (a bug) into an internal error.
func (h *handler) run(rt route, w http.ResponseWriter, r *http.Request) (rep *reply, err error) {
	defer func() {
		if p := recover(); p != nil {
			rep, err = nil, errorf(http.StatusInternalServerError, "internal", "internal error: %v", p)
		}
	}()
	if r.ContentLength > h.opts.MaxBodyBytes { // announced: refuse before reading
		return nil, &http.MaxBytesError{Limit: h.opts.MaxBodyBytes}
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes)
	}
	if h.opts.Deadline > 0 {
		ctx, cancel := context.WithTimeout(r.Context(), h.opts.Deadline)
		defer cancel()
		r = r.WithContext(ctx)
	}
	return rt.serve(h, r)
}

// limits are the work limits of a tabular scoring.
func (h *handler) limits() tabular.Limits {
	return tabular.Limits{MaxPairs: max(h.opts.MaxPairs, 0), Work: h.opts.Work}
}

func routeNames() []string {
	rs := routes()
	names := make([]string, len(rs))
	for i, rt := range rs {
		names[i] = rt.method + " " + rt.path
	}
	return names
}

func serveHealth(h *handler, r *http.Request) (*reply, error) {
	return jsonReply(struct {
		Status string `json:"status"`
	}{"ok"})
}

// VersionInfo is the body of GET /v1/version.
type VersionInfo struct {
	Docscore string   `json:"docscore"`
	Commit   string   `json:"commit"` // "" when unknown
	Date     string   `json:"date"`   // the commit's date, RFC 3339; "" when unknown
	Go       string   `json:"go"`
	API      string   `json:"api"`
	Routes   []string `json:"routes"`
}

func serveVersion(h *handler, r *http.Request) (*reply, error) {
	return jsonReply(VersionInfo{Docscore: h.opts.Version, Commit: h.opts.Commit, Date: h.opts.Date, Go: runtime.Version(), API: "v1", Routes: h.names})
}

// jsonReply encodes v the way every host does.
func jsonReply(v any) (*reply, error) {
	b, err := core.MarshalJSON(v)
	if err != nil {
		return nil, err
	}
	return &reply{contentType: "application/json; charset=utf-8", body: b}, nil
}

// ErrorBody is the body of every failed request.
type ErrorBody = core.ErrorBody

// ErrorDetail says what went wrong: a stable code, a message for people,
// and the file and line of bad input (null when they do not apply).
type ErrorDetail = core.ErrorDetail

// httpError is an error with its status and error body.
type httpError struct {
	status int
	detail ErrorDetail
}

func (e *httpError) Error() string { return e.detail.Message }

func errorf(status int, code, format string, args ...any) *httpError {
	return &httpError{status: status, detail: ErrorDetail{Code: code, Message: fmt.Sprintf(format, args...)}}
}

// classify maps any error onto its status and body: a scorer's input error
// is 422, a job over the work cap 422, an oversized body 413, a body too
// slow to arrive 408, work past the deadline (or for a client gone) 503,
// anything else unexpected 500.
func classify(err error) *httpError {
	var he *httpError
	if errors.As(err, &he) {
		return he
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errorf(http.StatusRequestEntityTooLarge, "too_large",
			"request body over the %d-byte limit: large jobs belong to the command line (docscore score …), which streams files of any size, or to the page, which scores them in the browser", tooBig.Limit)
	}
	var work *tabular.WorkLimitError
	if errors.As(err, &work) {
		return errorf(http.StatusUnprocessableEntity, "too_much_work",
			"%v: a job this big belongs to the command line (docscore score tabular), which has no limit", err)
	}
	var rwork *receipts.WorkLimitError
	if errors.As(err, &rwork) {
		return errorf(http.StatusUnprocessableEntity, "too_much_work",
			"%v: a job this big belongs to the command line (docscore score receipts), which has no limit", err)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, tabular.ErrDeadline) {
		return errorf(http.StatusServiceUnavailable, "timeout",
			"the request's work took longer than this server allows: score big jobs with the command line (docscore score …)")
	}
	if errors.Is(err, context.Canceled) {
		return errorf(http.StatusServiceUnavailable, "canceled", "the request was cancelled (the client went away)")
	}
	var timeout interface{ Timeout() bool }
	if errors.As(err, &timeout) && timeout.Timeout() {
		return errorf(http.StatusRequestTimeout, "timeout", "the request body did not arrive within the server's read timeout")
	}
	out := &httpError{status: http.StatusInternalServerError, detail: core.DescribeError(err)}
	var param *core.ParamError
	switch {
	case errors.As(err, &param):
		out.status = http.StatusBadRequest
	case out.detail.Code != "internal":
		out.status = http.StatusUnprocessableEntity
	}
	return out
}

func writeError(w http.ResponseWriter, err error) {
	he := classify(err)
	b, merr := core.MarshalJSON(ErrorBody{Error: he.detail})
	if merr != nil { // cannot happen: the body holds strings and ints
		b = []byte(`{"error": {"code": "internal", "message": "encoding the error", "file": null, "line": null, "column": null, "source_line": null}}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(he.status)
	w.Write(b)
}
