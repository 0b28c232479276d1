package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// receiptsSample is the repository's copy of the receipt sample.
const receiptsSample = "../../../../sample/receipts"

func sampleFile(name string) string { return filepath.Join(receiptsSample, name) }

func TestScoreReceiptsSample(t *testing.T) {
	code, stdout, stderr := runEnv(t, "", nil, "score", "receipts", "--refs", sampleFile("refs"), "--run", sampleFile("run.jsonl"))
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var rep struct {
		Complete bool `json:"complete"`
		Phases   []struct {
			Phase         string   `json:"phase"`
			RougeLF1Mean  *float64 `json:"rouge_l_f1_mean"`
			NumericRecall *float64 `json:"numeric_recall"`
		} `json:"phases"`
		Pages []json.RawMessage `json:"pages"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	// SPEC's expected numbers for the sample (testdata/expected/receipts.json of scoring/receipts).
	if !rep.Complete || len(rep.Pages) != 48 || len(rep.Phases) != 2 ||
		math.Abs(*rep.Phases[0].RougeLF1Mean-0.5880441191144785) > 1e-9 ||
		math.Abs(*rep.Phases[1].NumericRecall-0.6450304259634888) > 1e-9 {
		t.Errorf("report = %+v", rep)
	}
	// The JSONL references give the same report.
	_, fromJSONL, _ := runEnv(t, "", nil, "score", "receipts", "--refs", sampleFile("refs.jsonl"), "--run", sampleFile("run.jsonl"))
	// (but for the inputs their provenance names).
	if withoutProvenance(t, fromJSONL) != withoutProvenance(t, stdout) {
		t.Error("refs.jsonl and refs/ give different reports")
	}
}

func TestScoreReceiptsRefusesIncomplete(t *testing.T) {
	code, stdout, stderr := runEnv(t, "", nil, "score", "receipts", "--refs", sampleFile("refs"), "--run", sampleFile("run_incomplete.jsonl"))
	if code != ExitInput || stdout != "" {
		t.Fatalf("exit %d (want %d), stdout %q", code, ExitInput, stdout)
	}
	for _, want := range []string{"run_incomplete.jsonl", `"pilot-100" is incomplete`, "missing:    c4/cord-test-0007", "duplicated: c1/cord-test-0005 recorded 2 times (lines 31, 32)", "--allow-incomplete"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("refusal %q does not contain %q", stderr, want)
		}
	}
	code, stdout, stderr = runEnv(t, "", nil, "score", "receipts", "--refs", sampleFile("refs"), "--run", sampleFile("run_incomplete.jsonl"), "--allow-incomplete", "--format", "md")
	if code != ExitOK || !strings.Contains(stdout, "**INCOMPLETE (scored with --allow-incomplete):**") || !strings.Contains(stdout, "missing: c4/cord-test-0007") {
		t.Errorf("exit %d, markdown:\n%s", code, stdout)
	}
	if !strings.Contains(stderr, "labelled incomplete") {
		t.Errorf("stderr %q: want a warning that the report is incomplete", stderr)
	}
}

func TestScoreReceiptsFormatsAndOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.csv")
	code, stdout, stderr := runEnv(t, "", nil, "score", "receipts", "--refs", sampleFile("refs"), "--run", sampleFile("run.jsonl"), "--format", "csv", "--out", out)
	if code != ExitOK || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 49 || !strings.HasPrefix(lines[0], "phase,sample_id,line,status") {
		t.Errorf("csv has %d lines, header %q", len(lines), lines[0])
	}
	// Standard input for the run.
	run, _ := os.ReadFile(sampleFile("run.jsonl"))
	code, stdout, _ = runEnv(t, string(run), nil, "score", "receipts", "--refs", sampleFile("refs"), "--run", "-", "--format", "md")
	if code != ExitOK || !strings.HasPrefix(stdout, "# Receipt OCR scores: run pilot-100") {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
}

func TestScoreReceiptsFailUnder(t *testing.T) {
	base := []string{"score", "receipts", "--refs", sampleFile("refs"), "--run", sampleFile("run.jsonl"), "--format", "md"}
	tests := []struct {
		flag     string
		code     int
		contains string
	}{
		{"rougeL=0.5,numeric=0.7", ExitOK, ""},
		{"rougeL=0.6", ExitThreshold, "c1 rougeL = 0.5880 < 0.6"},
		{"numeric=0.8,rougeL=0.5", ExitThreshold, "c1 numeric = 0.7120 < 0.8"},
		{"f1=0.5", ExitInput, `unknown metric "f1"`},
		{"rougeL=2", ExitInput, "between 0 and 1"},
	}
	for _, tc := range tests {
		code, stdout, stderr := runEnv(t, "", nil, append(base, "--fail-under", tc.flag)...)
		if code != tc.code || !strings.Contains(stderr, tc.contains) {
			t.Errorf("--fail-under %s: exit %d, stderr %q; want exit %d containing %q", tc.flag, code, stderr, tc.code, tc.contains)
		}
		if tc.code == ExitThreshold && !strings.Contains(stdout, "# Receipt OCR scores") {
			t.Errorf("--fail-under %s: the report must still be written", tc.flag)
		}
	}
}

func TestScoreReceiptsBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run, _ := os.ReadFile(sampleFile("run.jsonl"))
	lines := strings.Split(string(run), "\n")
	badLine := append(append([]string{}, lines[:30]...), `{"type": "request", "phase": "c1", "sample_id": "cord-test-0005", "status": "ok",}`)
	badLine = append(badLine, lines[31:]...)
	badRun := write("bad.jsonl", strings.Join(badLine, "\n"))
	unknown := write("unknown.jsonl", strings.Replace(string(run), `"phase": "c4", "sample_id": "cord-test-0009"`, `"phase": "c4", "sample_id": "cord-test-9999"`, 1))
	truncated := write("test-00000-of-00001.parquet", "PAR1\x00\x00\x00")
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"malformed run line", []string{"--refs", sampleFile("refs"), "--run", badRun}, ExitInput, "bad.jsonl:31:82: invalid JSON"},
		{"unknown sample id", []string{"--refs", sampleFile("refs"), "--run", unknown}, ExitInput, `unknown.jsonl:60: no reference for sample_id "cord-test-9999"`},
		{"truncated parquet", []string{"--refs", truncated, "--run", sampleFile("run.jsonl")}, ExitInput, "test-00000-of-00001.parquet: not a readable parquet file"},
		{"missing run file", []string{"--refs", sampleFile("refs"), "--run", filepath.Join(dir, "nope.jsonl")}, ExitInput, "nope.jsonl"},
		{"missing refs", []string{"--refs", filepath.Join(dir, "nope"), "--run", sampleFile("run.jsonl")}, ExitInput, "cannot read the references"},
		{"reading order over JSONL", []string{"--refs", sampleFile("refs.jsonl"), "--run", sampleFile("run.jsonl"), "--reading-order"}, ExitInput, "reading order needs CORD annotations"},
		{"bad format", []string{"--refs", sampleFile("refs"), "--run", sampleFile("run.jsonl"), "--format", "xml"}, ExitInput, `--format "xml"`},
		{"no --run", []string{"--refs", sampleFile("refs")}, ExitInput, `required flag(s) "run" not set`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runEnv(t, "", nil, append([]string{"score", "receipts"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.contains) {
				t.Errorf("exit %d, stderr %q; want exit %d containing %q", code, stderr, tc.code, tc.contains)
			}
		})
	}
	// --skip-bad-lines reports the line, then the missing pair refuses the run.
	code, _, stderr := runEnv(t, "", nil, "score", "receipts", "--refs", sampleFile("refs"), "--run", badRun, "--skip-bad-lines")
	if code != ExitInput || !strings.Contains(stderr, "warning: skipped "+badRun+":31:82") || !strings.Contains(stderr, "missing:    c1/cord-test-0005") {
		t.Errorf("--skip-bad-lines: exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := runEnv(t, "", nil, "score", "receipts", "--refs", sampleFile("refs"), "--run", badRun, "--skip-bad-lines", "--allow-incomplete")
	if code != ExitOK || !strings.Contains(stdout, `"skipped_lines": [`) {
		t.Errorf("--skip-bad-lines --allow-incomplete: exit %d", code)
	}
}

func TestScoreReceiptsReadingOrder(t *testing.T) {
	_, annotation, _ := runEnv(t, "", nil, "score", "receipts", "--refs", sampleFile("refs"), "--run", sampleFile("run.jsonl"))
	code, reading, stderr := runEnv(t, "", nil, "score", "receipts", "--refs", sampleFile("refs"), "--run", sampleFile("run.jsonl"), "--reading-order")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(reading, `"reference_order": "reading_order"`) || reading == annotation {
		t.Error("--reading-order: the report must name the protocol and differ from annotation order")
	}
}
