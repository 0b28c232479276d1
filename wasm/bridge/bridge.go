// Package bridge is the host-neutral half of the WebAssembly entry points:
// a Dispatcher takes a method name and a JSON request, calls the method of
// its table and answers one JSON envelope, {"error": null|{code, message,
// file, line}, "result": …}. It has no build tag, so native tests cover
// everything but the few lines of syscall/js in wasm/site that hand
// strings across.
//
// Each WebAssembly file of the site serves one family of methods, so that
// a page links only the scorers it needs: docscore.wasm serves Tabular,
// receipts.wasm the table of wasm/bridge/receiptsbridge and harness.wasm
// that of wasm/bridge/harnessbridge. A table lives in its own package
// because importing a package links its initialisation: the tabular core
// must not carry the receipt scorer or the harness's expression engine.
package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
)

// Version is the docscore version the bridge reports; release builds set
// it with -ldflags "-X github.com/docscore/docscore/wasm/bridge.Version=…".
var Version = "dev"

// Envelope is the answer to every call: exactly one of Error and Result
// is set (Result is null on error).
type Envelope struct {
	Error  *api.ErrorDetail `json:"error"`
	Result any              `json:"result"`
}

// VersionResult is the result of the "version" method.
type VersionResult struct {
	Docscore string   `json:"docscore"`
	Go       string   `json:"go"`
	Methods  []string `json:"methods"`
}

// Method handles one call: it decodes its request (see Decode) and returns
// its result, which the envelope encodes as JSON. A dispatcher's methods
// are its operations (New); tests add their own with NewMethods.
type Method func(request Request) (any, error)

// Request is what a method is called with: the JSON request and the texts
// handed over beside it, which its files name by part (see Decode).
type Request struct {
	JSON  []byte
	Parts []string
	// Bytes are the bytes handed over beside the request (a part of a
	// runs file, a part's results), when the method takes any.
	Bytes []byte
}

// Dispatcher answers calls to the methods of one table.
type Dispatcher struct {
	methods map[string]Method
	// mu runs one call at a time: the calls of NewSession's dispatcher
	// share its session. (The site's host runs each call on a goroutine
	// of its own, and a goroutine that waits for the collector lets
	// another run.)
	mu sync.Mutex
}

// New returns a dispatcher over operation lists (api.TabularOperations,
// receiptsapi.Operations, evalapi.Operations): each operation is a method
// of its name, and "version" is added. An operation's report comes back
// Raw, its JSON value inside the envelope.
func New(lists ...[]api.Operation) *Dispatcher {
	return newDispatcher(api.NoCancel, lists)
}

// NewSession is New for the page's tabular core: its operations share one
// api.TabularSession, so that a preview switched on or off, a drill-down
// and a download reuse the files the last drop parsed and the report it
// scored. The answers are those of New's, byte for byte. A host that
// serves other people's requests (the HTTP API) uses New: a session keeps
// the last request's files.
func NewSession(lists ...[]api.Operation) *Dispatcher {
	return newDispatcher(&api.TabularSession{}, lists)
}

func newDispatcher(ctx api.Cancel, lists [][]api.Operation) *Dispatcher {
	methods := map[string]Method{}
	for _, l := range lists {
		for _, o := range l {
			methods[o.Name] = operationMethod(ctx, o)
		}
	}
	return NewMethods(methods)
}

// With adds methods to the dispatcher's table and returns it.
func (d *Dispatcher) With(methods map[string]Method) *Dispatcher {
	for name, m := range methods {
		d.methods[name] = m
	}
	return d
}

// NewMethods returns a dispatcher over a table of methods, to which it
// adds "version". The table is copied.
func NewMethods(methods map[string]Method) *Dispatcher {
	d := &Dispatcher{methods: make(map[string]Method, len(methods)+1)}
	for name, m := range methods {
		d.methods[name] = m
	}
	d.methods["version"] = func(Request) (any, error) {
		return VersionResult{Docscore: Version, Go: runtime.Version(), Methods: d.Methods()}, nil
	}
	return d
}

// operationMethod calls an operation: it decodes the request, gives its
// files their parts, runs the operation and answers its report Raw (the
// exact bytes of the command line, neither escaped here nor parsed on the
// other side) or its value.
func operationMethod(ctx api.Cancel, o api.Operation) Method {
	return func(r Request) (any, error) {
		req := o.New()
		if err := Decode(o.Name, r, req); err != nil {
			return nil, err
		}
		res, err := o.Run(ctx, req)
		if err != nil {
			return nil, err
		}
		if res.Bytes != nil || res.Value == nil {
			return Raw(res.Bytes), nil
		}
		return res.Value, nil
	}
}

