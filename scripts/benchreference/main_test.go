package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// writeRequest writes a request's files into a folder as the command
// line reads them.
func writeRequest(t *testing.T, req tabular.Request) (gt, runs, rules string) {
	t.Helper()
	dir := t.TempDir()
	gt = filepath.Join(dir, "gt")
	os.MkdirAll(gt, 0o755)
	for _, f := range req.GT {
		os.WriteFile(filepath.Join(gt, filepath.Base(f.Name)), f.Data, 0o644)
	}
	runs = filepath.Join(dir, "runs.jsonl")
	os.WriteFile(runs, req.Runs.Data, 0o644)
	if req.Rules != nil {
		rules = filepath.Join(dir, "EQUIVALENCES.md")
		os.WriteFile(rules, req.Rules.Data, 0o644)
	}
	return gt, runs, rules
}

// TestReferenceGivesDocscoresNumbers: the Python reference scorer and
// docscore's core give the same cells on the bundled sample (its rule
// file, raw responses, failed runs) and on a generated corpus (every
// fifth image a raw response, as gencorpus writes it).
func TestReferenceGivesDocscoresNumbers(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("the reference scorer needs python3: install it (apt-get install python3)")
	}
	s, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	c := tabulartest.New(tabulartest.Spec{Models: 2, Runs: 2, Pages: 2, Travelers: 25, Phases: []string{"G", "N"}, Seed: 7})
	var runs bytes.Buffer
	if _, err := c.WriteRuns(&runs, tabulartest.RunsOptions{Responses: true}); err != nil {
		t.Fatal(err)
	}
	gen := tabular.Request{GT: c.GT, Runs: tabular.File{Name: "runs.jsonl", Data: runs.Bytes()}, Rules: s.Rules}
	for name, req := range map[string]tabular.Request{"sample": s, "generated": gen} {
		t.Run(name, func(t *testing.T) {
			gt, runsPath, rules := writeRequest(t, req)
			args := []string{"../reference/venice_eval.py", "--gt", gt, "--runs", runsPath}
			if rules != "" {
				args = append(args, "--rules", rules)
			}
			ref, err := exec.Command(py, args...).Output()
			if err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			rep, err := tabular.ScoreRequest(req)
			if err != nil {
				t.Fatal(err)
			}
			js, err := rep.JSON()
			if err != nil {
				t.Fatal(err)
			}
			if err := SameCells(ref, js, 1e-9); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestSameCellsFindsDifferences: a count or a score off is reported.
func TestSameCellsFindsDifferences(t *testing.T) {
	a := `{"cells":[{"model":"m","phase":"G","images_ok":1,"matched":3,"n_model":4,"n_gt":3,"precision":0.75,"recall":1,"f1":0.857,"fields":{"title":{"scored":3,"sum":2.5}}}]}`
	if err := SameCells([]byte(a), []byte(a), 1e-9); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"matched":3`, `"matched":2`, "matched"},
		{`"f1":0.857`, `"f1":0.858`, "f1"},
		{`"sum":2.5`, `"sum":2.4`, "title"},
		{`"phase":"G"`, `"phase":"N"`, "m/G"},
	} {
		b := strings.Replace(a, c.from, c.to, 1)
		if err := SameCells([]byte(a), []byte(b), 1e-9); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: %v", c.from, c.to, err)
		}
	}
	if err := SameCells([]byte(`{"cells":[]}`), []byte(a), 1e-9); err == nil {
		t.Error("no cells: no error")
	}
}

// TestSummaryNamesCells: the Markdown report must have a row for every
// cell of the JSON report.
func TestSummaryNamesCells(t *testing.T) {
	js := `{"cells":[{"model":"m","phase":"G"},{"model":"m","phase":"N"}]}`
	md := "| model | phase |\n|---|---|\n| m | G | 0.9 |\n| m | N | 0.8 |\n"
	for _, c := range []struct {
		name, md, js, want string
	}{
		{"every cell", md, js, ""},
		{"a cell missing", strings.Replace(md, "| m | N |", "| m | X |", 1), js, `phase "N"`},
		{"no cells", md, `{"cells":[]}`, "no cells"},
		{"not JSON", md, `{`, "unexpected end"},
	} {
		err := SummaryNamesCells([]byte(c.md), []byte(c.js))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}
