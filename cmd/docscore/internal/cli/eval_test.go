package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness"
)

const examples = "../../../../examples/harness"

func TestEvalPipelineExample(t *testing.T) {
	dir := t.TempDir()
	cases := filepath.Join(examples, "pipeline", "cases.json")
	jsonPath, mdPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
	code, out, errs := runEnv(t, "", nil, "eval", "--cases", cases, "--output", jsonPath, "--markdown", mdPath)
	if code != ExitOK || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var r harness.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Judge != "none" || r.Summary.Stages != 10 || r.Summary.Upstream != 1 || r.Summary.UpstreamOrCombined != 1 || r.Summary.Indeterminate != 1 {
		t.Errorf("summary %+v judge %s", r.Summary, r.Judge)
	}
	md, _ := os.ReadFile(mdPath)
	if !strings.HasPrefix(string(md), "# Evaluation report") {
		t.Errorf("markdown %q", md)
	}
	// The evaluate operation, as the page and the HTTP API run it, gives
	// the same bytes for the same files, in both formats.
	src, _ := os.ReadFile(cases)
	png, _ := os.ReadFile(filepath.Join(examples, "pipeline", "invoice.png"))
	for format, want := range map[string][]byte{"json": data, "md": md} {
		req := evalapi.EvalRequest{Cases: api.File{Name: cases, Text: string(src)}, Format: format,
			Files: []api.File{{Name: "invoice.png", Base64: base64.StdEncoding.EncodeToString(png)}}}
		res, err := evalapi.EvaluateOperation().Run(context.Background(), &req)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(res.Bytes, want) {
			t.Errorf("%s: docscore eval and the evaluate operation disagree", format)
		}
	}
	// Standard output by default.
	code, out, _ = runEnv(t, "", nil, "eval", "--cases", cases)
	if code != ExitOK || out != string(data) {
		t.Errorf("stdout report differs (exit %d)", code)
	}
}

func TestEvalExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\"case_id\": \"a\",\n \"prediction\": 1, \"references\": [{\"authority\": \"gold\", \"value\": 1}]}"), 0o644)
	cycle := filepath.Join(dir, "cycle.json")
	os.WriteFile(cycle, []byte(`{"pipeline_id": "p", "stages": [{"case_id": "a", "prediction": 1, "depends_on": ["a"]}]}`), 0o644)
	cases := filepath.Join(examples, "pipeline", "cases.json")
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"fail-on fail", []string{"eval", "--cases", cases, "--fail-on", "fail", "--output", filepath.Join(dir, "o.json")}, ExitThreshold, "--fail-on fail: 4 stage(s) failed"},
		{"fail-on uncertain", []string{"eval", "--cases", cases, "--fail-on", "uncertain", "--output", filepath.Join(dir, "o.json")}, ExitThreshold, "1 uncertain"},
		{"vehicle passes", []string{"eval", "--cases", filepath.Join(examples, "vehicle", "cases.json"), "--fail-on", "uncertain", "--output", filepath.Join(dir, "v.json")}, ExitOK, ""},
		{"bad input names the line", []string{"eval", "--cases", bad}, ExitInput, "bad.json:2:48: references[0].authority"},
		{"cycle", []string{"eval", "--cases", cycle}, ExitInput, "depends on itself"},
		{"missing file", []string{"eval", "--cases", filepath.Join(dir, "nope.json")}, ExitInput, "no such file"},
		{"neither form", []string{"eval"}, ExitInput, "give either --cases FILE or --prediction FILE"},
		{"both forms", []string{"eval", "--cases", cases, "--prediction", "p.json"}, ExitInput, "either"},
		{"evidence with cases", []string{"eval", "--cases", cases, "--evidence", "x.pdf"}, ExitInput, "go with --prediction"},
		{"unknown judge", []string{"eval", "--cases", cases, "--judge", "gemini"}, ExitInput, `--judge "gemini": expected one of auto, none, openai, anthropic, command`},
		{"bad fail-on", []string{"eval", "--cases", cases, "--fail-on", "warn"}, ExitInput, "--fail-on"},
		{"bad context", []string{"eval", "--cases", cases, "--checkpoint-context", "novalue"}, ExitInput, "KEY=VALUE"},
		{"two stdouts", []string{"eval", "--cases", cases, "--output", "-", "--markdown", "-"}, ExitInput, "both go to standard output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runEnv(t, "", nil, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.err) {
				t.Errorf("exit %d stderr %q; want %d and %q", code, errs, tt.code, tt.err)
			}
		})
	}
}

