package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
)

// comparisonMember returns the raw "comparison" member of a tabular
// report's preview, as the report's bytes hold it.
func comparisonMember(t *testing.T, report []byte) []byte {
	t.Helper()
	var rep struct {
		Preview *struct {
			Comparison json.RawMessage `json:"comparison"`
		} `json:"preview"`
	}
	if err := json.Unmarshal(report, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Preview == nil || rep.Preview.Comparison == nil {
		t.Fatal("the report's preview has no comparison")
	}
	return rep.Preview.Comparison
}

// TestPreviewComparisonIsComparePreview: the "comparison" member of score
// tabular --preview is, byte for byte (at its depth in the report), what
// compare --preview writes for the settled and the preview report, with
// the default options and with others, for every OPEN row of the sample
// alone and for all of them.
func TestPreviewComparisonIsComparePreview(t *testing.T) {
	dir := t.TempDir()
	for _, opts := range [][]string{
		nil,
		{"--bootstrap", "150", "--permutations", "300", "--seed", "9", "--ci-level", "0.9", "--alpha", "0.2"},
		{"--bootstrap", "0", "--permutations", "50"},
	} {
		settled := filepath.Join(dir, "settled.json")
		if code, _, stderr := run(t, append([]string{"score", "tabular", "--sample", "--out", settled}, opts...)...); code != ExitOK {
			t.Fatalf("settled: exit %d: %s", code, stderr)
		}
		for _, sel := range []string{"open", "32", "33", "51", "52"} {
			preview := filepath.Join(dir, "preview.json")
			if code, _, stderr := run(t, append([]string{"score", "tabular", "--sample", "--preview", sel, "--out", preview}, opts...)...); code != ExitOK {
				t.Fatalf("preview %s: exit %d: %s", sel, code, stderr)
			}
			code, want, stderr := run(t, append([]string{"compare", "--preview", settled, preview}, opts...)...)
			if code != ExitOK {
				t.Fatalf("compare --preview %s %v: exit %d: %s", sel, opts, code, stderr)
			}
			report, err := os.ReadFile(preview)
			if err != nil {
				t.Fatal(err)
			}
			// The member is the compare output, less its provenance (SPEC
			// F.8: the report's own comes at its end), indented two levels
			// deeper ("preview", then "comparison"), without its final
			// newline.
			if i := strings.Index(want, ",\n  \"provenance\": "); i >= 0 {
				want = want[:i] + "\n}\n"
			} else {
				t.Errorf("compare --preview %s: no provenance", sel)
			}
			indented := strings.ReplaceAll(strings.TrimSuffix(want, "\n"), "\n", "\n    ")
			if got := comparisonMember(t, report); string(got) != indented {
				t.Errorf("--preview %s %v: the report's comparison differs from compare --preview's:\n%.600s\nwant\n%.600s", sel, opts, got, indented)
			}
			if !strings.Contains(want, `"id": "settled:tabular/gpt-4o-2024-08-06/N"`) || !strings.Contains(want, `"id": "preview:tabular/gpt-4o-2024-08-06/N"`) {
				t.Errorf("--preview %s: ids not prefixed settled:/preview:", sel)
			}
		}
	}
}

// Comparing a settled report with itself as its preview: every delta 0,
// every p 1, every page the same.
func TestComparePreviewOfItself(t *testing.T) {
	code, out, stderr := run(t, "compare", "--preview", tabularGolden, tabularGolden, "--bootstrap", "100", "--permutations", "200", "--format", "csv")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 {
		t.Fatalf("csv %q", out)
	}
	head := strings.Split(lines[0], ",")
	col := func(name string) int {
		for i, h := range head {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s in %v", name, head)
		return -1
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[col("delta")] != "0" || f[col("p")] != "1" || f[col("p_holm")] != "1" || f[col("significant")] != "false" ||
			f[col("rose")] != "0" || f[col("fell")] != "0" || !strings.HasPrefix(f[col("a_id")], "settled:") || !strings.HasPrefix(f[col("b_id")], "preview:") {
			t.Errorf("row %s", l)
		}
	}
}

func TestComparePreviewBadInput(t *testing.T) {
	rep := testkit.ReadJSONObject(t, tabularGolden)
	// A copy of the report whose images keep only those keep says.
	with := func(cells []any, keep func(im map[string]any) bool) map[string]any {
		out := map[string]any{}
		for k, v := range rep {
			out[k] = v
		}
		out["cells"] = cells
		var images []any
		for _, im := range rep["images"].([]any) {
			if keep(im.(map[string]any)) {
				images = append(images, im)
			}
		}
		out["images"] = images
		return out
	}
	cells := rep["cells"].([]any)
	first := cells[0].(map[string]any)
	inFirst := func(im map[string]any) bool { return im["model"] == first["model"] && im["phase"] == first["phase"] }
	// One cell fewer; the first cell without page 29.
	fewer := with(cells[1:], func(im map[string]any) bool { return !inFirst(im) })
	lessPages := with(cells, func(im map[string]any) bool { return !inFirst(im) || im["page"] != "29" })
	write := func(name string, v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fewerPath, pagesPath := write("fewer.json", fewer), write("pages.json", lessPages)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"receipts", []string{"--preview", receiptsGolden, receiptsGolden}, "a preview compares two tabular reports"},
		{"receipts preview", []string{"--preview", tabularGolden, receiptsGolden}, "compare two reports of one family"},
		{"cells differ", []string{"--preview", tabularGolden, fewerPath}, "a preview scores the same cells twice"},
		{"pages differ", []string{"--preview", tabularGolden, pagesPath}, "a preview scores the same images twice"},
		{"one report", []string{"--preview", tabularGolden}, "compare --preview takes two tabular reports"},
		{"within too", []string{"--preview", "--within", tabularGolden}, "--within and --preview"},
		{"alpha", []string{"--preview", tabularGolden, tabularGolden, "--alpha", "1.5"}, "--alpha 1.5: expected"},
		{"permutations", []string{"--preview", tabularGolden, tabularGolden, "--permutations", "-1"}, "--permutations -1: expected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"compare"}, tc.args...)...)
			if code != ExitInput || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stdout %d bytes, stderr %q; want exit 2 saying %q", code, len(stdout), stderr, tc.want)
			}
		})
	}
}

