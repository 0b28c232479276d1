package compareapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The sample reports every test compares.
const (
	tabularReport  = "../../tabular/testdata/golden/sample.json"
	receiptsReport = "../../receipts/testdata/golden/receipts.json"
)

func file(t testing.TB, path string) api.File {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return api.File{Name: filepath.Base(path), Text: string(b)}
}

func ints(v int) *int { return &v }

// small keeps the tests quick: fewer draws than SPEC's defaults.
func small(req *CompareRequest) *CompareRequest {
	req.Bootstrap, req.Permutations = ints(500), ints(1000)
	return req
}

func run(t *testing.T, req *CompareRequest) []byte {
	t.Helper()
	res, err := CompareOperation().Run(api.NoCancel, req)
	if err != nil {
		t.Fatal(err)
	}
	return res.Bytes
}

func TestGoldenWithin(t *testing.T) {
	for _, tc := range []struct{ name, report string }{
		{"tabular_within", tabularReport},
		{"receipts_within", receiptsReport},
	} {
		for _, format := range []string{"json", "csv", "md", "junit"} {
			t.Run(tc.name+"."+format, func(t *testing.T) {
				got := run(t, small(&CompareRequest{Base: file(t, tc.report), Within: true, Format: format}))
				ext := format
				if format == "junit" {
					ext = "junit.xml"
				}
				path := filepath.Join("testdata", tc.name+"."+ext)
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", format, path, got)
				}
			})
		}
	}
}

// comparisonJSON is the part of a comparison report the properties read.
type comparisonJSON struct {
	Comparisons []struct {
		A, B  struct{ ID string }
		Stats map[string]json.RawMessage
	}
}

type statJSON struct {
	A, B, Delta, P *float64
	CI             *[2]float64
}

// eachStat calls fn with every statistic of every comparison, grouped
// ones by their path.
func eachStat(t *testing.T, b []byte, fn func(cmp int, path string, s statJSON)) {
	t.Helper()
	var r comparisonJSON
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	for i, c := range r.Comparisons {
		for name, raw := range c.Stats {
			var s statJSON
			if err := json.Unmarshal(raw, &s); err == nil && (s.A != nil || s.B != nil || s.Delta != nil) {
				fn(i, name, s)
				continue
			}
			var group map[string]statJSON
			if err := json.Unmarshal(raw, &group); err != nil {
				t.Fatal(err)
			}
			for k, g := range group {
				fn(i, name+"."+k, g)
			}
		}
	}
}

// A report compared with itself: every delta 0, every interval [0, 0],
// every p 1.
func TestSelfComparison(t *testing.T) {
	for _, path := range []string{tabularReport, receiptsReport} {
		f := file(t, path)
		b := run(t, small(&CompareRequest{Base: f, New: f}))
		n := 0
		eachStat(t, b, func(i int, name string, s statJSON) {
			n++
			if s.Delta == nil {
				return // undefined on both sides
			}
			if *s.Delta != 0 || s.P == nil || *s.P != 1 || s.CI == nil || *s.CI != [2]float64{} {
				t.Errorf("%s comparison %d %s: delta %v, p %v, ci %v; want 0, 1, [0, 0]", path, i, name, *s.Delta, s.P, s.CI)
			}
		})
		if n == 0 {
			t.Errorf("%s: no statistic compared", path)
		}
	}
}

// Swapping base and new flips every delta exactly.
func TestSwapFlipsDeltas(t *testing.T) {
	for _, path := range []string{tabularReport, receiptsReport} {
		f := file(t, path)
		fwd := run(t, small(&CompareRequest{Base: f, Within: true}))
		// The same cells of one report, as two reports in either order:
		// build a report whose cells come in reverse via pairs.
		pairs := reversedPairs(t, fwd)
		back := run(t, small(&CompareRequest{Base: f, Within: true, Pairs: pairs}))
		type key struct {
			i    int
			name string
		}
		deltas := map[key]float64{}
		eachStat(t, fwd, func(i int, name string, s statJSON) {
			if s.Delta != nil {
				deltas[key{i, name}] = *s.Delta
			}
		})
		checked := 0
		eachStat(t, back, func(i int, name string, s statJSON) {
			if d, ok := deltas[key{i, name}]; ok && s.Delta != nil {
				checked++
				if *s.Delta != -d {
					t.Errorf("%s comparison %d %s: delta %v swapped, %v forward", path, i, name, *s.Delta, d)
				}
			}
		})
		if checked == 0 {
			t.Errorf("%s: no delta checked", path)
		}
	}
}

