package api

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/docscore/docscore/scoring/provenance"
)

// Canonical is a request that lists its options that change numbers
// itself, as they take effect (defaults included), so that two hosts
// that spell a default or leave it out record the same provenance.
type Canonical interface {
	ProvenanceOptions() []provenance.Option
}

// Option is one canonical option: name and value, marshalled as JSON.
func Option(name string, v any) provenance.Option {
	raw, err := json.Marshal(v)
	if err != nil {
		raw = []byte("null")
	}
	return provenance.Option{Name: name, Value: raw}
}

// Described is a request some of whose inputs a host read outside its
// file fields (the command line's reference folders and parquet files):
// DescribeInputs returns the inputs its fields gave with those added in
// their place.
type Described interface {
	DescribeInputs(fromFields []provenance.Input) []provenance.Input
}

// Drawn is a request whose operation draws random numbers: the seed,
// replicates and permutations that took effect, defaults included, for
// its report's provenance (SPEC F.8).
type Drawn interface {
	Draws() (seed uint64, replicates, permutations int)
}

// ProvenanceOf is the provenance of the operation's answer to req (SPEC
// F.8): every file of the request (its JSON field as the role, its base
// name, byte count and sha256), the rule file's hash, the draws (Drawn)
// and every other option the request gives, "format" left out (it
// changes no number). Adding a request field adds it here: a File,
// *File or []File is an input, anything else an option.
func (o Operation) ProvenanceOf(req Request) (*provenance.Provenance, error) {
	return o.provenanceOf(req, nil)
}

// provenanceOf is ProvenanceOf with the files of streamed described as
// given there rather than by their contents.
func (o Operation) provenanceOf(req Request, streamed map[*File]provenance.Input) (*provenance.Provenance, error) {
	p := &provenance.Provenance{Version: provenance.Version, Spec: provenance.Spec, Operation: o.Name}
	if err := walkRequest(reflect.ValueOf(req).Elem(), p, streamed); err != nil {
		return nil, err
	}
	if c, ok := req.(Canonical); ok {
		p.Options = c.ProvenanceOptions()
	}
	if d, ok := req.(Described); ok {
		p.Inputs = d.DescribeInputs(p.Inputs)
	}
	for _, in := range p.Inputs {
		if in.Role == "rules" {
			p.RulesSHA256 = in.SHA256
		}
	}
	if d, ok := req.(Drawn); ok {
		seed, reps, perms := d.Draws()
		p.Seed, p.Replicates, p.Permutations = &seed, &reps, &perms
	}
	return p, nil
}

var fileType = reflect.TypeOf(File{})

func walkRequest(v reflect.Value, p *provenance.Provenance, streamed map[*File]provenance.Input) error {
	t := v.Type()
	for i := range t.NumField() {
		f, fv := t.Field(i), v.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if err := walkRequest(fv, p, streamed); err != nil {
				return err
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || name == "" || name == "format" {
			continue
		}
		add := func(f File) error {
			if f == (File{}) {
				return nil
			}
			b, err := f.Bytes()
			if err != nil {
				return err
			}
			p.Inputs = append(p.Inputs, provenance.NewInput(name, f.Name, b))
			return nil
		}
		switch {
		case f.Type == fileType && fv.CanAddr() && hasKey(streamed, fv.Addr().Interface().(*File)):
			p.Inputs = append(p.Inputs, streamed[fv.Addr().Interface().(*File)])
		case f.Type == fileType:
			if err := add(fv.Interface().(File)); err != nil {
				return err
			}
		case f.Type == reflect.PointerTo(fileType):
			if !fv.IsNil() {
				if err := add(*fv.Interface().(*File)); err != nil {
					return err
				}
			}
		case f.Type == reflect.SliceOf(fileType):
			for _, file := range fv.Interface().([]File) {
				if err := add(file); err != nil {
					return err
				}
			}
		case fv.IsZero():
		default:
			raw, err := json.Marshal(fv.Interface())
			if err != nil {
				return err
			}
			p.Options = append(p.Options, provenance.Option{Name: name, Value: raw})
		}
	}
	return nil
}

func hasKey(m map[*File]provenance.Input, f *File) bool {
	_, ok := m[f]
	return ok
}

// Stamp adds the provenance member to res when the operation carries
// provenance and res is a JSON report; other formats are left alone.
func (o Operation) Stamp(req Request, res *Result) error {
	if !o.Provenance || res == nil || res.Value != nil || (res.Format != "json" && res.Format != "") || len(res.Bytes) == 0 {
		return nil
	}
	p, err := o.ProvenanceOf(req)
	if err != nil {
		return err
	}
	res.Bytes, err = provenance.Append(res.Bytes, p)
	return err
}

// Rebuild makes the request a report's provenance describes, for
// "docscore verify": its options as recorded, and files[i] (the content
// found for p.Inputs[i], named as recorded) in the field its role names.
func (o Operation) Rebuild(p *provenance.Provenance, files []File) (Request, error) {
	req := o.New()
	var b strings.Builder
	b.WriteByte('{')
	for i, opt := range p.Options {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(opt.Name)
		b.Write(key)
		b.WriteByte(':')
		b.Write(opt.Value)
	}
	b.WriteByte('}')
	if err := json.Unmarshal([]byte(b.String()), req); err != nil {
		return nil, inputErrorf("provenance options: %v", err)
	}
	// The draws, under the names every request gives them, for a
	// Canonical request (its options leave them out). Any other request
	// records its options as given, a default left out: setting the
	// draws there would record a default as given.
	draws := map[string]any{}
	if _, canonical := req.(Canonical); canonical {
		if p.Seed != nil {
			draws["seed"] = *p.Seed
		}
		if p.Replicates != nil {
			draws["bootstrap"] = *p.Replicates
		}
		if p.Permutations != nil {
			draws["permutations"] = *p.Permutations
		}
	}
	if len(draws) > 0 {
		raw, _ := json.Marshal(draws)
		if err := json.Unmarshal(raw, req); err != nil {
			return nil, inputErrorf("provenance draws: %v", err)
		}
	}
	for i, in := range p.Inputs {
		fv, ok := fieldByJSON(reflect.ValueOf(req).Elem(), in.Role)
		if !ok {
			return nil, inputErrorf("provenance input %q: operation %s has no such file", in.Role, o.Name)
		}
		switch fv.Type() {
		case fileType:
			fv.Set(reflect.ValueOf(files[i]))
		case reflect.PointerTo(fileType):
			f := files[i]
			fv.Set(reflect.ValueOf(&f))
		case reflect.SliceOf(fileType):
			fv.Set(reflect.Append(fv, reflect.ValueOf(files[i])))
		default:
			return nil, inputErrorf("provenance input %q: operation %s's field is not a file", in.Role, o.Name)
		}
	}
	return req, nil
}

// fieldByJSON finds the field a JSON name names, in embedded structs too.
func fieldByJSON(v reflect.Value, name string) (reflect.Value, bool) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if fv, ok := fieldByJSON(v.Field(i), name); ok {
				return fv, true
			}
			continue
		}
		if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}