// score tabular's --permutations and --alpha are checked as every host
// checks them: exit 2 naming the flag.
func TestScoreTabularComparisonFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--permutations", "-1"}, "--permutations -1: expected a whole number of randomization rounds from 0 to 1000000"},
		{[]string{"--permutations", "1000001"}, "--permutations 1000001: expected"},
		{[]string{"--alpha", "1.5"}, "--alpha 1.5: expected a significance level strictly between 0 and 1"},
		{[]string{"--alpha", "0"}, "--alpha 0: expected"},
	} {
		code, stdout, stderr := run(t, append([]string{"score", "tabular", "--sample", "--preview", "open"}, tc.args...)...)
		if code != ExitInput || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit 2 saying %q", tc.args, code, len(stdout), stderr, tc.want)
		}
	}
	// The Markdown shows what the JSON holds.
	code, md, stderr := run(t, "score", "tabular", "--sample", "--preview", "open", "--format", "md", "--bootstrap", "200", "--permutations", "300")
	if code != ExitOK || !strings.Contains(md, "| 0.9663 → 0.9775 (+0.0112 [") ||
		!strings.Contains(md, "(300 rounds) Holm-adjusted over the 4 cells") ||
		!strings.Contains(md, "- gpt-4o-2024-08-06 / N: F1 rose on 2 pages, fell on 0, same on 1 (rose: 28, 27)\n") {
		t.Errorf("exit %d (%s), Markdown:\n%s", code, stderr, md)
	}
}
