// Package bridge is the host-neutral half of the WebAssembly entry points:
// it takes a method name and a JSON request, calls the scoring API and
// answers one JSON envelope, {"error": null|{code, message, file, line},
// "result": …}. It has no build tag, so native tests cover everything but
// the few lines of syscall/js in wasm/site that hand strings across.
package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"

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

// method handles one call: it decodes its request and returns its result.
type method func(request []byte) (any, error)

var methods = map[string]method{
	// scoreTabular's result is the report as a string: the exact bytes of
	// "docscore score tabular --format F" for the request's format.
	"scoreTabular": func(r []byte) (any, error) {
		var req api.TabularRequest
		if err := decode("scoreTabular", r, &req); err != nil {
			return nil, err
		}
		out, err := api.ScoreTabular(req)
		if err != nil {
			return nil, err
		}
		return string(out), nil
	},
	"checkRules": func(r []byte) (any, error) {
		var req api.RulesCheckRequest
		if err := decode("checkRules", r, &req); err != nil {
			return nil, err
		}
		return api.CheckRules(req)
	},
	"tabularDetail": func(r []byte) (any, error) {
		var req api.TabularDetailRequest
		if err := decode("tabularDetail", r, &req); err != nil {
			return nil, err
		}
		return api.TabularDetail(req)
	},
}

func init() {
	methods["version"] = func([]byte) (any, error) {
		return VersionResult{Docscore: Version, Go: runtime.Version(), Methods: Methods()}, nil
	}
}

// Methods returns the names Call answers, sorted.
func Methods() []string {
	names := make([]string, 0, len(methods))
	for n := range methods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// decode reads a request object, refusing unknown keys so that a typo is
// an error rather than a silently ignored option. An empty request is {}.
func decode(name string, r []byte, v any) error {
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

// Call runs method on a JSON request and returns the JSON envelope. It
// never panics: a panic in the core is recovered into an "internal"
// error, and every outcome leaves through the one encoding at the end.
func Call(name, request string) string {
	var env Envelope
	env.Result, env.Error = run(name, request)
	out, err := api.MarshalJSON(env)
	if err != nil {
		// Only a result that cannot be encoded gets here.
		out, _ = api.MarshalJSON(Envelope{Error: &api.ErrorDetail{Code: "internal", Message: err.Error()}})
	}
	return string(out)
}

// run calls the method, turning an error or a panic into its description.
func run(name, request string) (result any, detail *api.ErrorDetail) {
	defer func() {
		if r := recover(); r != nil {
			result = nil
			detail = &api.ErrorDetail{Code: "internal", Message: fmt.Sprintf("internal error in %s: %v", name, r)}
		}
	}()
	m, ok := methods[name]
	if !ok {
		return nil, &api.ErrorDetail{Code: "input", Message: fmt.Sprintf("unknown method %q (expected one of %v)", name, Methods())}
	}
	res, err := m([]byte(request))
	if err != nil {
		d := api.DescribeError(err)
		return nil, &d
	}
	return res, nil
}