// reversedPairs writes --pairs naming every comparison of a within report
// with its sides swapped.
func reversedPairs(t *testing.T, b []byte) string {
	var r struct {
		Comparisons []struct {
			A, B struct {
				Model *string
				Phase string
			}
		}
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	var items []string
	key := func(m *string, p string) string {
		if m == nil {
			return p
		}
		return *m + "/" + p
	}
	for _, c := range r.Comparisons {
		items = append(items, key(c.B.Model, c.B.Phase)+":"+key(c.A.Model, c.A.Phase))
	}
	return strings.Join(items, ",")
}

func TestBadInput(t *testing.T) {
	tab := file(t, tabularReport)
	rec := file(t, receiptsReport)
	noImages := api.File{Name: "old.json", Text: `{"kind": "tabular", "fields": ["title"], "cells": [{"model": "m", "phase": "G"}]}`}
	noCommon := api.File{Name: "other.json", Text: strings.ReplaceAll(tab.Text, `"phase": "G"`, `"phase": "X"`)}
	noCommon.Text = strings.ReplaceAll(noCommon.Text, `"phase": "N"`, `"phase": "Y"`)
	summary := api.File{Name: "summary.json", Text: `{"kind": "tabular", "fields": [], "cells": [{"model": "m", "phase": "G"}],
		"images": [{"model": "m", "phase": "G", "page": "1", "status": "ok", "matched": 1, "n_model": 1, "n_gt": 1}]}`}
	spelled := api.File{Name: "spelled.json", Text: `{"kind": "tabular", "fields": [], "cells": [{"model": "m", "phase": "G"}],
		"images": [{"model": "m", "phase": "G", "page": "7", "status": "failed"}, {"model": "m", "phase": "G", "page": "07", "status": "failed"}]}`}
	for _, tc := range []struct {
		name  string
		req   CompareRequest
		param string // a *api.ParamError naming this option, or
		input string // an input error saying this
	}{
		{"kinds differ", CompareRequest{Base: tab, New: rec}, "", "compare two reports of one family"},
		{"no common cell", CompareRequest{Base: tab, New: noCommon}, "", "no cell in common"},
		{"no image rows", CompareRequest{Base: noImages, Within: true}, "", `old.json: no "images" member`},
		{"summary rows", CompareRequest{Base: summary, Within: true}, "", `no "name_cer_edits" member`},
		{"two spellings", CompareRequest{Base: spelled, Within: true}, "", `page "07" and page "7"`},
		{"not JSON", CompareRequest{Base: api.File{Name: "x.json", Text: "{\n\"kind\": tabular"}, Within: true}, "", "x.json:2:"},
		{"comparison report", CompareRequest{Base: api.File{Name: "c.json", Text: `{"kind": "comparison"}`}, Within: true}, "", "is a comparison report"},
		{"ci level", CompareRequest{Base: tab, Within: true, CILevel: floatp(1.5)}, "ci_level", ""},
		{"bootstrap", CompareRequest{Base: tab, Within: true, Bootstrap: ints(-1)}, "bootstrap", ""},
		{"permutations", CompareRequest{Base: tab, Within: true, Permutations: ints(2_000_000)}, "permutations", ""},
		{"alpha", CompareRequest{Base: tab, Within: true, Alpha: floatp(0)}, "alpha", ""},
		{"no new", CompareRequest{Base: tab}, "new", ""},
		{"pairs without within", CompareRequest{Base: tab, New: tab, Pairs: "a/G:b/G"}, "pairs", ""},
		{"pairs unknown", CompareRequest{Base: tab, Within: true, Pairs: "a/G:b/G"}, "pairs", ""},
		{"format", CompareRequest{Base: tab, Within: true, Format: "xml"}, "format", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CompareOperation().Run(api.NoCancel, &tc.req)
			if err == nil {
				t.Fatal("no error")
			}
			var pe *api.ParamError
			if tc.param != "" {
				if !errors.As(err, &pe) || pe.Param != tc.param {
					t.Fatalf("error %v (%T), want a ParamError on %s", err, err, tc.param)
				}
				return
			}
			if _, ok := inputerr.As(err); !ok || !strings.Contains(err.Error(), tc.input) {
				t.Fatalf("error %q (%T), want an input error saying %q", err, err, tc.input)
			}
		})
	}
}

func floatp(v float64) *float64 { return &v }

// FuzzCompareReports feeds report texts to a within comparison and a
// comparison of two reports: errors, never panics.
func FuzzCompareReports(f *testing.F) {
	for _, p := range []string{tabularReport, receiptsReport, "../../tabular/testdata/golden/sample_no_rules.json",
		"../../receipts/testdata/golden/receipts_incomplete.json"} {
		b := testkit.CompactReport(f, p)
		f.Add(b, b)
	}
	f.Add(`{"kind":"tabular","fields":[],"cells":[{"model":"m","phase":"G"}],"images":[{"model":"m","phase":"G","page":"1","status":"ok","matched":-1,"n_model":1,"n_gt":1,"name_cer_edits":0,"name_ref_chars":0,"fields":{}}]}`, `{"kind":"receipts"}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		fa, fb := api.File{Name: "a.json", Text: a}, api.File{Name: "b.json", Text: b}
		o := func(r *CompareRequest) *CompareRequest {
			r.Bootstrap, r.Permutations = ints(20), ints(20)
			return r
		}
		_, _ = CompareOperation().Run(api.NoCancel, o(&CompareRequest{Base: fa, Within: true}))
		_, _ = CompareOperation().Run(api.NoCancel, o(&CompareRequest{Base: fa, New: fb, Format: "md"}))
	})
}
