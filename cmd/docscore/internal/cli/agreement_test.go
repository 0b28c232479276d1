package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/scoring/agreement"
	"github.com/docscore/docscore/scoring/harness"
)

// agreementCases writes three judged cases, each with two references:
// "stable", "sample-flip" and "order-flip".
func agreementCases(t *testing.T) string {
	t.Helper()
	var cases []string
	for _, id := range []string{"stable", "sample-flip", "order-flip"} {
		cases = append(cases, fmt.Sprintf(`{"case_id": %q, "operation": "classify", "prediction": {"vehicle": "fund"},
  "references": [{"artifact_id": "r-a", "authority": "evidence", "value": "pooled portfolio"},
                 {"artifact_id": "r-b", "authority": "evidence", "value": "units of a fund"}]}`, id))
	}
	path := filepath.Join(t.TempDir(), "cases.json")
	doc := `{"default_metrics": [{"name": "judge", "kind": "llm_judge"}], "cases": [` + strings.Join(cases, ",\n") + `]}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// flakyJudge answers like a judge whose verdict depends on what the
// agreement probes change: "sample-flip" answers fail on its second call in
// the first reference order; "order-flip" answers fail whenever r-b comes
// first; everything else passes.
func flakyJudge(s *judgetest.Server) func(judgetest.Request) judgetest.Reply {
	var mu sync.Mutex
	calls := map[string]int{}
	return func(r judgetest.Request) judgetest.Reply {
		task, _ := r.Task()["task"].(map[string]any)
		caseID, _ := task["case_id"].(string)
		inv, _ := task["reference_inventory"].([]any)
		first := ""
		if len(inv) > 0 {
			first, _ = inv[0].(map[string]any)["artifact_id"].(string)
		}
		verdict := "pass"
		mu.Lock()
		if first == "r-a" {
			calls[caseID]++
			if caseID == "sample-flip" && calls[caseID] == 2 {
				verdict = "fail"
			}
		}
		mu.Unlock()
		if caseID == "order-flip" && first == "r-b" {
			verdict = "fail"
		}
		b, _ := json.Marshal(map[string]any{"verdict": verdict, "rationale": "read " + first + " first", "confidence": 0.8, "claims": []any{}, "reference_claims": []any{}})
		return s.Text(string(b), 100, 20)
	}
}

// TestEvalJudgeSamplesAndShuffle: --judge-samples 3 asks three times per
// stage, --shuffle-references once more in the second order; the stand-in
// changes its verdict for one sample of one stage and for the second order
// of another, and both land in the agreement member and the review queue.
// A rerun from checkpoints asks nothing: every sample is its own cached call.
func TestEvalJudgeSamplesAndShuffle(t *testing.T) {
	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	oa.Answer = flakyJudge(oa)
	cases := agreementCases(t)
	dir := t.TempDir()
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL()}
	args := []string{"eval", "--cases", cases, "--judge", "openai", "--model", "m", "--judge-samples", "3", "--shuffle-references",
		"--checkpoint-dir", filepath.Join(dir, "ckpt"), "--output", filepath.Join(dir, "r.json"), "--markdown", filepath.Join(dir, "r.md")}
	code, _, errs := runEnv(t, "", env, args...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := oa.Count(); n != 3*(3+1) {
		t.Fatalf("%d judge calls, expected 12 (3 stages × (3 samples + 1 shuffled))", n)
	}
	if p := oa.Problems(); len(p) > 0 {
		t.Fatalf("request shape problems: %v", p)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	var r harness.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	a := r.Agreement
	if a == nil || a.SelfConsistency == nil || a.OrderFlips == nil || a.Panel == nil {
		t.Fatalf("agreement %+v", a)
	}
	sc := a.SelfConsistency.Judges["openai/m"]
	if a.SelfConsistency.Samples != 3 || sc.Count != 1 || sc.N != 3 {
		t.Errorf("self-consistency %+v, expected 1 of 3 stages changed over 3 samples", a.SelfConsistency)
	}
	of := a.OrderFlips
	if of.Count != 1 || of.N != 3 || len(of.Flips) != 1 {
		t.Fatalf("order flips %+v, expected 1 of 3", of)
	}
	f := of.Flips[0]
	if f.CaseID != "order-flip" || f.Verdict != "pass" || f.ShuffledVerdict != "fail" || strings.Join(f.Order, ",") != "r-b,r-a" || f.SeedKey != "docscore-shuffle-references/1|order-flip|order-flip" {
		t.Errorf("flip %+v", f)
	}
	// One judge: α is undefined, with the reason.
	if a.Panel.Alpha.Alpha != nil || a.Panel.Reason != agreement.ReasonNoPairs || len(a.Panel.Judges) != 1 {
		t.Errorf("panel %+v", a.Panel)
	}
	queued := map[string]string{}
	for _, it := range r.ReviewQueue {
		queued[it.CaseID] = it.Reason
	}
	if !strings.Contains(queued["sample-flip"], "verdict changed across 3 samples (pass, fail, pass)") || !strings.Contains(queued["order-flip"], "order flip") {
		t.Errorf("review queue %v", queued)
	}
	if _, ok := queued["stable"]; ok {
		t.Errorf("the stable stage is on the review queue: %v", queued)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "r.md"))
	for _, want := range []string{"## Judge agreement", "| openai/m | 1 of 3 (0.3333) |", "1 of 3 (0.3333) judged stage(s) flipped", "| r-b, r-a | fail |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	// A rerun from the checkpoints asks nothing and reports the same.
	code, _, errs = runEnv(t, "", env, append(args[:len(args)-4], "--output", filepath.Join(dir, "r2.json"))...)
	if code != ExitOK || oa.Count() != 12 {
		t.Fatalf("rerun: exit %d, %d calls (expected none new): %s", code, oa.Count(), errs)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "r2.json"))
	var r2 harness.Report
	json.Unmarshal(again, &r2)
	if b1, _ := json.Marshal(r.Agreement); string(b1) != string(mustJSON(r2.Agreement)) {
		t.Errorf("rerun agreement %s, first %s", mustJSON(r2.Agreement), b1)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func TestEvalJudgeSamplesNeedAJudge(t *testing.T) {
	cases := agreementCases(t)
	for _, args := range [][]string{{"--judge", "none", "--judge-samples", "2"}, {"--judge", "none", "--shuffle-references"}, {"--judge-samples", "0"}, {"--judge-samples", "21"}} {
		code, _, errs := runEnv(t, "", map[string]string{}, append([]string{"eval", "--cases", cases}, args...)...)
		if code != ExitInput || !strings.Contains(errs, "--judge-samples") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestEvalHumanVerdicts compares the judge with a person, worked by hand.
// The stand-in judges c1 pass, c2 pass, c3 fail, c4 uncertain; the person
// decides c1 pass, c2 fail, c3 fail, c4 pass. c4 has no judge rating
// (skipped); over the other three po = 2/3, the judge's marginals are
// pass 2/3, fail 1/3, the person's pass 1/3, fail 2/3, so pe = 2/9 + 2/9 =
// 4/9 and κ = (6/9 − 4/9)/(5/9) = 2/5.
func TestEvalHumanVerdicts(t *testing.T) {
	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	judged := map[string]string{"c1": "pass", "c2": "pass", "c3": "fail", "c4": "uncertain"}
	oa.Answer = func(r judgetest.Request) judgetest.Reply {
		task, _ := r.Task()["task"].(map[string]any)
		id, _ := task["case_id"].(string)
		b, _ := json.Marshal(map[string]any{"verdict": judged[id], "rationale": "as told", "confidence": 0.8, "claims": []any{}, "reference_claims": []any{}})
		return oa.Text(string(b), 100, 20)
	}
	dir := t.TempDir()
	var cases []string
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		cases = append(cases, fmt.Sprintf(`{"case_id": %q, "operation": "classify", "prediction": {"vehicle": "fund"},
  "references": [{"artifact_id": "r-a", "authority": "evidence", "value": "pooled portfolio"}]}`, id))
	}
	casesPath := filepath.Join(dir, "cases.json")
	os.WriteFile(casesPath, []byte(`{"default_metrics": [{"name": "judge", "kind": "llm_judge"}], "cases": [`+strings.Join(cases, ",\n")+`]}`), 0o644)
	people := filepath.Join(dir, "people.json")
	writePeople := func(verdicts string) {
		os.WriteFile(people, []byte(`{"kind": "docscore-human-verdicts", "version": 1, "reviewed_by": "ann@example.org",
 "verdicts": [`+verdicts+`]}`), 0o644)
	}
	writePeople(`{"case_id": "c1", "metric": "judge", "verdict": "pass"},
  {"case_id": "c2", "stage_id": "c2", "metric": "judge", "verdict": "fail", "note": "the reference says pooled"},
  {"case_id": "c3", "metric": "judge", "verdict": "fail"},
  {"case_id": "c4", "metric": "judge", "verdict": "pass"}`)
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL()}
	out, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
	args := []string{"eval", "--cases", casesPath, "--judge", "openai", "--model", "m", "--human-verdicts", people,
		"--checkpoint-dir", filepath.Join(dir, "ckpt"), "--output", out, "--markdown", md}
	if code, _, errs := runEnv(t, "", env, args...); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, _ := os.ReadFile(out)
	var r harness.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Agreement == nil || r.Agreement.HumanSource == nil || r.Agreement.HumanSource.Verdicts != 4 || r.Agreement.HumanSource.ReviewedBy != "ann@example.org" {
		t.Fatalf("agreement %s", mustJSON(r.Agreement))
	}
	k := r.Agreement.Human["openai/m"]
	if k.Kappa == nil || math.Abs(*k.Kappa-0.4) > 1e-12 || k.N != 3 || k.Skipped != 1 || math.Abs(k.Expected-4.0/9) > 1e-12 {
		t.Errorf("κ %s", mustJSON(k))
	}
	want := []agreement.Cell{{Judge: "fail", Human: "fail", N: 1}, {Judge: "pass", Human: "fail", N: 1}, {Judge: "pass", Human: "pass", N: 1}}
	if !reflect.DeepEqual(k.Confusion, want) {
		t.Errorf("confusion %+v", k.Confusion)
	}
	m, _ := os.ReadFile(md)
	for _, s := range []string{"Judges against people: 4 human verdict(s) by ann@example.org", "| openai/m | 0.4 | 3 | 1 | 0.6667 | 0.4444 |", "| openai/m | `pass` | `fail` | 1 |"} {
		if !strings.Contains(string(m), s) {
			t.Errorf("Markdown lacks %q:\n%s", s, m)
		}
	}
	calls := oa.Count()
	// Errors name the file and the line; none costs a call.
	tests := []struct{ verdicts, want string }{
		{`{"case_id": "c9", "metric": "judge", "verdict": "pass"}`, `people.json:2:15: verdicts[0]: no stage of the report`},
		{`{"case_id": "c1", "metric": "exact", "verdict": "pass"}`, `no metric "exact"`},
		{`{"case_id": "c1", "metric": "judge", "verdict": "uncertain"}`, `expected one of pass, fail, not_applicable`},
		{`{"case_id": "c1", "metric": "judge", "verdict": "pass"}, {"case_id": "c1", "metric": "judge", "verdict": "fail"}`, "decided twice"},
	}
	for _, tc := range tests {
		writePeople(tc.verdicts)
		code, _, errs := runEnv(t, "", env, args...)
		if code != ExitInput || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.verdicts, code, errs, tc.want)
		}
	}
	// No verdicts: "human" absent, the reason given.
	writePeople(``)
	if code, _, errs := runEnv(t, "", env, args...); code != ExitOK {
		t.Fatalf("no verdicts: exit %d: %s", code, errs)
	}
	data, _ = os.ReadFile(out)
	if strings.Contains(string(data), `"human":`) || !strings.Contains(string(data), `"human_reason": "`+harness.ReasonNoHumanVerdicts+`"`) {
		t.Errorf("no verdicts: %s", data)
	}
	if oa.Count() != calls {
		t.Errorf("%d calls after the first run, expected none (checkpoints)", oa.Count()-calls)
	}
}
