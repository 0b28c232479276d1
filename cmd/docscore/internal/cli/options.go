package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/docscore/docscore/scoring/api"
)

// optionFlags registers on f the flags of the options of o that the
// command line takes, as the registry declares them (api.Param): the
// flag's name, type, default and help. vars gives, by each option's JSON
// name, the variable its flag sets, for the options the command reads
// itself; every other option gets a variable of its own, and the command
// sets its request from the flags with applyOptions, so that an option
// added to the registry reaches the request with no change here. A
// variable for no option of o is a bug and panics, as every test builds
// the command tree.
func optionFlags(f *pflag.FlagSet, o api.Operation, vars map[string]any) {
	registerOptions(f, o, vars, false)
}

// bindOptions is optionFlags for a command that reads every option from
// its own variable (it builds its request by hand): each option with a
// flag must have one in vars, so that an option added to the registry
// without being passed on panics in every test instead of being ignored.
func bindOptions(f *pflag.FlagSet, o api.Operation, vars map[string]any) {
	registerOptions(f, o, vars, true)
}

func registerOptions(f *pflag.FlagSet, o api.Operation, vars map[string]any, bindAll bool) {
	used := map[string]bool{}
	for _, p := range o.Params {
		name := p.FlagName()
		if name == "" {
			continue
		}
		v := vars[p.Name]
		used[p.Name] = v != nil
		if v == nil && bindAll {
			panic(fmt.Sprintf("cli: %s: option %q has no variable: pass it on to the request, and bind it", o.Name, p.Name))
		}
		switch p.Kind {
		case api.Bool:
			f.BoolVar(ptrOf[bool](v), name, defaultOf[bool](p), p.Help)
		case api.Int:
			f.IntVar(ptrOf[int](v), name, defaultOf[int](p), p.Help)
		case api.Uint:
			f.Uint64Var(ptrOf[uint64](v), name, defaultOf[uint64](p), p.Help)
		case api.Float:
			f.Float64Var(ptrOf[float64](v), name, defaultOf[float64](p), p.Help)
		case api.String:
			f.StringVar(ptrOf[string](v), name, defaultOf[string](p), p.Help)
		case api.Strings:
			f.StringSliceVar(ptrOf[[]string](v), name, defaultOf[[]string](p), p.Help)
		default:
			panic(fmt.Sprintf("cli: %s: option %q of kind %q", o.Name, p.Name, p.Kind))
		}
	}
	for name := range vars {
		if !used[name] {
			panic(fmt.Sprintf("cli: %s: a variable for %q, which is no option of its with a flag", o.Name, name))
		}
	}
}

// ptrOf is v as a *T, or a new T when v is nil.
func ptrOf[T any](v any) *T {
	if v == nil {
		return new(T)
	}
	return v.(*T)
}

// defaultOf is p's default as a T (its zero value when p declares none).
func defaultOf[T any](p api.Param) T {
	if p.Default == nil {
		var zero T
		return zero
	}
	return p.Default.(T)
}

// applyOptions sets, in req (a request of o), every option whose flag the
// user gave, so that an option left out takes the operation's default as
// it does over HTTP.
func applyOptions(f *pflag.FlagSet, o api.Operation, req api.Request) error {
	for _, p := range o.Params {
		name := p.FlagName()
		if name == "" || !f.Changed(name) {
			continue
		}
		var v any
		var err error
		switch p.Kind {
		case api.Bool:
			v, err = f.GetBool(name)
		case api.Int:
			v, err = f.GetInt(name)
		case api.Uint:
			v, err = f.GetUint64(name)
		case api.Float:
			v, err = f.GetFloat64(name)
		case api.String:
			v, err = f.GetString(name)
		case api.Strings:
			v, err = f.GetStringSlice(name)
		}
		if err == nil {
			err = o.SetParam(req, p.Name, v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