// Methods returns the names the dispatcher answers, sorted.
func (d *Dispatcher) Methods() []string {
	names := make([]string, 0, len(d.methods))
	for n := range d.methods {
		names = append(names, n)
	}
	// sort.Slice, not sort.Strings: the page links sort.Slice already,
	// and sort.Strings is slices.Sort[string], 4 to 6 KB of gzip on
	// docscore.wasm for this one call. Map keys are distinct, so the
	// order is the same.
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// Decode reads a request object into v, refusing unknown keys so that a
// typo is an error rather than a silently ignored option, and gives the
// files that name a part their text (ResolveParts) when v is an
// api.Request. An empty request is {}. name is the method, for the error
// message.
func Decode(name string, r Request, v any) error {
	if err := decodeJSON(name, r.JSON, v); err != nil {
		return err
	}
	if req, ok := v.(api.Request); ok {
		return ResolveParts(req, r.Parts)
	}
	return nil
}

func decodeJSON(name string, r []byte, v any) error {
	if len(bytes.TrimSpace(r)) == 0 {
		r = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return inputerr.New("", 0, "%s request: %v (expected a JSON object)", name, err)
	}
	if dec.More() {
		return inputerr.New("", 0, "%s request: expected one JSON object, found more after it", name)
	}
	return nil
}

// Raw is a method result that is already text (a report's bytes): Call
// sends it after the envelope instead of inside it, so that megabytes of
// report are neither escaped here nor parsed on the other side.
type Raw []byte

// RawMarker is the first line of a response that carries a Raw result:
// the envelope, compact, then a newline, then the result's bytes as they
// are.
const RawMarker = `{"error":null,"result":null,"raw":true}`

// AsEnvelope turns any response of Call into the plain envelope JSON: a
// Raw result becomes the envelope's "result" string. Go callers that want
// one shape use it; the page splits at the marker instead.
func AsEnvelope(response string) string {
	raw, ok := strings.CutPrefix(response, RawMarker+"\n")
	if !ok {
		return response
	}
	out, err := api.MarshalJSON(Envelope{Result: raw})
	if err != nil {
		return response
	}
	return string(out)
}

// ParseResponse reads any response of Call: its error, or its result as
// JSON (a Raw result as a JSON string). It checks the envelope's shape:
// exactly the keys error and result, exactly one of them set.
func ParseResponse(response string) (*api.ErrorDetail, json.RawMessage, error) {
	out := []byte(AsEnvelope(response))
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(out, &keys); err != nil {
		return nil, nil, fmt.Errorf("response is not a JSON envelope: %w", err)
	}
	if len(keys) != 2 || keys["error"] == nil || keys["result"] == nil {
		return nil, nil, fmt.Errorf("response keys %d, want exactly error and result", len(keys))
	}
	var env struct {
		Error  *api.ErrorDetail `json:"error"`
		Result json.RawMessage  `json:"result"`
	}
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, nil, err
	}
	if (env.Error == nil) == (string(env.Result) == "null") {
		return nil, nil, fmt.Errorf("response has error %v and result %.100s: want exactly one", env.Error, env.Result)
	}
	return env.Error, env.Result, nil
}

// Call runs method on a JSON request, with the texts its files name by
// part, and returns the JSON envelope — or, for a Raw result, RawMarker, a
// newline and the result. It never panics: a panic in the core is
// recovered into an "internal" error, and every outcome leaves through the
// one encoding at the end of Answer.
func (d *Dispatcher) Call(name, request string, parts ...string) string {
	a := d.Answer(name, request, parts...)
	if a.IsRaw {
		return RawMarker + "\n" + string(a.Raw)
	}
	return a.Envelope
}

// Answer is a response in two parts, for a host that hands bytes across
// without making them a string: the envelope (RawMarker for a Raw
// result), and a Raw result's bytes.
type Answer struct {
	Envelope string
	Raw      []byte // a Raw result's bytes
	IsRaw    bool   // the result is Raw
}

// Answer runs method as Call does and returns the response in two parts:
// a page keeps a report's bytes as bytes, for download, and decodes them
// into text only when it reads them.
func (d *Dispatcher) Answer(name, request string, parts ...string) Answer {
	return d.AnswerRequest(name, Request{JSON: []byte(request), Parts: parts})
}

// AnswerRequest is Answer for a request that may carry bytes.
func (d *Dispatcher) AnswerRequest(name string, request Request) Answer {
	var env Envelope
	env.Result, env.Error = d.run(name, request)
	if raw, ok := env.Result.(Raw); ok && env.Error == nil {
		return Answer{Envelope: RawMarker, Raw: raw, IsRaw: true}
	}
	out, err := api.MarshalJSON(env)
	if err != nil {
		// Only a result that cannot be encoded gets here.
		out, _ = api.MarshalJSON(Envelope{Error: &api.ErrorDetail{Code: "internal", Message: err.Error()}})
	}
	return Answer{Envelope: string(out)}
}

// run calls the method, turning an error or a panic into its description.
func (d *Dispatcher) run(name string, request Request) (result any, detail *api.ErrorDetail) {
	d.mu.Lock()
	defer func() {
		d.mu.Unlock()
		if r := recover(); r != nil {
			result = nil
			detail = &api.ErrorDetail{Code: "internal", Message: fmt.Sprintf("internal error in %s: %v", name, r)}
		}
	}()
	m, ok := d.methods[name]
	if !ok {
		return nil, &api.ErrorDetail{Code: "input", Message: fmt.Sprintf("unknown method %q (expected one of %v)", name, d.Methods())}
	}
	res, err := m(request)
	if err != nil {
		desc := api.DescribeError(err)
		return nil, &desc
	}
	return res, nil
}
