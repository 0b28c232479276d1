package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/runfile"
)

// fakeReceipts writes a dataset directory of small "images" with
// plain-text references and returns it.
func fakeReceipts(t *testing.T, names ...string) string {
	t.Helper()
	files := map[string]string{}
	for _, n := range names {
		files[n+".png"] = "\x89PNG\r\n\x1a\n" + n
		files[n+".reference.txt"] = "TOTAL " + n
	}
	return writeFiles(t, files)
}

func readPilotRun(t *testing.T, path string) *runfile.Run {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	run, err := runfile.Read(bytes.NewReader(data), path, runfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func TestPilotRunCommandEngine(t *testing.T) {
	dir := fakeReceipts(t, "r1", "r2", "r3")
	out := filepath.Join(t.TempDir(), "run.jsonl")
	args := []string{"pilot", "run", "--dataset", dir, "--command", "echo TOTAL {sample_id} # {image}", "--concurrency", "1,2", "--deadline", "30s", "--out", out}
	code, stdout, stderr := run(t, args...)
	if code != ExitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"pilot: phase warmup: 3 requests at concurrency 1", "pilot: c2 3/3", "pilot: run pilot-", " complete: 9 request record(s) written to "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	r := readPilotRun(t, out)
	if len(r.Requests) != 9 || r.End.Status != runfile.EndComplete || strings.Join(r.Header.Planned.Phases, ",") != "c1,c2" {
		t.Fatalf("run: %d requests, end %+v, phases %v", len(r.Requests), r.End, r.Header.Planned.Phases)
	}
	for _, q := range r.Requests {
		if q.Status != runfile.StatusOK || q.OutputString() != "TOTAL "+q.SampleID+"\n" {
			t.Errorf("%s/%s: %s %q", q.Phase, q.SampleID, q.Status, q.OutputString())
		}
	}
	// A rerun finds the run complete and leaves the file alone.
	before, _ := os.ReadFile(out)
	code, _, stderr = run(t, args...)
	after, _ := os.ReadFile(out)
	if code != ExitOK || !strings.Contains(stderr, "already holds the complete run") || !bytes.Equal(before, after) {
		t.Errorf("rerun: exit %d, file changed %v, stderr:\n%s", code, !bytes.Equal(before, after), stderr)
	}
	// Other settings on the same file are refused: exit 2, file untouched.
	other := append(append([]string{}, args...), "--deadline", "31s")
	code, _, stderr = run(t, other...)
	after, _ = os.ReadFile(out)
	if code != ExitInput || !strings.Contains(stderr, "cannot resume: this run file was made with other settings:\n  deadline: file 30s, now 31s") || !bytes.Equal(before, after) {
		t.Errorf("other settings: exit %d, stderr:\n%s", code, stderr)
	}
	// The report takes the references from the header.
	code, stdout, stderr = run(t, "pilot", "report", out, "--format", "md")
	if code != ExitOK || !strings.Contains(stdout, "References from run header") || !strings.Contains(stdout, "| c2 | 2 | 3 | 3 |") ||
		!strings.Contains(stdout, "| c1 (primary) | 3 | 1.0000 |") {
		t.Errorf("report: exit %d, stderr %s\n%s", code, stderr, stdout)
	}
	// Quiet: nothing but the closing line.
	out2 := filepath.Join(t.TempDir(), "quiet.jsonl")
	code, _, stderr = run(t, "pilot", "run", "--dataset", dir, "--command", "echo x {image}", "--out", out2, "--quiet")
	if code != ExitOK || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "complete") {
		t.Errorf("quiet: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestPilotRunConfigAndFlags(t *testing.T) {
	dir := fakeReceipts(t, "r1", "r2")
	cfgDir := writeFiles(t, map[string]string{
		"pilot.toml": `out = "from-config.jsonl"
command = "echo config # {image}"
concurrency = [1]
deadline = "5s"
[dataset]
path = "` + dir + `"
name = "fake-receipts"
revision = "abc123"
limit = 1
`})
	cfg := filepath.Join(cfgDir, "pilot.toml")
	// The configuration alone.
	code, _, stderr := run(t, "pilot", "run", "--config", cfg, "--quiet")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := readPilotRun(t, filepath.Join(cfgDir, "from-config.jsonl"))
	if strings.Join(r.Header.Planned.Phases, ",") != "c1" || len(r.Header.Planned.SampleIDs) != 1 || r.Header.DeadlineS != 5 ||
		r.Header.Dataset.Name != "fake-receipts" || r.Header.Dataset.Revision != "abc123" || r.Requests[0].OutputString() != "config\n" {
		t.Errorf("from the config: %+v, %+v", r.Header, r.Requests[0])
	}
	// Flags win.
	out := filepath.Join(t.TempDir(), "flags.jsonl")
	code, _, stderr = run(t, "pilot", "run", "--config", cfg, "--out", out, "--concurrency", "3", "--limit", "2", "--command", "echo flag {image}", "--deadline", "7", "--quiet")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r = readPilotRun(t, out)
	if strings.Join(r.Header.Planned.Phases, ",") != "c3" || len(r.Header.Planned.SampleIDs) != 2 || r.Header.DeadlineS != 7 ||
		r.Header.Engine.Command != "echo flag {image}" || r.Header.Dataset.Revision != "abc123" {
		t.Errorf("flags did not win: %+v", r.Header)
	}
}

func TestPilotRunErrors(t *testing.T) {
	dir := fakeReceipts(t, "r1")
	tmp := t.TempDir()
	badCfg := filepath.Join(writeFiles(t, map[string]string{"p.toml": "[model]\napi_key = \"sk-live-123\"\n"}), "p.toml")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no out", []string{"--dataset", dir, "--command", "echo {image}"}, ExitInput, "--out is required"},
		{"no engine", []string{"--dataset", dir, "--out", filepath.Join(tmp, "a.jsonl")}, ExitInput, "no engine"},
		{"bad deadline", []string{"--dataset", dir, "--command", "echo {image}", "--out", filepath.Join(tmp, "b.jsonl"), "--deadline", "soon"}, ExitInput, "--deadline: duration \"soon\""},
		{"bad concurrency", []string{"--dataset", dir, "--command", "echo {image}", "--out", filepath.Join(tmp, "c.jsonl"), "--concurrency", "1,x"}, ExitInput, "--concurrency \"1,x\""},
		{"missing dataset", []string{"--dataset", filepath.Join(tmp, "none"), "--command", "echo {image}", "--out", filepath.Join(tmp, "d.jsonl")}, ExitInput, "cannot read the dataset"},
		{"key in config", []string{"--config", badCfg}, ExitInput, "p.toml:2:1: unknown key \"model.api_key\""},
		{"both prompts", []string{"--dataset", dir, "--base-url", "http://x/v1", "--model", "m", "--prompt", "a", "--prompt-file", "b", "--out", filepath.Join(tmp, "e.jsonl")}, ExitInput, "not both"},
		{"failed warmup", []string{"--dataset", dir, "--command", "exit 2 # {image}", "--out", filepath.Join(tmp, "f.jsonl")}, ExitFailure, "warmup of r1 failed: http_error (the program failed: exit status 2)"},
		{"low GPU memory", []string{"--dataset", dir, "--command", "echo {image}", "--out", filepath.Join(tmp, "g.jsonl"), "--gpu-min-free-mib", "1000"}, ExitFailure, "nvidia-smi"},
		// Before: exit 1 "is a directory" (a FIFO: TestPilotRunOutFIFO).
		{"out is a directory", []string{"--dataset", dir, "--command", "echo {image}", "--out", tmp}, ExitInput, "--out " + tmp + ": is a directory; a run file must be a regular file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "low GPU memory" {
				bin := writeFiles(t, map[string]string{"nvidia-smi": "#!/bin/sh\necho 512\n"})
				os.Chmod(filepath.Join(bin, "nvidia-smi"), 0o755)
				t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				c.want = "GPU 0 has 512 MiB free, less than --gpu-min-free-mib 1000"
			}
			code, _, stderr := run(t, append([]string{"pilot", "run"}, c.args...)...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d (want %d), stderr:\n%s\nwant %q", code, c.code, stderr, c.want)
			}
			if strings.Contains(stderr, "sk-live-123") {
				t.Error("the error repeats the API key")
			}
		})
	}
	// The failed warmup's file says why.
	r := readPilotRun(t, filepath.Join(tmp, "f.jsonl"))
	if r.End == nil || r.End.Status != runfile.EndInterrupted || !strings.Contains(r.End.Reason, "warmup of r1 failed") {
		t.Errorf("end %+v", r.End)
	}
}

