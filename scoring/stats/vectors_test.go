package stats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// vectorCase is one case of testdata/vectors.json, written by the
// independent Python reference scripts/stats_vectors.py.
type vectorCase struct {
	Name       string `json:"name"`
	Family     string `json:"family"`
	Fields     []string
	Structured bool
	// Preview cases compare cells[i] (ids prefixed settled:) with
	// cells[n+i] (preview:) through Preview, the cells built under their
	// ids without the prefix.
	Preview bool
	Options struct {
		Replicates, Permutations int
		Seed                     uint64
		Level, Alpha, Effect     float64
	}
	Cells []struct {
		Model, Phase, ID string
		Images           []struct {
			Page         string  `json:"page"`
			Status       string  `json:"status"`
			Matched      float64 `json:"matched"`
			NModel       float64 `json:"n_model"`
			NGT          float64 `json:"n_gt"`
			NameCerEdits float64 `json:"name_cer_edits"`
			NameRefChars float64 `json:"name_ref_chars"`
			Fields       map[string]struct{ Sum, Scored float64 }
		}
		Pages []struct {
			SampleID       string   `json:"sample_id"`
			F1             *float64 `json:"f1"`
			NumericMatched float64  `json:"numeric_matched"`
			NumericRef     float64  `json:"numeric_ref"`
			TEDAccuracy    *float64 `json:"ted_accuracy"`
			FieldsMatched  float64  `json:"fields_matched"`
			FieldsPred     float64  `json:"fields_pred"`
			FieldsRef      float64  `json:"fields_ref"`
		}
	}
	Comparisons [][2]int
	Expected    struct {
		Cells  []json.RawMessage
		Report json.RawMessage
	}
}

func (v *vectorCase) cells(t *testing.T) []*Cell {
	var out []*Cell
	for _, c := range v.Cells {
		var b *Builder
		if v.Family == "tabular" {
			s := TabularSchema(v.Fields)
			b = NewBuilder(c.ID, s)
			for _, im := range c.Images {
				b.Unit(im.Page)
				if im.Status != "ok" {
					continue
				}
				vec := make([]float64, s.Width)
				vec[TabMatched], vec[TabNModel], vec[TabNGT] = im.Matched, im.NModel, im.NGT
				vec[TabNameEdits], vec[TabNameRefChars] = im.NameCerEdits, im.NameRefChars
				for i, f := range v.Fields {
					fs := im.Fields[f]
					vec[TabFields+2*i], vec[TabFields+2*i+1] = fs.Sum, fs.Scored
				}
				if err := b.Add(im.Page, vec); err != nil {
					t.Fatal(err)
				}
			}
		} else {
			s := ReceiptsSchema(v.Structured)
			b = NewBuilder(c.ID, s)
			for _, p := range c.Pages {
				vec := make([]float64, s.Width)
				if p.F1 != nil {
					vec[RecF1Sum], vec[RecF1Count] = *p.F1, 1
				}
				vec[RecNumericMatched], vec[RecNumericRef] = p.NumericMatched, p.NumericRef
				if v.Structured {
					if p.TEDAccuracy != nil {
						vec[RecTEDSum], vec[RecTEDCount] = *p.TEDAccuracy, 1
					}
					vec[RecFieldsMatched], vec[RecFieldsPred], vec[RecFieldsRef] = p.FieldsMatched, p.FieldsPred, p.FieldsRef
				}
				if err := b.Add(p.SampleID, vec); err != nil {
					t.Fatal(err)
				}
			}
		}
		out = append(out, b.Build())
	}
	return out
}

// vectorCases reads testdata/vectors.json.
func vectorCases(t *testing.T) []vectorCase {
	t.Helper()
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []vectorCase }
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no cases")
	}
	return file.Cases
}

// TestVectors holds the package to the independent Python reference:
// every interval, observed value, difference, p-value, Holm adjustment and
// movement list of the hand-made cases agrees to 1e-9, and every key,
// count, id list and null agrees exactly.
func TestVectors(t *testing.T) {
	for _, vc := range vectorCases(t) {
		t.Run(vc.Name, func(t *testing.T) {
			o := vc.options()
			cells := vc.cells(t)
			for i, c := range cells {
				ci, err := Interval(c, o)
				if err != nil {
					t.Fatal(err)
				}
				var got []byte
				if ci == nil {
					got = []byte("null")
				} else if got, err = json.Marshal(ci); err != nil {
					t.Fatal(err)
				}
				agree(t, fmt.Sprintf("cells[%d].ci", i), got, vc.Expected.Cells[i])
			}
			got, err := json.Marshal(vc.reportOf(t, cells, o))
			if err != nil {
				t.Fatal(err)
			}
			agree(t, "report", got, vc.Expected.Report)
		})
	}
}

