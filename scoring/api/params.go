package api

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/stats"
)

// Kind is the type of an operation's option, as every host spells it: a
// JSON boolean, number or string, a command-line flag's type, a
// TypeScript or Python type.
type Kind string

// The kinds of options.
const (
	Bool    Kind = "bool"    // true or false; a flag without a value
	Int     Kind = "int"     // a whole number (Go int)
	Uint    Kind = "uint"    // a whole number from 0 (Go uint64): a seed
	Float   Kind = "float"   // a number (Go float64)
	String  Kind = "string"  // a text
	Strings Kind = "strings" // a list of texts
)

// Param is one option of an operation, declared once: the request's JSON
// field, the command line's flag, its type, its default, its limits and
// its help. The command line registers its flags from it, the HTTP API
// takes it as a query parameter, and npm's and Python's functions are
// generated from it (docs/architecture.md).
type Param struct {
	// Name is the request's JSON field, such as "ci_level": the HTTP
	// query parameter and the field of the page's and npm's requests
	// (npm spells it ciLevel).
	Name string
	// Flag is the command line's flag without its dashes: "" for the
	// Name with "-" for "_" (ci-level), "-" for an option the command
	// line does not take.
	Flag string
	// Kind is the option's type.
	Kind Kind
	// Default is the value an absent option takes: a bool, int, uint64,
	// float64, string or []string after Kind; nil for the zero value.
	Default any
	// Range, for a number, is the values it may take; a request with a
	// value outside it is a *ParamError.
	Range *param.Range
	// Choices, for a string, lists the values it may take.
	Choices []string
	// Help says in one line what the option does: the flag's usage.
	Help string
	// Required is true for an option every request must give (the page
	// a drill-down is about); Define adds it to the operation's Required.
	Required bool
}

// FlagName is the option's command-line flag without its dashes, ""
// when the command line does not take it.
func (p Param) FlagName() string {
	switch p.Flag {
	case "-":
		return ""
	case "":
		return strings.ReplaceAll(p.Name, "_", "-")
	}
	return p.Flag
}

// DefaultText is the default as text, as a command-line flag shows it:
// "false", "2000", "0.95", "json", "[]".
func (p Param) DefaultText() string {
	switch v := p.Default.(type) {
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case uint64:
		return strconv.FormatUint(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	case []string:
		return "[" + strings.Join(v, ",") + "]"
	}
	switch p.Kind {
	case Bool:
		return "false"
	case Int, Uint, Float:
		return "0"
	case Strings:
		return "[]"
	}
	return ""
}

// Input is one file input of an operation: the request's JSON field
// holding a File (or a list of them) and how the command line names it.
type Input struct {
	// Name is the request's JSON field, such as "gt".
	Name string
	// Flag is the command line's flag without its dashes; "" for the
	// Name, "-" when the command line takes it as an argument (Arg) or
	// not at all.
	Flag string
	// Arg, when the command line takes the input as a positional
	// argument, is its name there: "BASE.json".
	Arg string
	// Many is true for a list of files.
	Many bool
	// Required is true when every request must give it.
	Required bool
	// Binary is true when hosts hand over the file's exact bytes (as
	// base64) rather than its text.
	Binary bool
	// Help says in one line what the input holds.
	Help string
}

// FlagName is the input's command-line flag without its dashes, ""
// when the command line takes it as an argument or not at all.
func (in Input) FlagName() string {
	switch {
	case in.Flag == "-" || in.Arg != "":
		return ""
	case in.Flag == "":
		return in.Name
	}
	return in.Flag
}

// FormatParam is the "format" option of an operation with Formats: Define
// fills in its kind, default (the first format), choices and help from
// the operation's Formats, so that an operation lists it where its
// options list it without saying the formats twice.
var FormatParam = Param{Name: "format"}

// IntervalParams are the options of IntervalOptions (SPEC F.4) with the
// help the scoring commands give them; unit names what gets intervals
// ("cell", "phase").
func IntervalParams(unit string) []Param {
	return []Param{
		{Name: "bootstrap", Kind: Int, Default: stats.DefaultReplicates, Range: &stats.ReplicatesRange,
			Help: "bootstrap replicates of each " + unit + "'s confidence intervals (0: none)"},
		{Name: "ci_level", Kind: Float, Default: stats.DefaultLevel, Range: &stats.LevelRange,
			Help: "confidence level of the intervals, between 0 and 1"},
		{Name: "seed", Kind: Uint, Default: uint64(0), Help: "seed of the intervals' random numbers"},
	}
}

// QueryNames lists the operation's options by their request names: the
// query parameters the HTTP API takes for it, in the order declared.
func (o Operation) QueryNames() []string {
	names := make([]string, len(o.Params))
	for i, p := range o.Params {
		names[i] = p.Name
	}
	return names
}

// Param returns the operation's option named name (its JSON name).
func (o Operation) Param(name string) (Param, bool) {
	for _, p := range o.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// withFormat fills in the format option from the operation's Formats.
func (o Operation) withFormat() Operation {
	for i, p := range o.Params {
		if p.Name != "format" || p.Kind != "" {
			continue
		}
		formats := o.Formats
		if len(formats) == 0 {
			formats = []string{"json"} // a JSON value
		}
		ps := append([]Param(nil), o.Params...)
		ps[i] = Param{Name: "format", Flag: p.Flag, Kind: String, Default: formats[0], Choices: formats,
			Help: "output format: " + orList(formats)}
		o.Params = ps
	}
	return o
}

// withRequired adds every required input, then every required option,
// to Required, its help saying what is expected, unless Required names
// it already.
func (o Operation) withRequired() Operation {
	var req []Field
	for _, in := range o.Inputs {
		if _, ok := o.required(in.Name); in.Required && !ok {
			req = append(req, Field{Name: in.Name, Want: in.Help})
		}
	}
	for _, p := range o.Params {
		if _, ok := o.required(p.Name); p.Required && !ok {
			req = append(req, Field{Name: p.Name, Want: p.Help})
		}
	}
	if req != nil {
		o.Required = append(req, o.Required...)
	}
	return o
}

func (o Operation) required(name string) (Field, bool) {
	for _, f := range o.Required {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// SetParam sets the option name of req, a request of o (o.New), to v, a
// value of the option's kind (bool, int, uint64, float64, string or
// []string): a host that read the option its own way, such as a
// command-line flag the user gave, sets the request's field, a pointer
// field included, without knowing the request's shape.
func (o Operation) SetParam(req Request, name string, v any) error {
	if _, ok := o.Param(name); !ok {
		return fmt.Errorf("%s: no option %q", o.Name, name)
	}
	f, ok := jsonField(reflect.ValueOf(req).Elem(), name)
	if !ok {
		return fmt.Errorf("%s: option %q is no field of %T", o.Name, name, req)
	}
	t := f.Type()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	x := reflect.ValueOf(v)
	if !x.IsValid() || x.Type() != t {
		return fmt.Errorf("%s: option %q takes a %s, not %T", o.Name, name, t, v)
	}
	if f.Kind() == reflect.Pointer {
		p := reflect.New(t)
		p.Elem().Set(x)
		x = p
	}
	f.Set(x)
	return nil
}

// jsonField finds the field of a struct by its JSON name, looking into
// embedded structs (IntervalOptions).
func jsonField(v reflect.Value, name string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			if f, ok := jsonField(v.Field(i), name); ok {
				return f, true
			}
			continue
		}
		if tag, _, _ := strings.Cut(sf.Tag.Get("json"), ","); tag == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}
