package cli

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/scoring/harness"
)

const (
	openaiKey    = "sk-proj-TESTKEY-openai-0123456789abcdef"
	anthropicKey = "sk-ant-TESTKEY-anthropic-0123456789abcdef"
)

// judgeAnswer answers any judge request: every claim supported.
func judgeAnswer(s *judgetest.Server) func(judgetest.Request) judgetest.Reply {
	return func(r judgetest.Request) judgetest.Reply {
		task, _ := r.Task()["task"].(map[string]any)
		claims := []any{}
		for _, c := range task["prediction_claims"].([]any) {
			id := c.(map[string]any)["claim_id"]
			claims = append(claims, map[string]any{"claim_id": id, "status": "supported", "reference_id": nil, "evidence": "seen"})
		}
		b, _ := json.Marshal(map[string]any{"verdict": "pass", "rationale": "ok", "confidence": 0.9, "claims": claims, "reference_claims": []any{}})
		return s.Text(string(b), 500, 50)
	}
}

// TestEvalJudgeProviders: --judge picks the adapter, auto prefers OpenAI,
// then Anthropic, then none; the report names the judge and its usage.
func TestEvalJudgeProviders(t *testing.T) {
	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	oa.Answer = judgeAnswer(oa)
	an := judgetest.NewAnthropic(anthropicKey)
	defer an.Close()
	an.Answer = judgeAnswer(an)
	cases := filepath.Join(examples, "vehicle", "cases.json")
	both := map[string]string{"OPENAI_API_KEY": openaiKey, "ANTHROPIC_API_KEY": anthropicKey, "OPENAI_BASE_URL": oa.BaseURL(), "ANTHROPIC_BASE_URL": an.BaseURL(), "DOCSCORE_JUDGE_MODEL": "env-model"}
	only := func(drop string) map[string]string {
		m := map[string]string{}
		for k, v := range both {
			if k != drop {
				m[k] = v
			}
		}
		return m
	}
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		judge   string
		openai  int
		anthr   int
		code    int
		errText string
	}{
		{"auto prefers openai", both, nil, "openai/env-model", 1, 0, ExitOK, ""},
		{"auto falls back to anthropic", only("OPENAI_API_KEY"), nil, "anthropic/env-model", 0, 1, ExitOK, ""},
		{"auto without keys runs deterministic metrics", map[string]string{"DOCSCORE_JUDGE_MODEL": "m"}, nil, "none", 0, 0, ExitOK, ""},
		{"explicit anthropic with --model", both, []string{"--judge", "anthropic", "--model", "claude-x", "--reasoning-effort", "low"}, "anthropic/claude-x", 0, 1, ExitOK, ""},
		{"seed variable for the model", map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL(), "VISUAL_EVAL_MODEL": "seed-model"}, nil, "openai/seed-model", 1, 0, ExitOK, ""},
		{"none", both, []string{"--judge", "none"}, "none", 0, 0, ExitOK, ""},
		{"no model", only("DOCSCORE_JUDGE_MODEL"), nil, "", 0, 0, ExitInput, "--judge openai needs a model"},
		{"no key", map[string]string{}, []string{"--judge", "anthropic", "--model", "m"}, "", 0, 0, ExitInput, "ANTHROPIC_API_KEY is not set"},
		{"anthropic takes no temperature", both, []string{"--judge", "anthropic", "--temperature", "0.5"}, "", 0, 0, ExitInput, "takes no temperature"},
		{"command needs a command", both, []string{"--judge", "command"}, "", 0, 0, ExitInput, "--judge-command"},
		{"bad temperature", both, []string{"--temperature", "3"}, "", 0, 0, ExitInput, "--temperature 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o0, a0 := oa.Count(), an.Count()
			code, out, errs := runEnv(t, "", tc.env, append([]string{"eval", "--cases", cases}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.errText) {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			if oa.Count()-o0 != tc.openai || an.Count()-a0 != tc.anthr {
				t.Errorf("requests: openai %d, anthropic %d", oa.Count()-o0, an.Count()-a0)
			}
			if code != ExitOK {
				return
			}
			var r harness.Report
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if r.Judge != tc.judge {
				t.Errorf("judge %q, want %q", r.Judge, tc.judge)
			}
			if tc.judge == "none" {
				if r.JudgeUsage != nil || !strings.Contains(out, "no judge configured") {
					t.Errorf("usage %+v", r.JudgeUsage)
				}
				return
			}
			if r.JudgeUsage == nil || r.JudgeUsage.Calls != 1 || r.JudgeUsage.Total.InputTokens != 500 || r.Summary.Pass != 2 {
				t.Errorf("usage %+v summary %+v", r.JudgeUsage, r.Summary)
			}
		})
	}
	if p := append(oa.Problems(), an.Problems()...); len(p) > 0 {
		t.Errorf("request shape problems: %v", p)
	}
}

