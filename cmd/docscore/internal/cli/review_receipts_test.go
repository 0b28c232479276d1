package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReviewReceipts(t *testing.T) {
	bin := localJudge(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "review.json")
	images := filepath.Join(dir, "images")
	os.MkdirAll(images, 0o755)
	png, err := os.ReadFile(filepath.Join(receiptsSample, "real", "cord_test_receipt_00004.png"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(images, "cord-test-0003.png"), png, 0o644)
	run := sampleFile("run.jsonl")
	before, _ := os.ReadFile(run)
	code, stdout, errs := runEnv(t, "", map[string]string{"OPENAI_API_KEY": "sk-test-secret-review"}, "review", "receipts",
		"--run", run, "--refs", sampleFile("refs"), "--lowest", "2", "--images", images,
		"--judge", "command", "--judge-command", bin, "--out", out)
	if code != ExitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Kind     string `json:"kind"`
		Advisory bool   `json:"advisory"`
		Pages    []struct {
			SampleID string   `json:"sample_id"`
			Phase    string   `json:"phase"`
			F1       *float64 `json:"f1"`
			Verdict  string   `json:"verdict"`
			Prompt   json.RawMessage
		} `json:"pages"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	// The two lowest c1 pages of the sample (see its golden Markdown).
	if rep.Kind != "docscore-advisory-review" || !rep.Advisory || len(rep.Pages) != 2 ||
		rep.Pages[0].SampleID != "cord-test-0003" || rep.Pages[1].SampleID != "cord-test-0005" || rep.Pages[0].Phase != "c1" {
		t.Fatalf("review %s", b)
	}
	if rep.Pages[0].F1 == nil || *rep.Pages[0].F1 != 0 || rep.Pages[0].Verdict == "" {
		t.Fatalf("page %+v", rep.Pages[0])
	}
	// The image went to the judge with the first page only.
	if !bytes.Contains(rep.Pages[0].Prompt, []byte("receipt_image")) || bytes.Contains(rep.Pages[1].Prompt, []byte("receipt_image")) {
		t.Fatalf("image evidence not where expected")
	}
	if strings.Contains(string(b)+errs, "sk-test-secret-review") {
		t.Fatal("the API key appears in the output")
	}
	// The deterministic inputs are untouched.
	if after, _ := os.ReadFile(run); !bytes.Equal(before, after) {
		t.Fatal("the run file changed")
	}
	// No judge: none says what none means and lists the accepted values
	// (it used to say "auto found no key"); auto names the keys it read.
	tests := []struct {
		judge string
		want  []string
		not   string
	}{
		{"none", []string{"--judge none:", "needs a model judge", "none means no judge", "expected one of auto, openai, anthropic, command"}, "auto found"},
		{"auto", []string{"--judge auto found no judge", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"}, ""},
	}
	for _, tt := range tests {
		code, _, errs = runEnv(t, "", nil, "review", "receipts", "--run", run, "--refs", sampleFile("refs"), "--judge", tt.judge)
		if code != ExitInput {
			t.Errorf("--judge %s: exit %d, want %d: %s", tt.judge, code, ExitInput, errs)
		}
		for _, w := range tt.want {
			if !strings.Contains(errs, w) {
				t.Errorf("--judge %s: %q does not contain %q", tt.judge, errs, w)
			}
		}
		if tt.not != "" && strings.Contains(errs, tt.not) {
			t.Errorf("--judge %s: %q contains %q", tt.judge, errs, tt.not)
		}
	}
}
