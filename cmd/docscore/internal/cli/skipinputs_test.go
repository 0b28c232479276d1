package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
)

// TestSkipBadInputs: the sample with gt_page_28.csv's quote never closed
// and a rule row of an unknown status exits 2 by default; with
// --skip-bad-inputs it scores pages 27 and 29 with the other rows, lists
// what it left out in the report and on standard error, and writes the
// bytes the API (the page's core) gives for the same files.
func TestSkipBadInputs(t *testing.T) {
	req, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range req.GT {
		data := string(f.Data)
		if strings.HasSuffix(f.Name, "gt_page_28.csv") {
			lines := strings.SplitAfter(data, "\n")
			lines[2] = `"Anton Müller,,February 10 1769` + "\n"
			data = strings.Join(lines, "")
		}
		files["gt/"+filepath.Base(f.Name)] = data
	}
	rulesText := strings.Replace(string(req.Rules.Data), "| name | conte / contessa / co. | leading | model | settled |", "| name | conte / contessa / co. | leading | model | maybe |", 1)
	if rulesText == string(req.Rules.Data) {
		t.Fatal("the sample's rule row to break is not there")
	}
	files["EQUIVALENCES.md"] = rulesText
	files["runs.jsonl"] = string(req.Runs.Data)
	dir := writeFiles(t, files)
	gtDir, runs, rules := filepath.Join(dir, "gt"), filepath.Join(dir, "runs.jsonl"), filepath.Join(dir, "EQUIVALENCES.md")

	code, _, stderr := run(t, "score", "tabular", "--gt", gtDir, "--runs", runs, "--rules", rules)
	if code != ExitInput {
		t.Fatalf("without --skip-bad-inputs: exit %d, want %d (stderr %q)", code, ExitInput, stderr)
	}
	code, stdout, stderr := run(t, "score", "tabular", "--gt", gtDir, "--runs", runs, "--rules", rules, "--skip-bad-inputs")
	if code != ExitOK {
		t.Fatalf("--skip-bad-inputs: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{`"left_out": [`, `gt_page_28.csv",` + "\n      \"line\": 3", `"what": "rule row"`, `"what": "runs line"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if !strings.Contains(stderr, "warning: "+filepath.Join(gtDir, "gt_page_28.csv")+":3:1: ground-truth file left out: ") ||
		!strings.Contains(stderr, "rule row left out: unknown status \"maybe\"") {
		t.Errorf("stderr does not list what was left out:\n%s", stderr)
	}
	if !strings.Contains(stdout, `"page": "27"`) || !strings.Contains(stdout, `"page": "29"`) || strings.Contains(stdout, `"page": "28"`) {
		t.Errorf("want pages 27 and 29 scored and 28 left out")
	}

	// The API, as the page's core calls it (files named by their base
	// names), gives the same bytes.
	areq := api.TabularRequest{Runs: api.File{Name: "runs.jsonl", Text: files["runs.jsonl"]}, SkipBadInputs: true,
		Rules: &api.File{Name: "EQUIVALENCES.md", Text: rulesText}}
	names, _ := filepath.Glob(filepath.Join(gtDir, "*.csv"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		areq.GT = append(areq.GT, api.File{Name: filepath.Base(n), Text: string(b)})
	}
	got, err := api.ScoreTabular(areq)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != stdout {
		t.Errorf("the API's bytes differ from the command line's")
	}
}