func (v *vectorCase) options() Options {
	return Options{Level: v.Options.Level, Replicates: v.Options.Replicates,
		Permutations: v.Options.Permutations, Seed: v.Options.Seed, Alpha: v.Options.Alpha, Effect: v.Options.Effect}
}

// report is the case's comparison report.
func (v *vectorCase) report(t *testing.T) *Report { return v.reportOf(t, v.cells(t), v.options()) }

// reportOf makes the case's comparisons of cells (built under their
// prefixed ids) through CompareAll, or for a preview through Preview.
func (v *vectorCase) reportOf(t *testing.T, cells []*Cell, o Options) *Report {
	t.Helper()
	if v.Preview {
		n := len(cells) / 2
		var settled, preview []Named
		for i, c := range cells {
			unprefixed := *c
			unprefixed.ID = strings.TrimPrefix(strings.TrimPrefix(c.ID, SettledPrefix), PreviewPrefix)
			named := v.named(cells, i)
			named.Cell = &unprefixed
			if i < n {
				settled = append(settled, named)
			} else {
				preview = append(preview, named)
			}
		}
		r, err := Preview(v.Family, settled, preview, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	pairs := make([]Pair, len(v.Comparisons))
	for i, p := range v.Comparisons {
		pairs[i] = Pair{A: v.named(cells, p[0]), B: v.named(cells, p[1])}
	}
	r, err := CompareAll(v.Family, pairs, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (v *vectorCase) named(cells []*Cell, i int) Named {
	c := v.Cells[i]
	n := Named{Cell: cells[i], Phase: c.Phase}
	if v.Family == "tabular" {
		n.Model = &c.Model
	}
	return n
}

// agree compares two JSON documents: the same keys in the same order, the
// same strings, booleans and nulls, numbers within 1e-9.
func agree(t *testing.T, where string, got, want []byte) {
	t.Helper()
	g, err := decodeOrdered(got)
	if err != nil {
		t.Fatalf("%s: %v in %s", where, err, got)
	}
	w, err := decodeOrdered(want)
	if err != nil {
		t.Fatalf("%s: expected: %v", where, err)
	}
	if msg := diffJSON(where, g, w); msg != "" {
		t.Error(msg)
	}
}

type orderedObject struct {
	keys []string
	vals []any
}

func decodeOrdered(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	v, err := decodeValue(d)
	if err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func decodeValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &orderedObject{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(d)
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, k.(string))
			o.vals = append(o.vals, v)
		}
		_, err := d.Token()
		return o, err
	case json.Delim('['):
		var a []any
		for d.More() {
			v, err := decodeValue(d)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := d.Token()
		if a == nil {
			a = []any{}
		}
		return a, err
	}
	return tok, nil
}

func diffJSON(at string, got, want any) string {
	switch w := want.(type) {
	case *orderedObject:
		g, ok := got.(*orderedObject)
		if !ok {
			return fmt.Sprintf("%s: got %v, want an object", at, got)
		}
		if fmt.Sprint(g.keys) != fmt.Sprint(w.keys) {
			return fmt.Sprintf("%s: keys %v, want %v", at, g.keys, w.keys)
		}
		for i := range w.keys {
			if m := diffJSON(at+"."+w.keys[i], g.vals[i], w.vals[i]); m != "" {
				return m
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: got %v, want %v", at, got, want)
		}
		for i := range w {
			if m := diffJSON(fmt.Sprintf("%s[%d]", at, i), g[i], w[i]); m != "" {
				return m
			}
		}
	case json.Number:
		g, ok := got.(json.Number)
		if !ok {
			return fmt.Sprintf("%s: got %v, want %v", at, got, want)
		}
		if g.String() == w.String() {
			return ""
		}
		gf, err1 := g.Float64()
		wf, err2 := w.Float64()
		if err1 != nil || err2 != nil || math.Abs(gf-wf) > 1e-9 {
			return fmt.Sprintf("%s: got %v, want %v", at, g, w)
		}
	default:
		if got != want {
			return fmt.Sprintf("%s: got %v, want %v", at, got, want)
		}
	}
	return ""
}