// TestEvalDirect is the seed's direct form: a prediction against evidence
// and a path/value table.
func TestEvalDirect(t *testing.T) {
	dir := filepath.Join(examples, "direct")
	code, out, errs := runEnv(t, "", nil, "eval", "--prediction", filepath.Join(dir, "output.json"),
		"--evidence", filepath.Join(dir, "source.pdf"), "--ground-truth", filepath.Join(dir, "truth.csv"), "--judge", "none")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r harness.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	c := r.Cases[0]
	if c.CaseID != "output" || c.Verdict != evalcase.Fail || c.Scores["field_accuracy"] != 0.75 || len(c.References) != 2 ||
		c.References[0].Authority != evalcase.AuthorityEvidence || c.References[1].Authority != evalcase.AuthorityGroundTruth {
		t.Errorf("case %+v", c)
	}
	// Deterministic checks only: without ground truth nothing applies.
	code, out, _ = runEnv(t, "", nil, "eval", "--prediction", filepath.Join(dir, "output.json"), "--evidence", filepath.Join(dir, "source.pdf"), "--markdown", "-")
	if code != ExitOK || !strings.Contains(out, "not applicable") {
		t.Errorf("evidence only: exit %d\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(bad, []byte("{\"a\": 1,}"), 0o644)
	code, _, errs = runEnv(t, "", nil, "eval", "--prediction", bad)
	if code != ExitInput || !strings.Contains(errs, "p.json:1:9: invalid JSON") {
		t.Errorf("malformed prediction: %d %s", code, errs)
	}
	code, _, errs = runEnv(t, "", nil, "eval", "--prediction", filepath.Join(dir, "output.json"), "--ground-truth", filepath.Join(dir, "missing.csv"))
	if code != ExitInput || !strings.Contains(errs, "missing.csv") {
		t.Errorf("missing ground truth: %d %s", code, errs)
	}
}

func TestEvalCheckpointDir(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "ckpt")
	cases := filepath.Join(examples, "pipeline", "cases.json")
	args := []string{"eval", "--cases", cases, "--checkpoint-dir", ck, "--checkpoint-context", "prompt=v1"}
	_, first, _ := runEnv(t, "", nil, args...)
	entries, _ := os.ReadDir(ck)
	if len(entries) != 10 {
		t.Fatalf("%d checkpoint files, want 10", len(entries))
	}
	code, second, errs := runEnv(t, "", nil, args...)
	if code != ExitOK || strings.Count(second, `"from_checkpoint": true`) != 10 {
		t.Fatalf("rerun: exit %d %s, %d reused", code, errs, strings.Count(second, `"from_checkpoint": true`))
	}
	if strings.ReplaceAll(second, `"from_checkpoint": true`, `"from_checkpoint": false`) != first {
		t.Error("a reused report differs from the first beyond from_checkpoint")
	}
	_, third, _ := runEnv(t, "", nil, "eval", "--cases", cases, "--checkpoint-dir", ck, "--checkpoint-context", "prompt=v2")
	if strings.Contains(third, `"from_checkpoint": true`) {
		t.Error("a changed --checkpoint-context reused checkpoints")
	}
}

// TestEvalCasesPathsStayInTheirFolder: a cases file's reference paths may
// not leave its folder without --allow-outside-paths. Before, the case
// below read, hashed (and, with a judge, would have sent) /etc/passwd.
func TestEvalCasesPathsStayInTheirFolder(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "secret.json"), []byte(`{"total": 7}`), 0o644)
	caseLine := func(path string) string {
		return `{"case_id": "c1", "prediction": {"total": 7}, "references": [{"artifact_id": "gt", "authority": "ground_truth", "path": "` + path + `"}]}`
	}
	dir := filepath.Join(root, "cases")
	os.Mkdir(dir, 0o755)
	tests := []struct {
		name, path string
		want       []string
	}{
		{"climbs out", "../../../../../../../../etc/passwd", []string{"cases.jsonl:2:", "../../../../../../../../etc/passwd", "leaves the cases file's folder", "--allow-outside-paths"}},
		{"absolute", "/etc/passwd", []string{"cases.jsonl:2:", "/etc/passwd", "an absolute path", "--allow-outside-paths"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cases := filepath.Join(dir, "cases.jsonl")
			os.WriteFile(cases, []byte(`{"default_metrics": [{"name": "exact", "kind": "exact_structured"}]}`+"\n"+caseLine(tt.path)+"\n"), 0o644)
			code, out, errs := runEnv(t, "", nil, "eval", "--cases", cases, "--judge", "none")
			if code != ExitInput || out != "" {
				t.Fatalf("exit %d (want %d), stdout %.100q, stderr %s", code, ExitInput, out, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(errs, w) {
					t.Errorf("refusal %q does not contain %q", errs, w)
				}
			}
		})
	}
	// With the flag, a file outside the folder is read.
	cases := filepath.Join(dir, "cases.jsonl")
	os.WriteFile(cases, []byte(caseLine("../secret.json")+"\n"), 0o644)
	code, out, errs := runEnv(t, "", nil, "eval", "--cases", cases, "--judge", "none", "--allow-outside-paths")
	if code != ExitOK || !strings.Contains(out, `"verdict": "pass"`) {
		t.Errorf("--allow-outside-paths: exit %d, %s\n%.300s", code, errs, out)
	}
	code, _, errs = runEnv(t, "", nil, "eval", "--cases", cases, "--judge", "none")
	if code != ExitInput || !strings.Contains(errs, "cases.jsonl:1:") {
		t.Errorf("../secret.json without the flag: exit %d, %s", code, errs)
	}
	code, _, errs = runEnv(t, "", nil, "eval", "--prediction", cases, "--allow-outside-paths")
	if code != ExitInput || !strings.Contains(errs, "--allow-outside-paths goes with --cases") {
		t.Errorf("--allow-outside-paths with --prediction: exit %d, %s", code, errs)
	}
}
