package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tablesSample is the repository's copy of the tables sample.
const tablesSample = "../../../../sample/tables"

func TestScoreTablesSample(t *testing.T) {
	gt := filepath.Join(tablesSample, "gt.html")
	code, stdout, stderr := runEnv(t, "", nil, "score", "tables", "--gt", gt, "--pred", filepath.Join(tablesSample, "model-a.html"),
		"--model", "model-a", "--phase", "c1", "--format", "csv")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// PubTabNet's printed TEDS of its own sample predictions, worst first.
	for i, want := range []string{"model-a,c1,,#2,ok,0.8070175438596492,", "model-a,c1,,#1,ok,0.9298260149130074,", "model-a,c1,,#3,ok,0.9978213507625272,"} {
		if line := strings.Split(stdout, "\n")[i+1]; !strings.HasPrefix(line, want) {
			t.Errorf("row %d = %q, want prefix %q", i+1, line, want)
		}
	}
	// The runs file gives the same rows for model-a.
	_, fromRuns, _ := runEnv(t, "", nil, "score", "tables", "--gt", gt, "--runs", filepath.Join(tablesSample, "runs.jsonl"), "--format", "csv")
	if !strings.Contains(fromRuns, "model-a,c1,1,#2,ok,0.8070175438596492,") {
		t.Errorf("runs report:\n%s", fromRuns)
	}
}

func TestScoreTablesFolders(t *testing.T) {
	gt, pred := t.TempDir(), t.TempDir()
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(gt, "0001.gt.md", "| a | b |\n|---|---|\n| 1 | 2 |\n")
	write(gt, "0002.gt.csv", "x,y\n3,4\n")
	write(pred, "0001.model.html", "<table><thead><tr><td>a</td><td>b</td></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>")
	write(pred, "0003.model.html", "<table><tr><td>z</td></tr></table>")
	code, stdout, stderr := runEnv(t, "", nil, "score", "tables", "--gt", gt, "--pred", pred, "--format", "csv", "--bootstrap", "0")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, ",,,0002#1,missing,0,") || !strings.Contains(stdout, ",,,0001#1,ok,1,1,1,1,") {
		t.Errorf("report:\n%s", stdout)
	}
	if !strings.Contains(stderr, "predicted table 0003#1") {
		t.Errorf("no warning for the unmatched prediction: %q", stderr)
	}
}

func TestScoreTablesNeedsOnePredictionSource(t *testing.T) {
	code, _, stderr := runEnv(t, "", nil, "score", "tables", "--gt", filepath.Join(tablesSample, "gt.html"))
	if code != ExitInput || !strings.Contains(stderr, "--pred") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
