package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/harness"
)

// judgedCases writes a JSONL cases file of n cases c1…cn, each decided
// by the llm_judge metric alone.
func batchCases(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"case_id":"c%d","operation":"classify","prediction":{"vehicle":"fund","n":%d},"references":[{"artifact_id":"truth","authority":"ground_truth","value":{"vehicle":"fund","n":%d}}],"metrics":[{"name":"judge","kind":"llm_judge"}]}`+"\n", i, i, i)
	}
	p := filepath.Join(dir, "cases.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// passAnswer is a judge answer that supports every claim of the task.
func passAnswer(task map[string]any) string {
	claims := []any{}
	for _, c := range task["prediction_claims"].([]any) {
		claims = append(claims, map[string]any{"claim_id": c.(map[string]any)["claim_id"], "status": "supported", "reference_id": nil, "evidence": "seen"})
	}
	b, _ := json.Marshal(map[string]any{"verdict": "pass", "rationale": "ok", "confidence": 0.9, "claims": claims, "reference_claims": []any{}})
	return string(b)
}

// batchAnswers answers batch items by case id: special maps a case id
// to a reply; every other case passes.
func batchAnswers(special map[string]judgetest.BatchReply) func(string, judgetest.Request) judgetest.BatchReply {
	return func(_ string, r judgetest.Request) judgetest.BatchReply {
		task, _ := r.Task()["task"].(map[string]any)
		if rep, ok := special[task["case_id"].(string)]; ok {
			return rep
		}
		return judgetest.BatchReply{Text: passAnswer(task), In: 500, Out: 50}
	}
}

// equalBeyond reads the JSON objects of a direct and a batch run, takes
// their usage member (key) out of them, checks that the rest is equal and
// returns both, rest and usage.
func equalBeyond(t *testing.T, direct, batch, key string) (a, b, ua, ub map[string]any) {
	t.Helper()
	a, b = testkit.ReadJSONObject(t, direct), testkit.ReadJSONObject(t, batch)
	ua, _ = a[key].(map[string]any)
	ub, _ = b[key].(map[string]any)
	delete(a, key)
	delete(b, key)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s differs from %s beyond %s", batch, direct, key)
	}
	return a, b, ua, ub
}

// TestEvalBatchEqualsDirect: a batch run's report equals the direct
// run's but for the usage, which says batch and costs half; one batch is
// created, polled with a progress line, and a rerun submits nothing.
func TestEvalBatchEqualsDirect(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			dir := t.TempDir()
			cases := batchCases(t, dir, 5)
			var direct *judgetest.Server
			var batch *judgetest.BatchServer
			key, keyVar, baseVar := openaiKey, "OPENAI_API_KEY", "OPENAI_BASE_URL"
			if provider == "openai" {
				direct, batch = judgetest.NewOpenAI(key), judgetest.NewOpenAIBatch(key)
			} else {
				key, keyVar, baseVar = anthropicKey, "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"
				direct, batch = judgetest.NewAnthropic(key), judgetest.NewAnthropicBatch(key)
			}
			defer direct.Close()
			defer batch.Close()
			direct.Answer = judgeAnswer(direct)
			batch.Answer = batchAnswers(nil)
			batch.ProgressPolls = 2
			args := func(out, ck string, extra ...string) []string {
				return append([]string{"eval", "--cases", cases, "--judge", provider, "--model", "m", "--output", out, "--checkpoint-dir", ck,
					"--price-input", "1", "--price-output", "2"}, extra...)
			}
			code, _, errs := runEnv(t, "", map[string]string{keyVar: key, baseVar: direct.BaseURL()}, args(filepath.Join(dir, "direct.json"), filepath.Join(dir, "ck1"))...)
			if code != ExitOK {
				t.Fatalf("direct: exit %d %s", code, errs)
			}
			env := map[string]string{keyVar: key, baseVar: batch.BaseURL(), envBatchPoll: "2ms"}
			code, _, errs = runEnv(t, "", env, args(filepath.Join(dir, "batch.json"), filepath.Join(dir, "ck2"), "--batch")...)
			if code != ExitOK {
				t.Fatalf("batch: exit %d %s", code, errs)
			}
			for _, want := range []string{"5 request(s) submitted", "validating", "in_progress", "5 submitted, 5 in progress, 0 done, 0 failed", "5 done, 0 failed", "elapsed"} {
				if provider == "anthropic" && want == "validating" {
					continue
				}
				if !strings.Contains(errs, want) {
					t.Errorf("progress: no %q in\n%s", want, errs)
				}
			}
			if batch.Creations() != 1 || len(batch.Answered()) != 5 || direct.Count() != 5 {
				t.Errorf("creations %d, answered %v, direct calls %d", batch.Creations(), batch.Answered(), direct.Count())
			}
			if p := append(batch.Problems(), direct.Problems()...); len(p) > 0 {
				t.Errorf("request shape problems: %v", p)
			}
			_, _, ua, ub := equalBeyond(t, filepath.Join(dir, "direct.json"), filepath.Join(dir, "batch.json"), "judge_usage")
			ca := ua["total"].(map[string]any)["cost_usd"].(float64)
			cb := ub["total"].(map[string]any)["cost_usd"].(float64)
			if ub["calls"] != 5.0 || ub["batch_calls"] != 5.0 || ua["batch_calls"] != nil || fmt.Sprintf("%.6f", cb) != fmt.Sprintf("%.6f", ca/2) {
				t.Errorf("usage: direct %v, batch %v", ua, ub)
			}
			// A rerun submits nothing and answers from the checkpoints.
			code, _, errs = runEnv(t, "", env, args(filepath.Join(dir, "batch2.json"), filepath.Join(dir, "ck2"), "--batch")...)
			if code != ExitOK || batch.Creations() != 1 || strings.Contains(errs, "submitted") {
				t.Errorf("rerun: exit %d, creations %d, %s", code, batch.Creations(), errs)
			}
		})
	}
}

// TestEvalBatchMixed: items the batch answered with an error, expired
// ones and malformed answers are uncertain and in the review queue with
// their reason; nothing is sent again without --resubmit, and with it
// only the unanswered requests are. No key reaches a file, a log line
// or an error, even when the provider echoes it.
func TestEvalBatchMixed(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			dir := t.TempDir()
			cases := batchCases(t, dir, 6)
			key, keyVar, baseVar := openaiKey, "OPENAI_API_KEY", "OPENAI_BASE_URL"
			batch := judgetest.NewOpenAIBatch(key)
			if provider == "anthropic" {
				key, keyVar, baseVar = anthropicKey, "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"
				batch.Close()
				batch = judgetest.NewAnthropicBatch(key)
			}
			defer batch.Close()
			batch.Answer = batchAnswers(map[string]judgetest.BatchReply{
				"c2": {Text: "this is not JSON", In: 500, Out: 5},
				"c3": {Kind: "errored", Status: 500, Message: "overloaded; your key " + key + " was fine"},
				"c4": {Kind: "expired"},
				"c5": {Text: `{"verdict": "maybe"}`, In: 500, Out: 5},
			})
			env := map[string]string{keyVar: key, baseVar: batch.BaseURL(), envBatchPoll: "1ms"}
			out := filepath.Join(dir, "r.json")
			args := []string{"eval", "--cases", cases, "--judge", provider, "--model", "m", "--output", out, "--checkpoint-dir", filepath.Join(dir, "ck"), "--batch"}
			var logs strings.Builder
			code, stdout, errs := runEnv(t, "", env, args...)
			logs.WriteString(stdout + errs)
			if code != ExitOK || !strings.Contains(errs, "2 request(s) without an answer") || !strings.Contains(errs, "--resubmit") {
				t.Fatalf("exit %d %s", code, errs)
			}
			var r harness.Report
			json.Unmarshal(mustRead(t, out), &r)
			reasons := map[string]string{}
			for _, it := range r.ReviewQueue {
				reasons[it.CaseID] = it.Reason
			}
			want := map[string]string{"c2": "unusable judge answer", "c3": "errored", "c4": "expired", "c5": "unusable judge answer"}
			for id, w := range want {
				if !strings.Contains(reasons[id], w) {
					t.Errorf("%s: review reason %q, want %q", id, reasons[id], w)
				}
			}
			if len(r.ReviewQueue) != 4 || r.Summary.Pass != 2 || r.Summary.Uncertain != 4 {
				t.Errorf("summary %+v, queue %+v", r.Summary, r.ReviewQueue)
			}
			if !strings.Contains(reasons["c3"], "overloaded") {
				t.Errorf("c3 reason lost the provider's message: %q", reasons["c3"])
			}
			// Without --resubmit nothing is sent again.
			code, stdout, errs = runEnv(t, "", env, args...)
			logs.WriteString(stdout + errs)
			if code != ExitOK || batch.Creations() != 1 {
				t.Fatalf("rerun: exit %d, creations %d %s", code, batch.Creations(), errs)
			}
			// With it, only c3 and c4 are, and now they pass.
			batch.Answer = batchAnswers(map[string]judgetest.BatchReply{"c2": {Text: "resent!"}, "c5": {Text: "resent!"}})
			code, stdout, errs = runEnv(t, "", env, append(args, "--resubmit")...)
			logs.WriteString(stdout + errs)
			if code != ExitOK || batch.Creations() != 2 || !strings.Contains(errs, "2 request(s) submitted") {
				t.Fatalf("resubmit: exit %d, creations %d %s", code, batch.Creations(), errs)
			}
			json.Unmarshal(mustRead(t, out), &r)
			if r.Summary.Pass != 4 || r.Summary.Uncertain != 2 {
				t.Errorf("after --resubmit: %+v", r.Summary)
			}
			// Keys: not in a file under dir (ledger, checkpoints, report),
			// a log line, an error or an uploaded batch file.
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					logs.Write(mustRead(t, p))
				}
				return nil
			})
			// The uploads (OpenAI's request file) and batch bodies we sent;
			// the provider's own error file echoes the key, which is its
			// business.
			for _, rq := range batch.Requests() {
				logs.Write(rq.Body)
			}
			if !strings.Contains(logs.String(), "ds_") {
				t.Fatal("the collected text has no request id: the check below would prove nothing")
			}
			for _, secret := range []string{key, key[:12], key[len(key)-12:]} {
				if strings.Contains(logs.String(), secret) {
					t.Errorf("a key fragment (%.6s…) appears in a file, a log line, an error or a batch file", secret)
				}
			}
		})
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBatchFlags: --batch needs a checkpoint directory and a judge with
// a batch API; --resubmit and --batch-poll need --batch.
func TestBatchFlags(t *testing.T) {
	dir := t.TempDir()
	cases := batchCases(t, dir, 1)
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": "http://127.0.0.1:1/", envBatchPoll: "1ms"}
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--judge", "openai", "--model", "m", "--batch"}, env, "--batch needs --checkpoint-dir"},
		{[]string{"--judge", "openai", "--model", "m", "--resubmit"}, env, "--resubmit goes with --batch"},
		{[]string{"--judge", "openai", "--model", "m", "--batch-poll", "1s"}, env, "--batch-poll goes with --batch"},
		{[]string{"--judge", "command", "--judge-command", "true", "--batch", "--checkpoint-dir", filepath.Join(dir, "ck")}, env, "has no batch API"},
		{[]string{"--judge", "openai", "--model", "m", "--batch", "--checkpoint-dir", filepath.Join(dir, "ck")}, map[string]string{"OPENAI_API_KEY": openaiKey, envBatchPoll: "soon"}, "DOCSCORE_BATCH_POLL"},
	} {
		code, _, errs := runEnv(t, "", tc.env, append([]string{"eval", "--cases", cases}, tc.args...)...)
		if code != ExitInput || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q (want %q)", tc.args, code, errs, tc.want)
		}
	}
}

// docscoreBinary builds the real binary for a test.
func docscoreBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "docscore")
	if out, err := exec.Command(goTool, "build", "-o", bin, "github.com/docscore/docscore/cmd/docscore").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestEvalBatchKilled kills (SIGKILL) a batch run while its batch is in
// progress, then reruns it: the stand-in saw exactly one batch created,
// every item was answered once, and the report equals an uninterrupted
// run's.
func TestEvalBatchKilled(t *testing.T) {
	bin := docscoreBinary(t)
	dir := t.TempDir()
	const n = 40
	cases := batchCases(t, dir, n)
	run := func(s *judgetest.BatchServer, ck, out string) *exec.Cmd {
		c := exec.Command(bin, "eval", "--cases", cases, "--judge", "openai", "--model", "m", "--batch", "--checkpoint-dir", ck, "--output", out,
			"--price-input", "1", "--price-output", "2")
		c.Env = append(os.Environ(), "OPENAI_API_KEY="+openaiKey, "OPENAI_BASE_URL="+s.BaseURL(), envBatchPoll+"=5ms")
		return c
	}
	s := judgetest.NewOpenAIBatch(openaiKey)
	defer s.Close()
	s.Answer = batchAnswers(nil)
	s.Hold()
	ck, out := filepath.Join(dir, "ck"), filepath.Join(dir, "killed.json")
	first := run(s, ck, out)
	var stderr bytes.Buffer
	first.Stderr = &stderr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for s.Polls() < 3 {
		if time.Now().After(deadline) {
			first.Process.Kill()
			t.Fatalf("the batch was never polled; stderr:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the killed run wrote a report")
	}
	if s.Creations() != 1 || len(s.Answered()) != 0 {
		t.Fatalf("before the rerun: %d creations, %d answered", s.Creations(), len(s.Answered()))
	}
	s.Release()
	rerun := run(s, ck, out)
	if b, err := rerun.CombinedOutput(); err != nil {
		t.Fatalf("rerun: %v\n%s", err, b)
	} else if !strings.Contains(string(b), "completed") || strings.Contains(string(b), "submitted;") {
		t.Errorf("rerun log:\n%s", b)
	}
	if s.Creations() != 1 {
		t.Errorf("%d batches created, want 1", s.Creations())
	}
	answered := s.Answered()
	if len(answered) != n {
		t.Errorf("%d items answered, want %d", len(answered), n)
	}
	for id, c := range answered {
		if c != 1 {
			t.Errorf("%s answered %d times", id, c)
		}
	}
	// An uninterrupted run against a fresh stand-in.
	s2 := judgetest.NewOpenAIBatch(openaiKey)
	defer s2.Close()
	s2.Answer = batchAnswers(nil)
	whole := filepath.Join(dir, "whole.json")
	if b, err := run(s2, filepath.Join(dir, "ck2"), whole).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted: %v\n%s", err, b)
	}
	if a, b := mustRead(t, out), mustRead(t, whole); !bytes.Equal(a, b) {
		t.Errorf("the report of the killed and rerun batch differs from the uninterrupted one:\n%s\n---\n%s", a, b)
	}
	if p := append(s.Problems(), s2.Problems()...); len(p) > 0 {
		t.Errorf("request shape problems: %v", p)
	}
}

// TestReviewReceiptsBatch: review receipts --batch writes the same
// advisory file as the direct calls (the receipt image travels in the
// batch request), through one batch.
func TestReviewReceiptsBatch(t *testing.T) {
	dir := t.TempDir()
	images := filepath.Join(dir, "images")
	os.MkdirAll(images, 0o755)
	png := mustRead(t, filepath.Join(receiptsSample, "real", "cord_test_receipt_00004.png"))
	os.WriteFile(filepath.Join(images, "cord-test-0003.png"), png, 0o644)
	direct := judgetest.NewAnthropic(anthropicKey)
	defer direct.Close()
	direct.Answer = judgeAnswer(direct)
	batch := judgetest.NewAnthropicBatch(anthropicKey)
	defer batch.Close()
	batch.Answer = batchAnswers(nil)
	review := func(base, out string, extra ...string) {
		t.Helper()
		code, _, errs := runEnv(t, "", map[string]string{"ANTHROPIC_API_KEY": anthropicKey, "ANTHROPIC_BASE_URL": base, envBatchPoll: "1ms"},
			append([]string{"review", "receipts", "--run", sampleFile("run.jsonl"), "--refs", sampleFile("refs"), "--lowest", "3",
				"--images", images, "--judge", "anthropic", "--model", "m", "--out", out}, extra...)...)
		if code != ExitOK {
			t.Fatalf("exit %d %s", code, errs)
		}
	}
	review(direct.BaseURL(), filepath.Join(dir, "direct.json"))
	review(batch.BaseURL(), filepath.Join(dir, "batch.json"), "--batch", "--checkpoint-dir", filepath.Join(dir, "ck"))
	// Equal but for the usage, which says batch (and its estimate, at
	// the batch price).
	_, _, ua, ub := equalBeyond(t, filepath.Join(dir, "direct.json"), filepath.Join(dir, "batch.json"), "usage")
	if ua["batch_calls"] != nil || ub["batch_calls"] != 3.0 || ub["estimated"].(map[string]any)["batch"] != true || ua["estimated"].(map[string]any)["batch"] != nil {
		t.Errorf("usage: direct %v, batch %v", ua, ub)
	}
	if batch.Creations() != 1 || len(batch.Answered()) != 3 || direct.Count() != 3 {
		t.Errorf("creations %d, answered %d, direct %d", batch.Creations(), len(batch.Answered()), direct.Count())
	}
	if p := append(batch.Problems(), direct.Problems()...); len(p) > 0 {
		t.Errorf("request shape problems: %v", p)
	}
}