func TestPilotReportCLI(t *testing.T) {
	// An interrupted run is reported, labelled, with its unattempted pair.
	code, stdout, stderr := run(t, "pilot", "report", sampleFile("run_incomplete.jsonl"), "--refs", sampleFile("refs"))
	if code != ExitOK || !strings.Contains(stderr, "is incomplete (47 of 48 planned pairs recorded, 1 unattempted)") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var rep struct {
		Kind        string `json:"kind"`
		Incomplete  bool   `json:"incomplete"`
		Unattempted []struct {
			Phase    string `json:"phase"`
			SampleID string `json:"sample_id"`
		} `json:"unattempted"`
		Phases []struct {
			Phase    string `json:"phase"`
			LatencyS *struct {
				P50 float64 `json:"p50"`
				P99 float64 `json:"p99"`
			} `json:"latency_s"`
			RequestsPerS *float64 `json:"requests_per_s"`
		} `json:"phases"`
		Scores *struct {
			Phases []json.RawMessage `json:"phases"`
		} `json:"scores"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "pilot" || !rep.Incomplete || len(rep.Unattempted) != 1 || rep.Unattempted[0].SampleID != "cord-test-0007" ||
		len(rep.Phases) != 3 || rep.Phases[1].LatencyS == nil || rep.Scores == nil || len(rep.Scores.Phases) != 2 {
		t.Errorf("report %+v", rep)
	}
	// Without labels or --refs: performance only, and a note.
	code, stdout, stderr = run(t, "pilot", "report", sampleFile("run.jsonl"), "--format", "md")
	if code != ExitOK || !strings.Contains(stdout, "no scores: the run header lists no samples") || !strings.Contains(stderr, "note: no scores") {
		t.Errorf("exit %d, stderr %s\n%s", code, stderr, stdout)
	}
	code, _, stderr = run(t, "pilot", "report", sampleFile("run.jsonl"), "--format", "csv")
	if code != ExitInput || !strings.Contains(stderr, `--format "csv"`) {
		t.Errorf("csv: exit %d, %s", code, stderr)
	}
	code, _, _ = run(t, "pilot", "report")
	if code != ExitInput {
		t.Errorf("no run file: exit %d", code)
	}
}

// TestPilotTesseractEndToEnd pilots the command engine with a real OCR
// engine, Debian's tesseract-ocr (installed by scripts/deps.sh), over the
// bundled real CORD receipt, then scores the run with docscore score
// receipts. It checks structure and statuses, not an accuracy figure.
func TestPilotTesseractEndToEnd(t *testing.T) {
	tesseract, err := exec.LookPath("tesseract")
	if err != nil {
		t.Fatalf("tesseract is not installed (it is needed here, not optional): run scripts/deps.sh or apt-get install tesseract-ocr")
	}
	t.Logf("using %s", tesseract)
	data := filepath.Join("testdata", "real")
	tmp := t.TempDir()
	out := filepath.Join(tmp, "run.jsonl")
	code, _, stderr := run(t, "pilot", "run", "--dataset", data, "--command", "tesseract {image} - --psm 6",
		"--concurrency", "1,4", "--deadline", "120s", "--out", out, "--dataset-name", "cord-v2-real-receipt")
	if code != ExitOK {
		t.Fatalf("pilot run: exit %d\n%s", code, stderr)
	}
	r := readPilotRun(t, out)
	h := r.Header
	const id = "cord_test_receipt_00004"
	if len(h.Samples) != 1 || h.Samples[0].SampleID != id ||
		h.Samples[0].ImageSHA256 != "8f3eee7068c96e86cdb2e4b5c53085cb5e1439462edd55c373548cb1962801ad" ||
		h.Samples[0].ImageBytes != 1643699 || h.Samples[0].Reference == nil || !strings.HasPrefix(*h.Samples[0].Reference, "ICE BLACKCOFFE 2 82,000") {
		t.Errorf("header samples %+v", h.Samples)
	}
	if h.Engine.Kind != "command" || h.Engine.Command != "tesseract {image} - --psm 6" || h.Model.Name != "tesseract" || h.DeadlineS != 120 {
		t.Errorf("header engine %+v model %+v", h.Engine, h.Model)
	}
	var phases []string
	for _, q := range r.Requests {
		phases = append(phases, q.Phase)
		if q.Status != runfile.StatusOK || q.FinishReasonString() != "stop" || q.Output == nil || q.ExitCode == nil || *q.ExitCode != 0 ||
			q.ImageSHA256 != h.Samples[0].ImageSHA256 || q.LatencyS <= 0 || q.Error != nil {
			t.Errorf("record %s: status %s finish %q exit %v error %q", q.Phase, q.Status, q.FinishReasonString(), q.ExitCode, ptr(q.Error))
		}
	}
	if strings.Join(phases, ",") != "warmup,c1,c4" || r.End == nil || r.End.Status != runfile.EndComplete {
		t.Errorf("records %v, end %+v", phases, r.End)
	}

	// Score the run with docscore score receipts, the references being
	// the receipt's typed reference.
	ref, err := os.ReadFile(filepath.Join(data, id+".reference.txt"))
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(map[string]string{"sample_id": id, "reference": string(ref)})
	refs := filepath.Join(tmp, "refs.jsonl")
	os.WriteFile(refs, append(line, '\n'), 0o644)
	code, stdout, stderr := run(t, "score", "receipts", "--refs", refs, "--run", out)
	if code != ExitOK {
		t.Fatalf("score receipts: exit %d\n%s", code, stderr)
	}
	var rep struct {
		Complete bool `json:"complete"`
		Planned  int  `json:"planned"`
		Phases   []struct {
			Phase         string         `json:"phase"`
			Pages         int            `json:"pages"`
			ScoredText    int            `json:"scored_text"`
			RougeLF1Mean  *float64       `json:"rouge_l_f1_mean"`
			NumericRecall *float64       `json:"numeric_recall"`
			StatusCounts  map[string]int `json:"status_counts"`
		} `json:"phases"`
		Pages []struct {
			RefTokens  int `json:"ref_tokens"`
			NumericRef int `json:"numeric_ref"`
		} `json:"pages"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.Planned != 2 || len(rep.Phases) != 2 || len(rep.Pages) != 2 {
		t.Fatalf("score report %s", stdout)
	}
	for _, p := range rep.Phases {
		if p.Pages != 1 || p.ScoredText != 1 || p.StatusCounts["ok"] != 1 || p.RougeLF1Mean == nil || p.NumericRecall == nil ||
			*p.RougeLF1Mean < 0 || *p.RougeLF1Mean > 1 || *p.NumericRecall < 0 || *p.NumericRecall > 1 {
			t.Errorf("phase %+v", p)
		}
	}
	// 8 reference lines: 24 tokens (SUB_TOTAL is two), 11 of them numbers.
	if rep.Pages[0].RefTokens != 24 || rep.Pages[0].NumericRef != 11 {
		t.Errorf("reference tokens %+v", rep.Pages[0])
	}
	// The pilot report agrees: same scores, from the header's reference.
	code, stdout, stderr = run(t, "pilot", "report", out)
	if code != ExitOK || !strings.Contains(stdout, `"references_from": "run header"`) || !strings.Contains(stdout, `"complete": true`) {
		t.Errorf("pilot report: exit %d, %s", code, stderr)
	}
}

func ptr(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

// TestPilotRunHelpSaysTemperature: the help says that temperature 0 is
// sent by default, in the Long text and the flag's line (it said neither).
func TestPilotRunHelpSaysTemperature(t *testing.T) {
	code, out, _ := run(t, "pilot", "run", "--help")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{`every request sends "temperature: 0"`, "unless --temperature", "0 (greedy) is sent when it is left out"} {
		if !strings.Contains(out, want) {
			t.Errorf("pilot run --help does not say %q", want)
		}
	}
}

// TestPilotReportCutLastLine: a run killed while writing its last record
// ends in half a line. pilot report leaves it out with a warning naming
// the file and line and labels the report incomplete, without
// --skip-bad-lines (before, it failed with exit 2); a malformed line
// elsewhere, or a bad last line that has its newline, still fails.
func TestPilotReportCutLastLine(t *testing.T) {
	data, err := os.ReadFile(sampleFile("run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	n := len(lines) // the last line is the end record
	lastReq := lines[n-2]
	head := strings.Join(lines[:n-2], "")
	tests := []struct {
		name, content string
		code          int
		want          []string // in stderr
		unattempted   int
	}{
		{"request cut", head + lastReq[:len(lastReq)/2], ExitOK,
			[]string{fmt.Sprintf("run.jsonl:%d: the last line was cut short", n-1), "left out", "(47 of 48 planned pairs recorded, 1 unattempted); the report is labelled incomplete"}, 1},
		{"end record cut", head + lastReq + `{"type": "end", "sta`, ExitOK,
			[]string{fmt.Sprintf("run.jsonl:%d: the last line was cut short (20 bytes", n), "(every planned pair recorded, but its last line was cut); the report is labelled incomplete"}, 0},
		{"malformed line in the middle", head + "{\"type\": \"req\n" + lastReq + lines[n-1], ExitInput,
			[]string{fmt.Sprintf("run.jsonl:%d:", n-1)}, 0},
		{"malformed last line with its newline", head + lastReq[:len(lastReq)/2] + "\n", ExitInput,
			[]string{fmt.Sprintf("run.jsonl:%d:", n-1)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "run.jsonl")
			os.WriteFile(p, []byte(tt.content), 0o644)
			code, stdout, stderr := run(t, "pilot", "report", p)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not contain %q", stderr, w)
				}
			}
			if code != ExitOK {
				return
			}
			var rep struct {
				Complete    bool              `json:"complete"`
				Incomplete  bool              `json:"incomplete"`
				CutLine     string            `json:"cut_line"`
				Unattempted []json.RawMessage `json:"unattempted"`
			}
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Complete || !rep.Incomplete || !strings.Contains(rep.CutLine, "cut short") || len(rep.Unattempted) != tt.unattempted {
				t.Errorf("report: %+v", rep)
			}
			_, md, _ := run(t, "pilot", "report", p, "--format", "md")
			if !strings.Contains(md, "**INCOMPLETE:**") || !strings.Contains(md, "Cut line: ") {
				t.Errorf("markdown does not say incomplete and cut:\n%.600s", md)
			}
		})
	}
}
