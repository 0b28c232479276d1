package tabular_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// sampleReport scores the bundled sample with the hosts' default
// intervals.
func sampleReport(t testing.TB, withRules bool, preview string) *tabularreport.Report {
	t.Helper()
	return sampleCase{withRules: withRules, preview: preview}.report(t)
}

// report scores the bundled sample as the case says: with the hosts'
// default intervals unless noIntervals.
func (c sampleCase) report(t testing.TB) *tabularreport.Report {
	t.Helper()
	req, err := sample.TabularRequest(c.withRules)
	if err != nil {
		t.Fatal(err)
	}
	req.Preview = c.preview
	if !c.noIntervals {
		req.Intervals = tabular.Intervals{Bootstrap: stats.DefaultReplicates, Permutations: stats.DefaultPermutations} // the hosts' default
	}
	rep, err := tabular.ScoreRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func render(t testing.TB, rep *tabularreport.Report, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "json":
		err = rep.WriteJSON(&buf)
	case "csv":
		err = rep.WriteCSV(&buf)
	case "md":
		err = rep.WriteMarkdown(&buf)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type sampleCase struct {
	name      string
	withRules bool
	preview   string
	expected  string // the independent implementation's report
	// noIntervals scores as --bootstrap 0 does: its golden files are the
	// bytes of the reports from before intervals, unchanged.
	noIntervals bool
}

var sampleCases = []sampleCase{
	{"sample", true, "", "tabular.json", false},
	{"sample_preview_open", true, "open", "tabular_preview_open.json", false},
	{"sample_no_rules", false, "", "tabular_no_rules.json", false},
	{"sample_bootstrap0", true, "", "tabular.json", true},
}

// TestSampleGolden compares every format of the sample reports with the
// reviewed golden files; go test -update rewrites them.
func TestSampleGolden(t *testing.T) {
	for _, c := range sampleCases {
		rep := c.report(t)
		for _, format := range []string{"json", "csv", "md"} {
			got := render(t, rep, format)
			if format == "json" {
				got = c.stamp(t, got)
			}
			path := filepath.Join("testdata", "golden", c.name+"."+format)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file; diff it with go test -update and git diff", path)
			}
		}
	}
}

// stamp adds the provenance (SPEC F.8) every host's JSON report ends in,
// for the request "docscore score tabular --sample" makes of the case:
// the golden JSON files are the command line's reports, byte for byte.
func (c sampleCase) stamp(t testing.TB, report []byte) []byte {
	t.Helper()
	files, err := sample.TabularRequest(c.withRules)
	if err != nil {
		t.Fatal(err)
	}
	file := func(f tabular.File) api.File { return api.File{Name: f.Name, Text: string(f.Data)} }
	req := &api.TabularRequest{Runs: file(files.Runs), Preview: c.preview}
	for _, f := range files.GT {
		req.GT = append(req.GT, file(f))
	}
	if files.Rules != nil {
		r := file(*files.Rules)
		req.Rules = &r
	}
	if c.noIntervals {
		zero := 0
		req.Bootstrap = &zero
	}
	p, err := api.ScoreTabularOperation().ProvenanceOf(req)
	if err != nil {
		t.Fatal(err)
	}
	out, err := provenance.Append(report, p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNoStrayGoldenFiles fails on a golden file no case produces.
func TestNoStrayGoldenFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	known := map[string]bool{}
	for _, c := range sampleCases {
		for _, f := range []string{"json", "csv", "md"} {
			known[filepath.Join("testdata", "golden", c.name+"."+f)] = true
		}
	}
	for _, f := range files {
		if !known[f] {
			t.Errorf("golden file %s has no test", f)
		}
	}
	if len(files) != len(known) {
		t.Errorf("found %d golden files, want %d", len(files), len(known))
	}
}

// TestDeterministic scores the same input twice and expects the same bytes
// in every format.
func TestDeterministic(t *testing.T) {
	for _, c := range sampleCases {
		for _, format := range []string{"json", "csv", "md"} {
			a := render(t, c.report(t), format)
			b := render(t, c.report(t), format)
			if !bytes.Equal(a, b) {
				t.Errorf("%s %s: two runs differ", c.name, format)
			}
		}
	}
}

// TestAgreesWithExpected compares every number of the sample reports with
// those an independent implementation computed (testdata/expected), to
// 1e-9. Key names may differ; where they do, the mapping is explicit.
func TestAgreesWithExpected(t *testing.T) {
	for _, c := range sampleCases {
		t.Run(c.name, func(t *testing.T) {
			var got, want map[string]any
			if err := json.Unmarshal(render(t, c.report(t), "json"), &got); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join("testdata", "expected", c.expected))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			// Warnings name the rule file by the path each implementation
			// was given; compare what follows the path.
			ww, _ := want["warnings"].([]any)
			gw, _ := got["warnings"].([]any)
			if len(ww) != len(gw) {
				t.Fatalf("warnings %v, want %v", gw, ww)
			}
			for i := range ww {
				w := ww[i].(string)
				if !strings.HasSuffix(gw[i].(string), w[strings.Index(w, ":"):]) {
					t.Errorf("warning %q, want %q", gw[i], w)
				}
			}
			delete(want, "warnings")
			// The preview diff is "preview_diff" there, "preview.cells" here.
			if pd, ok := want["preview_diff"]; ok {
				compare(t, "preview.cells", got["preview"].(map[string]any)["cells"], pd)
				delete(want, "preview_diff")
			}
			compare(t, "", got, want)
		})
	}
}

// compare checks that every value of want is in got: numbers to 1e-9,
// everything else exactly.
func compare(t *testing.T, path string, got, want any) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			t.Errorf("%s: got %T, want an object", path, got)
			return
		}
		for k, v := range w {
			gv, ok := g[k]
			if !ok {
				t.Errorf("%s.%s: missing", path, k)
				continue
			}
			compare(t, path+"."+k, gv, v)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			t.Errorf("%s: got %v, want %d elements", path, got, len(w))
			return
		}
		for i := range w {
			compare(t, fmt.Sprintf("%s[%d]", path, i), g[i], w[i])
		}
	case float64:
		g, ok := got.(float64)
		if !ok || math.Abs(g-w) > 1e-9 {
			t.Errorf("%s = %v, want %v", path, got, w)
		}
	default:
		if got != want {
			t.Errorf("%s = %v, want %v", path, got, want)
		}
	}
}