// TestEvalJudgeSecrets runs judged evaluations with keys set, through
// retries, a provider error that echoes the key, checkpoints and a rerun,
// and asserts that no key reaches a report, a checkpoint, a log line or an
// error; a .env file beside the inputs is never read.
func TestEvalJudgeSecrets(t *testing.T) {
	dir := t.TempDir()
	// A .env beside the cases that would, if read, enable a judge.
	src, _ := os.ReadFile(filepath.Join(examples, "vehicle", "cases.json"))
	cases := filepath.Join(dir, "cases.json")
	os.WriteFile(cases, src, 0o644)
	dotenvKey := "sk-DOTENV-must-never-be-read-0123456789"
	os.WriteFile(filepath.Join(dir, ".env"), []byte("OPENAI_API_KEY="+dotenvKey+"\nANTHROPIC_API_KEY="+dotenvKey+"\nDOCSCORE_JUDGE_MODEL=m\n"), 0o600)
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)

	code, out, errs := runEnv(t, "", nil, "eval", "--cases", cases)
	if code != ExitOK || !strings.Contains(out, `"judge": "none"`) {
		t.Fatalf(".env was read or the run failed: exit %d %s", code, errs)
	}

	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	oa.Queue(oa.RateLimited("0.02"), oa.ServerError())
	oa.Answer = judgeAnswer(oa)
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "ANTHROPIC_API_KEY": anthropicKey, "OPENAI_BASE_URL": oa.BaseURL(), "DOCSCORE_JUDGE_MODEL": "m"}
	ck := filepath.Join(dir, "ckpt")
	report, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
	args := []string{"eval", "--cases", cases, "--checkpoint-dir", ck, "--output", report, "--markdown", md, "--price-input", "1", "--price-output", "2", "--judge-backoff", "5ms"}
	var logs strings.Builder
	code, out, errs = runEnv(t, "", env, args...)
	logs.WriteString(out + errs)
	if code != ExitOK || !strings.Contains(errs, "HTTP 429, retry 1 of 4 in 20ms") || !strings.Contains(errs, "HTTP 500, retry 2 of 4 in 10ms") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if oa.Count() != 3 {
		t.Errorf("%d requests, want 3 (two retried, one judged)", oa.Count())
	}
	// Rerun: everything comes from checkpoints, nothing is paid again.
	code, out, errs = runEnv(t, "", env, args...)
	logs.WriteString(out + errs)
	if code != ExitOK || oa.Count() != 3 {
		t.Errorf("rerun: exit %d, %d requests", code, oa.Count())
	}
	rb, _ := os.ReadFile(report)
	var r harness.Report
	json.Unmarshal(rb, &r)
	if r.JudgeUsage == nil || r.JudgeUsage.CachedCalls != 0 || r.JudgeUsage.Calls != 0 || !strings.Contains(string(rb), `"from_checkpoint": true`) {
		t.Errorf("usage after rerun %+v", r.JudgeUsage)
	}
	// A new checkpoint context asks again.
	code, out, errs = runEnv(t, "", env, append(args, "--checkpoint-context", "prompt=v2")...)
	logs.WriteString(out + errs)
	if code != ExitOK || oa.Count() != 4 {
		t.Errorf("new context: exit %d, %d requests", code, oa.Count())
	}
	// A provider error that echoes the key.
	oa.Queue(judgetest.Reply{Status: 401, Body: judgetest.OpenAIError("invalid_api_key", "Incorrect API key provided: "+openaiKey)})
	code, out, errs = runEnv(t, "", env, "eval", "--cases", cases, "--judge", "openai")
	logs.WriteString(out + errs)
	if code != ExitFailure || !strings.Contains(errs, "HTTP 401") {
		t.Errorf("401: exit %d %q", code, errs)
	}
	// A judge that cannot be reached.
	code, out, errs = runEnv(t, "", map[string]string{"ANTHROPIC_API_KEY": anthropicKey, "ANTHROPIC_BASE_URL": "http://127.0.0.1:1/", "DOCSCORE_JUDGE_MODEL": "m"}, "eval", "--cases", cases, "--judge-retries", "0")
	logs.WriteString(out + errs)
	if code != ExitFailure {
		t.Errorf("unreachable: exit %d %q", code, errs)
	}

	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(p) != ".env" {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 5 {
		t.Fatalf("only %d files written", len(files))
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		logs.WriteString(string(b))
	}
	all := logs.String()
	for _, secret := range []string{openaiKey, anthropicKey, dotenvKey, openaiKey[:12], anthropicKey[:12]} {
		if strings.Contains(all, secret) {
			t.Errorf("a secret (%.6s…) appears in the output, a log line, an error or a file", secret)
		}
	}
}

// TestEvalCommandJudge runs the localjudge example as the command adapter.
func TestEvalCommandJudge(t *testing.T) {
	bin := localJudge(t)
	code, out, errs := runEnv(t, "", nil, "eval", "--cases", filepath.Join("..", "..", "..", "..", "examples", "judges", "cases.json"),
		"--judge", "command", "--judge-command", "'"+bin+"'", "--model", "localjudge", "--fail-on", "uncertain")
	if code != ExitThreshold {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r harness.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	verdicts := []string{}
	for _, s := range r.Pipelines[0].Stages {
		verdicts = append(verdicts, s.StageID+"="+string(s.Verdict))
	}
	if strings.Join(verdicts, " ") != "extract=pass classify=fail summarize=uncertain" || r.Judge != "command/localjudge" || len(r.ReviewQueue) != 1 {
		t.Errorf("verdicts %v, judge %s, queue %+v", verdicts, r.Judge, r.ReviewQueue)
	}
	// The judge's details name its model and its provenance against the
	// producer (anthropic): independent.
	if !strings.Contains(out, `"provenance": "independent"`) {
		t.Error("no provenance label in the report")
	}
}

var (
	localJudgeOnce sync.Once
	localJudgeBin  string
	localJudgeErr  error
)

// localJudge builds the examples' stand-in model once per test run.
func localJudge(t *testing.T) string {
	t.Helper()
	localJudgeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "localjudge")
		if err != nil {
			localJudgeErr = err
			return
		}
		localJudgeBin = filepath.Join(dir, "localjudge")
		out, err := exec.Command("go", "build", "-o", localJudgeBin, "../../../../examples/judges/localjudge").CombinedOutput()
		if err != nil {
			localJudgeErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if localJudgeErr != nil {
		t.Fatal(localJudgeErr)
	}
	return localJudgeBin
}
