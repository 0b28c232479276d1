package api

import (
	"encoding/base64"
	"fmt"
	"strings"
	"sync"

	"github.com/docscore/docscore/scoring/tabular"

	"github.com/docscore/docscore/scoring/inputerr"
)

// Operation is one thing docscore does — score a tabular run, check a rule
// file, score receipts, evaluate a cases file — written once: its name,
// its HTTP route, its request type, its report formats and the function
// that answers it. Every host dispatches through the operation lists
// (TabularOperations, receiptsapi.Operations, evalapi.Operations) and adds
// only its transport: the command line reads files and writes the bytes,
// the browser bridge hands texts across, the HTTP handler decodes bodies.
// A new operation is one entry in a list, with its inputs and options
// (Inputs, Params), and its function; package registry joins the lists,
// and docs/architecture.md walks through adding one.
type Operation struct {
	// Name is the operation's method name in the browser bridge, such
	// as "scoreTabular".
	Name string
	// Route is the HTTP path the operation is served at (POST), such as
	// "/v1/score/tabular"; empty for an operation only the page calls.
	Route string
	// Doc says in one line what the operation answers, for the route
	// and method lists.
	Doc string
	// Formats lists the report formats the operation writes, the default
	// first; nil when the result is a JSON value (Result.Value).
	Formats []string
	// Required lists the request fields that must be given, with what to
	// say when one is missing.
	Required []Field
	// Family is the scoring family the operation belongs to: "tabular",
	// "receipts", "tables", "text", "eval" or "compare"; each family is
	// one WebAssembly core of the page and of npm.
	Family string
	// Command is the command line's command that answers the operation,
	// such as "score tabular"; empty for an operation only the page and
	// the HTTP API serve.
	Command string
	// Inputs lists the request's files: each one's JSON field, how the
	// command line names it, whether it is a list, required or binary.
	Inputs []Input
	// Params lists the request's options, each declared once (Param):
	// the command line's flags, the HTTP API's query parameters and
	// npm's and Python's typed options are made from it.
	Params []Param
	// Provenance adds the "provenance" member of SPEC F.8 to the
	// operation's JSON reports in every host (Stamp, ProvenanceOf): set it
	// on an operation whose every host writes the report through Run or
	// calls Stamp on its typed path.
	Provenance bool
	// New returns a new, empty request of the operation's type.
	New func() Request
	// call answers a request New made, once Run has checked it.
	call func(ctx Cancel, req Request) (*Result, error)
}

// Field names a request field (its JSON name) and says what it holds.
type Field struct {
	Name string
	Want string // "one or more ground-truth CSV files"
}

// Request is what every operation's request offers its hosts.
type Request interface {
	// InputFiles lists the request's files, so that a host can fill in or
	// check their contents without knowing the request's shape.
	InputFiles() []*File
}

// Formatted is a request that asks for a report format.
type Formatted interface {
	ReportFormat() string
}

// Validator is a request that checks its own options (a gate in range, a
// preview selection that parses) before anything is scored.
type Validator interface {
	Validate() error
}

// Result is an operation's answer: a report's bytes in the requested
// format, exactly what the command line writes, or a value every host
// encodes as JSON (MarshalJSON).
type Result struct {
	// Format is the format of Bytes ("json", "csv", "md"); empty with
	// Value.
	Format string
	// Bytes is the report, when the operation writes one.
	Bytes []byte
	// Value is the result, when the operation answers a JSON value.
	Value any
}

// Cancel is what an operation reads of its caller's context: Err turns
// non-nil once the caller has gone away or its deadline has passed. A
// context.Context is one. The core does not take a context.Context
// itself: that interface's Deadline links the time package's formatting
// and parsing into the page's core for nothing (about 50 KB gzipped).
type Cancel interface {
	Err() error
}

// Bounded is a Cancel that also bounds a call's work: the HTTP API caps
// the name pairs a tabular scoring may compare (tabular.Limits).
type Bounded interface {
	Cancel
	WorkLimits() tabular.Limits
}

// workLimits are the limits ctx sets, none unless it is Bounded.
func workLimits(ctx Cancel) tabular.Limits {
	if b, ok := ctx.(Bounded); ok {
		return b.WorkLimits()
	}
	return tabular.Limits{}
}

// NoCancel is a Cancel that never cancels, for hosts that run one call at
// a time to its end (the page's cores).
var NoCancel Cancel = noCancel{}

type noCancel struct{}

func (noCancel) Err() error { return nil }

// Define makes an operation from its description and its function over
// its own request type: o.New and the call are filled in.
func Define[P interface {
	*R
	Request
}, R any](o Operation, call func(ctx Cancel, req P) (*Result, error)) Operation {
	o = o.withFormat().withRequired()
	o.New = func() Request { return P(new(R)) }
	o.call = func(ctx Cancel, req Request) (*Result, error) {
		p, ok := req.(P)
		if !ok {
			return nil, fmt.Errorf("%s: request of type %T, want %T", o.Name, req, p)
		}
		res, err := call(ctx, p)
		if err == nil {
			err = o.Stamp(req, res)
		}
		return res, err
	}
	return o
}

