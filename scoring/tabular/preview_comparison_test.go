package tabular_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
)

// TestPreviewComparisonMatchesReference holds the sample's preview
// comparison, made from the scorer's in-memory page contributions, to the
// independent Python reference (scripts/stats_vectors.py), which computed
// it from the image rows of the settled and the preview report: every
// number within 1e-9, every id, list and null exactly.
func TestPreviewComparisonMatchesReference(t *testing.T) {
	data, err := os.ReadFile("../stats/testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Name     string
			Expected struct{ Report json.RawMessage }
		}
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, c := range file.Cases {
		sel, ok := strings.CutPrefix(c.Name, "preview: the sample, --preview ")
		if !ok {
			continue
		}
		found++
		rep := sampleReport(t, true, sel)
		got, err := rep.Preview.Comparison.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(c.Expected.Report, &w); err != nil {
			t.Fatal(err)
		}
		if msg := near("comparison", g, w); msg != "" {
			t.Errorf("--preview %s: %s", sel, msg)
		}
	}
	if found != 2 {
		t.Fatalf("%d sample preview cases in the vectors, want 2 (open, 52)", found)
	}
}

// near compares two decoded JSON values, numbers within 1e-9.
func near(at string, got, want any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: got %v, want %v", at, got, want)
		}
		for k := range w {
			if m := near(at+"."+k, g[k], w[k]); m != "" {
				return m
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: got %v, want %v", at, got, want)
		}
		for i := range w {
			if m := near(at+"["+strconv.Itoa(i)+"]", g[i], w[i]); m != "" {
				return m
			}
		}
	case float64:
		if g, ok := got.(float64); !ok || math.Abs(g-w) > 1e-9 {
			return fmt.Sprintf("%s: got %v, want %v", at, got, want)
		}
	default:
		if got != want {
			return fmt.Sprintf("%s: got %v, want %v", at, got, want)
		}
	}
	return ""
}

// An OPEN row that changes no score: previewing it changes nothing, and
// the comparison says so: every delta 0, every p and Holm p 1, nothing
// significant, every page the same.
func TestPreviewOfAnInertRowChangesNothing(t *testing.T) {
	req, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	const anchor = "| title | cap. / capitano | capitano | settled | model outputs |\n"
	text := string(req.Rules.Data)
	if !strings.Contains(text, anchor) {
		t.Fatal("the sample's rule file lost the row this test inserts after")
	}
	text = strings.Replace(text, anchor, anchor+"| title | qqzx / qqzy | qqzx | OPEN | inert: no reading has it |\n", 1)
	line := 1 + strings.Count(text[:strings.Index(text, "| title | qqzx")], "\n")
	req.Rules = &tabular.File{Name: req.Rules.Name, Data: []byte(text)}
	req.Preview = strconv.Itoa(line)
	req.Intervals = tabular.Intervals{Bootstrap: 300, Permutations: 400, Seed: 5}
	rep, err := tabular.ScoreRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Preview.Rows) != 1 || rep.Preview.Rows[0].Line != line {
		t.Fatalf("previewed rows %+v, want line %d", rep.Preview.Rows, line)
	}
	cmp := rep.Preview.Comparison
	if cmp == nil || len(cmp.Comparisons) != len(rep.Cells) {
		t.Fatalf("comparison %+v for %d cells", cmp, len(rep.Cells))
	}
	for _, c := range cmp.Comparisons {
		for i := range c.Stats {
			s := &c.Stats[i]
			if s.Delta == nil || *s.Delta != 0 || s.P == nil || *s.P != 1 || s.PHolm == nil || *s.PHolm != 1 ||
				s.Significant || s.Better != nil || s.CI == nil || s.CI[0] != 0 || s.CI[1] != 0 {
				t.Errorf("%s %s: %+v, want delta 0 [0, 0], p 1, not significant", c.A.ID, s.Path(), s)
			}
		}
		if len(c.Movement.Rose) != 0 || len(c.Movement.Fell) != 0 || c.Movement.Same != c.UnitsPaired {
			t.Errorf("%s: movement %+v of %d pages", c.A.ID, c.Movement, c.UnitsPaired)
		}
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "p=") || !strings.Contains(md.String(), "F1 rose on 0 pages, fell on 0, same on 3\n") {
		t.Errorf("Markdown shows a change, or no movement line:\n%s", md.String())
	}
}

// With neither intervals nor p-values the preview has no comparison, and
// its Markdown table is the plain deltas; p-values alone give one.
func TestPreviewComparisonOff(t *testing.T) {
	req, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	req.Preview = "open"
	rep, err := tabular.ScoreRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	js, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Preview.Comparison != nil || bytes.Contains(js, []byte(`"comparison"`)) ||
		strings.Contains(md.String(), "p=") || strings.Contains(md.String(), "F1 per page, settled") ||
		!strings.Contains(md.String(), "0.9663 → 0.9775 (+0.0112) |") {
		t.Fatalf("bootstrap 0, permutations 0: a comparison is shown:\n%s", md.String())
	}
	req.Intervals = tabular.Intervals{Permutations: 200}
	if rep, err = tabular.ScoreRequest(req); err != nil {
		t.Fatal(err)
	}
	md.Reset()
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	c := rep.Preview.Comparison
	if c == nil || c.Replicates != 0 || c.Permutations != 200 || c.Alpha != stats.DefaultAlpha || c.Comparisons[0].Stats[0].CI != nil ||
		!strings.Contains(md.String(), "0.9663 → 0.9775 (+0.0112, p=") {
		t.Fatalf("permutations alone: comparison %+v\n%s", c, md.String())
	}
}

// Options out of range are input errors naming the option.
func TestPreviewComparisonBadOptions(t *testing.T) {
	req, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	req.Preview = "open"
	for _, c := range []struct {
		iv   tabular.Intervals
		want string
	}{
		{tabular.Intervals{Permutations: -1}, "permutations -1: expected"},
		{tabular.Intervals{Permutations: stats.MaxDraws + 1}, "permutations 1000001: expected"},
		{tabular.Intervals{Alpha: 1.5}, "alpha 1.5: expected"},
		{tabular.Intervals{Alpha: math.NaN()}, "alpha NaN: expected"},
	} {
		req.Intervals = c.iv
		if _, err := tabular.ScoreRequest(req); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.iv, err, c.want)
		}
	}
}
