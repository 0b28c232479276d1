package registry

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
)

// field finds the field of a request struct by its JSON name, looking
// into embedded structs (api.IntervalOptions).
func field(v reflect.Value, name string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			if f, ok := field(v.Field(i), name); ok {
				return f, true
			}
			continue
		}
		if jsonName(sf) == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

func jsonName(sf reflect.StructField) string {
	tag := sf.Tag.Get("json")
	if tag == "" {
		return ""
	}
	return strings.Split(tag, ",")[0]
}

// jsonFields lists a request's JSON field names, embedded structs' too.
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(sf.Type)...)
			continue
		}
		if n := jsonName(sf); n != "" && n != "-" {
			out = append(out, n)
		}
	}
	return out
}

var kinds = map[api.Kind]reflect.Kind{
	api.Bool: reflect.Bool, api.Int: reflect.Int, api.Uint: reflect.Uint64,
	api.Float: reflect.Float64, api.String: reflect.String, api.Strings: reflect.Slice,
}

// TestOperationsMatchTheirRequests checks every declaration against the
// request type it describes: each option a field of its kind, its default
// of that kind and within its limits, each input a file field, and every
// JSON field of every operation (the page's drill-downs included)
// declared as an input or an option: a field added to a request without
// a declaration fails here.
func TestOperationsMatchTheirRequests(t *testing.T) {
	names, routes := map[string]bool{}, map[string]bool{}
	fileType := reflect.TypeOf(api.File{})
	for _, fam := range Families() {
		for _, o := range fam.Operations {
			if names[o.Name] {
				t.Errorf("%s: declared twice", o.Name)
			}
			names[o.Name] = true
			if o.Route != "" && routes[o.Route] {
				t.Errorf("%s: route %s served twice", o.Name, o.Route)
			}
			routes[o.Route] = true
			if o.Family != fam.Name {
				t.Errorf("%s: Family %q, listed in family %q", o.Name, o.Family, fam.Name)
			}
			v := reflect.ValueOf(o.New()).Elem()
			declared := map[string]bool{}
			for _, p := range o.Params {
				declared[p.Name] = true
				f, ok := field(v, p.Name)
				if !ok {
					t.Errorf("%s: option %q is no JSON field of %s", o.Name, p.Name, v.Type())
					continue
				}
				ft := f.Type()
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if want := kinds[p.Kind]; ft.Kind() != want {
					t.Errorf("%s: option %q is a %s, its field a %s", o.Name, p.Name, p.Kind, ft)
				}
				if p.Help == "" {
					t.Errorf("%s: option %q has no help", o.Name, p.Name)
				}
				if p.Default != nil && reflect.TypeOf(p.Default).Kind() != kinds[p.Kind] {
					t.Errorf("%s: option %q's default %#v is no %s", o.Name, p.Name, p.Default, p.Kind)
				}
				if len(p.Choices) > 0 && p.Kind != api.String {
					t.Errorf("%s: option %q has choices but is a %s", o.Name, p.Name, p.Kind)
				}
				if p.Range != nil && p.Default != nil {
					d := reflect.ValueOf(p.Default)
					x := 0.0
					switch p.Kind {
					case api.Int:
						x = float64(d.Int())
					case api.Float:
						x = d.Float()
					}
					if !p.Range.Contains(x) {
						t.Errorf("%s: option %q's default %v is outside %s", o.Name, p.Name, p.Default, p.Range)
					}
				}
			}
			for _, in := range o.Inputs {
				declared[in.Name] = true
				f, ok := field(v, in.Name)
				if !ok {
					t.Errorf("%s: input %q is no JSON field of %s", o.Name, in.Name, v.Type())
					continue
				}
				ft := f.Type()
				many := ft.Kind() == reflect.Slice
				if many || ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft != fileType || many != in.Many {
					t.Errorf("%s: input %q (many %v) is a %s", o.Name, in.Name, in.Many, f.Type())
				}
				if in.Help == "" {
					t.Errorf("%s: input %q has no help", o.Name, in.Name)
				}
			}
			for _, n := range jsonFields(v.Type()) {
				if !declared[n] {
					t.Errorf("%s: request field %q is neither an input nor an option of the registry", o.Name, n)
				}
			}
		}
	}
}

// TestLimitsAreChecked sets each option with limits just outside them,
// and to its default and its closed bounds: every operation refuses the
// former with a *api.ParamError naming the option, and takes the latter,
// so the declared limits are those the operation checks.
func TestLimitsAreChecked(t *testing.T) {
	for _, o := range Operations() {
		for _, p := range o.Params {
			if p.Range == nil {
				continue
			}
			r := *p.Range
			var outside []float64
			if !math.IsInf(r.Lo, -1) {
				outside = append(outside, below(r.Lo, r.LoOpen, p.Kind))
			}
			if !math.IsInf(r.Hi, 1) {
				outside = append(outside, above(r.Hi, r.HiOpen, p.Kind))
			}
			for _, x := range outside {
				req := o.New()
				set(t, req, p, x)
				err := o.Check(api.NoCancel, req)
				var pe *api.ParamError
				if !errors.As(err, &pe) || pe.Param != p.Name {
					t.Errorf("%s: %s = %v: got %v, want a ParamError naming %s (limits %s)", o.Name, p.Name, x, err, p.Name, r)
				}
			}
			inside := []float64{reflect.ValueOf(p.Default).Convert(reflect.TypeOf(0.0)).Float()}
			if !r.LoOpen && !math.IsInf(r.Lo, -1) {
				inside = append(inside, r.Lo)
			}
			if !r.HiOpen && !math.IsInf(r.Hi, 1) {
				inside = append(inside, r.Hi)
			}
			for _, x := range inside {
				req := o.New()
				set(t, req, p, x)
				var pe *api.ParamError
				if err := o.Check(api.NoCancel, req); errors.As(err, &pe) && pe.Param == p.Name {
					t.Errorf("%s: %s = %v, within its limits %s: %v", o.Name, p.Name, x, r, err)
				}
			}
		}
	}
}

func below(lo float64, open bool, k api.Kind) float64 {
	if open {
		return lo
	}
	if k == api.Int {
		return lo - 1
	}
	return math.Nextafter(lo, math.Inf(-1))
}

func above(hi float64, open bool, k api.Kind) float64 {
	if open {
		return hi
	}
	if k == api.Int {
		return hi + 1
	}
	return math.Nextafter(hi, math.Inf(1))
}

func set(t *testing.T, req api.Request, p api.Param, x float64) {
	f, _ := field(reflect.ValueOf(req).Elem(), p.Name)
	if f.Kind() == reflect.Pointer {
		f.Set(reflect.New(f.Type().Elem()))
		f = f.Elem()
	}
	switch f.Kind() {
	case reflect.Int:
		f.SetInt(int64(x))
	case reflect.Float64:
		f.SetFloat(x)
	default:
		t.Fatalf("%s: limits on a %s", p.Name, f.Kind())
	}
}