// Lazy is an operation defined on its first use: a program's start
// builds no operation (docscore --version builds none), and a host
// builds those it calls. Its Define is called once, by Get.
type Lazy struct {
	Define func() Operation
	once   sync.Once
	op     Operation
}

// Get returns the operation, defining it on the first call.
func (l *Lazy) Get() Operation {
	l.once.Do(func() { l.op = l.Define() })
	return l.op
}

// Run checks a request — its format against the operation's formats, its
// own options (Validator) — and answers it. Every host calls Run, so the
// checks are the same everywhere: a bad option is a *ParamError.
func (o Operation) Run(ctx Cancel, req Request) (*Result, error) {
	if err := o.Check(ctx, req); err != nil {
		return nil, err
	}
	return o.call(ctx, req)
}

// Check makes Run's checks of a request without running it: the format,
// the request's own options, and that ctx is still live; it also decodes
// every file given as base64 (DecodeFiles). A host that calls an
// operation's typed function (ScoreTabularReport) checks first.
func (o Operation) Check(ctx Cancel, req Request) error {
	if err := DecodeFiles(req); err != nil {
		return err
	}
	if f, ok := req.(Formatted); ok {
		if err := o.CheckFormat(f.ReportFormat()); err != nil {
			return err
		}
	}
	if v, ok := req.(Validator); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// DecodeFiles turns every file of req given as base64 into a file given as
// text (its bytes as they are), so that every scorer reads the content it
// was sent: a file with both a text and a base64, or a base64 that is not
// standard base64 (RFC 4648, padded), is a *ParamError naming the file.
// The files are decoded in place: a request's file slices are shared with
// copies of the request. A file already decoded is left as it is, so
// calling it twice is safe.
func DecodeFiles(req Request) error {
	for _, f := range req.InputFiles() {
		if f.Base64 == "" {
			continue
		}
		if f.Text != "" {
			return &ParamError{Param: "base64", File: f.Name, Msg: fmt.Sprintf("of file %q: the file also gives a text (expected one of text and base64)", f.Name)}
		}
		b, err := base64.StdEncoding.DecodeString(f.Base64)
		if err != nil {
			return &ParamError{Param: "base64", File: f.Name, Msg: fmt.Sprintf("of file %q: expected standard base64 (RFC 4648, with padding): %v", f.Name, err)}
		}
		f.Text, f.Base64 = string(b), ""
	}
	return nil
}

// CheckFormat refuses a format the operation does not write; "" is the
// default format.
func (o Operation) CheckFormat(format string) error {
	if format == "" {
		return nil
	}
	for _, f := range o.Formats {
		if f == format {
			return nil
		}
	}
	if len(o.Formats) == 0 {
		if format == "json" {
			return nil
		}
		return Paramf("format", "%q: this operation answers JSON only", format)
	}
	return Paramf("format", "%q: expected %s", format, orList(o.Formats))
}

// DefaultFormat is the format a request that names none gets.
func (o Operation) DefaultFormat() string {
	if len(o.Formats) == 0 {
		return ""
	}
	return o.Formats[0]
}

// orList writes "a", "a or b", "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// ParamError is a request option with a bad value: the format, the gate, a
// preview selection. Hosts name the option their own way (the command
// line's --gate, the HTTP API's "gate" field, answered 400).
type ParamError struct {
	Param string // the option's request name: "format", "gate"
	Msg   string // what is wrong: `"xml": expected json, csv or md`
	// File names the request's file the error is about, when it is
	// about one (a base64 that does not decode); error bodies give it.
	File string
}

// Error is "PARAM MSG", such as `format "xml": expected json, csv or md`.
func (e *ParamError) Error() string { return e.Param + " " + e.Msg }

// Paramf returns a *ParamError for the option param.
func Paramf(param, format string, args ...any) *ParamError {
	return &ParamError{Param: param, Msg: fmt.Sprintf(format, args...)}
}

// ErrorCode is the stable code of a ParamError in every host's error
// body: "bad_request".
func (e *ParamError) ErrorCode() string { return "bad_request" }

// Coded is an error that chooses its own code in error bodies (see
// DescribeError), such as receipts' "incomplete".
type Coded interface {
	error
	ErrorCode() string
}

// Find returns the operation named name among lists.
func Find(name string, lists ...[]Operation) (Operation, bool) {
	for _, l := range lists {
		for _, o := range l {
			if o.Name == name {
				return o, true
			}
		}
	}
	return Operation{}, false
}

// MustFind is Find for a name the caller's own code spells: a missing
// operation is a bug, and panics.
func MustFind(name string, lists ...[]Operation) Operation {
	o, ok := Find(name, lists...)
	if !ok {
		panic("api: no operation " + name)
	}
	return o
}

// inputErrorf is an input error not tied to a file.
func inputErrorf(format string, args ...any) error { return inputerr.New("", 0, format, args...) }
