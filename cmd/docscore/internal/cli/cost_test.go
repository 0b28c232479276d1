package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/scoring/harness"
)

// judgedCases writes a cases file of n cases, each decided by the judge
// alone (one call per case).
func judgedCases(t *testing.T, n int) string {
	t.Helper()
	var cases []any
	for i := 1; i <= n; i++ {
		cases = append(cases, map[string]any{
			"case_id": fmt.Sprintf("case-%02d", i), "operation": "classify",
			"prediction": map[string]any{"vehicle": "fund"},
			"references": []any{map[string]any{"artifact_id": "truth", "authority": "ground_truth", "comparison_mode": "semantic", "value": map[string]any{"vehicle": "fund"}}},
		})
	}
	b, _ := json.Marshal(map[string]any{
		"operation_metrics": map[string]any{"classify": []any{map[string]any{"name": "judge", "kind": "llm_judge"}}},
		"cases":             cases,
	})
	p := filepath.Join(t.TempDir(), "cases.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// answerWithUsage answers every judge request (every claim supported)
// and reports in input and out output tokens.
func answerWithUsage(s *judgetest.Server, in, out int) func(judgetest.Request) judgetest.Reply {
	return func(r judgetest.Request) judgetest.Reply {
		task, _ := r.Task()["task"].(map[string]any)
		claims := []any{}
		for _, c := range task["prediction_claims"].([]any) {
			claims = append(claims, map[string]any{"claim_id": c.(map[string]any)["claim_id"], "status": "supported", "reference_id": nil, "evidence": "seen"})
		}
		b, _ := json.Marshal(map[string]any{"verdict": "pass", "rationale": "ok", "confidence": 0.9, "claims": claims, "reference_claims": []any{}})
		return s.Text(string(b), in, out)
	}
}

func readReport(t *testing.T, path string) harness.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r harness.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func cents(v float64) int64 { return int64(math.Round(v * 100)) }

// gpt-5-mini in the bundled table: $0.25 input, $2.00 output per million.
const miniIn, miniOut = 0.25, 2.00

// TestCostCeilingBelowEstimateRefusesToStart: the estimate is printed
// before any call, and a ceiling below it exits 2 with no call made.
func TestCostCeilingBelowEstimateRefusesToStart(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			oa := judgetest.NewOpenAI(openaiKey)
			defer oa.Close()
			an := judgetest.NewAnthropic(anthropicKey)
			defer an.Close()
			oa.Answer, an.Answer = judgeAnswer(oa), judgeAnswer(an)
			env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL(), "ANTHROPIC_API_KEY": anthropicKey, "ANTHROPIC_BASE_URL": an.BaseURL()}
			model := map[string]string{"openai": "gpt-5-mini", "anthropic": "claude-haiku-4-5"}[provider]
			out := filepath.Join(t.TempDir(), "report.json")
			code, _, errs := runEnv(t, "", env, "eval", "--cases", judgedCases(t, 4), "--judge", provider, "--model", model, "--max-cost", "0.01", "--output", out)
			if code != ExitInput || !strings.Contains(errs, "estimated cost before any call") || !strings.Contains(errs, "exceeds it; no call was made") {
				t.Fatalf("exit %d, stderr %s", code, errs)
			}
			if n := oa.Count() + an.Count(); n != 0 {
				t.Errorf("%d call(s) made", n)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a report was written")
			}
		})
	}
}

// TestCostCeilingReachedMidRun: the stand-in reports more tokens than the
// estimate, so the ceiling is reached during the run: calls stop, the
// report lists the cases left as not judged (no score, not checkpointed)
// and is incomplete, the exit status is 1; a rerun with a higher ceiling
// judges only those.
func TestCostCeilingReachedMidRun(t *testing.T) {
	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	const in, outTok = 20000, 8000 // $0.021 a call, above the ~$0.0167 upper bound
	oa.Answer = answerWithUsage(oa, in, outTok)
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL()}
	dir := t.TempDir()
	cases := judgedCases(t, 6)
	out, md := filepath.Join(dir, "report.json"), filepath.Join(dir, "report.md")
	args := []string{"eval", "--cases", cases, "--judge", "openai", "--model", "gpt-5-mini", "--output", out, "--markdown", md, "--checkpoint-dir", filepath.Join(dir, "ckpt")}
	code, _, errs := runEnv(t, "", env, append(args, "--max-cost", "0.105")...)
	if code != ExitFailure || !strings.Contains(errs, "run incomplete") || !strings.Contains(errs, "cost ceiling --max-cost $0.1050 reached") {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	r := readReport(t, out)
	made := oa.Count()
	if made < 1 || made >= 6 || !r.Incomplete || len(r.NotJudged) != 6-made {
		t.Fatalf("%d call(s) made, incomplete %v, not judged %+v", made, r.Incomplete, r.NotJudged)
	}
	perCall := (in*miniIn + outTok*miniOut) / 1e6
	// Every answered call was issued while spent + in flight + its bound
	// stayed under the ceiling.
	upper := r.JudgeUsage.Estimated.CostUSD / float64(r.JudgeUsage.Estimated.Calls)
	if spentBefore := float64(made-1) * perCall; spentBefore+upper > 0.105 {
		t.Errorf("call %d was issued with $%.4f spent and a $%.4f bound", made, spentBefore, upper)
	}
	if float64(made)*perCall+upper <= 0.105 {
		t.Errorf("stopped after %d calls although another fitted", made)
	}
	asked := map[string]bool{}
	for _, q := range oa.Requests() {
		task, _ := q.Task()["task"].(map[string]any)
		asked[fmt.Sprint(task["stage_id"])] = true
	}
	for _, it := range r.NotJudged {
		if asked[it.StageID] || !strings.Contains(it.Reason, "not judged: cost ceiling") || it.Metric != "judge" {
			t.Errorf("not judged %+v (asked %v)", it, asked[it.StageID])
		}
	}
	for _, c := range r.Cases {
		nj := len(c.Metrics) == 1 && c.Metrics[0].NotJudged
		if nj && (len(c.Scores) != 0 || c.Verdict != "uncertain") {
			t.Errorf("a case not judged was scored: %+v", c)
		}
		if !nj && c.Verdict != "pass" {
			t.Errorf("case %s: %s", c.CaseID, c.Verdict)
		}
	}
	mdText, _ := os.ReadFile(md)
	if !strings.Contains(string(mdText), "## Not judged") || !strings.Contains(string(mdText), "**Incomplete run**") || !strings.Contains(string(mdText), r.NotJudged[0].StageID) {
		t.Errorf("markdown:\n%s", mdText)
	}
	// The rerun asks only for what was not judged.
	code, _, errs = runEnv(t, "", env, append(args, "--max-cost", "10")...)
	if code != ExitOK || oa.Count() != 6 {
		t.Fatalf("rerun: exit %d, %d call(s) in all, stderr %s", code, oa.Count(), errs)
	}
	// The judged stages come from their checkpoints; only the rest is
	// estimated and called.
	if r := readReport(t, out); r.Incomplete || r.Summary.Pass != 6 || r.JudgeUsage.Calls != 6-made || r.JudgeUsage.Estimated.Calls != 6-made {
		t.Errorf("rerun: incomplete %v summary %+v usage %+v", r.Incomplete, r.Summary, r.JudgeUsage)
	}
}

// TestCostEstimatedAndActualToTheCent: the report's actual cost is the
// stand-in's usage times the table's prices, exactly; the estimate is the
// estimated tokens times the same prices; JSON and Markdown show both per
// provider/model.
func TestCostEstimatedAndActualToTheCent(t *testing.T) {
	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	an := judgetest.NewAnthropic(anthropicKey)
	defer an.Close()
	oa.Answer, an.Answer = answerWithUsage(oa, 1234, 567), answerWithUsage(an, 2345, 678)
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL(), "ANTHROPIC_API_KEY": anthropicKey, "ANTHROPIC_BASE_URL": an.BaseURL()}
	for _, tc := range []struct {
		provider, model string
		srv             *judgetest.Server
		in, out         int
		pin, pout       float64
	}{
		{"openai", "gpt-5-mini", oa, 1234, 567, miniIn, miniOut},
		{"anthropic", "claude-sonnet-4-5", an, 2345, 678, 3.00, 15.00},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			dir := t.TempDir()
			out, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
			code, _, errs := runEnv(t, "", env, "eval", "--cases", judgedCases(t, 7), "--judge", tc.provider, "--model", tc.model, "--max-output-tokens", "1000", "--max-cost", "5", "--output", out, "--markdown", md)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			r := readReport(t, out)
			u := r.JudgeUsage
			if u == nil || len(u.ByModel) != 1 || u.Calls != 7 || tc.srv.Count() != 7 {
				t.Fatalf("usage %+v, %d request(s)", u, tc.srv.Count())
			}
			m := u.ByModel[0]
			actual := 7 * (float64(tc.in)*tc.pin + float64(tc.out)*tc.pout) / 1e6
			if m.Usage.CostUSD == nil || math.Abs(*m.Usage.CostUSD-actual) > 1e-12 || cents(*m.Usage.CostUSD) != cents(actual) || m.Usage.InputTokens != int64(7*tc.in) {
				t.Errorf("actual %v, want usage × price = %v", m.Usage.CostUSD, actual)
			}
			e := m.Estimated
			if e == nil || e.Calls != 7 || e.OutputTokens != 7000 {
				t.Fatalf("estimate %+v", e)
			}
			want := (float64(e.InputTokens)*tc.pin + float64(e.OutputTokens)*tc.pout) / 1e6
			if math.Abs(e.CostUSD-want) > 1e-12 || *u.MaxCostUSD != 5 || !strings.Contains(u.PriceTable, "written 2026-12-02") {
				t.Errorf("estimate %+v, want $%v; summary %+v", e, want, u)
			}
			if !strings.Contains(errs, fmt.Sprintf("$%.4f", e.CostUSD)) {
				t.Errorf("stderr lacks the estimate $%.4f: %s", e.CostUSD, errs)
			}
			// Every request carried the output bound the estimate used.
			for _, q := range tc.srv.Requests()[tc.srv.Count()-7:] {
				k := map[string]string{"openai": "max_output_tokens", "anthropic": "max_tokens"}[tc.provider]
				if q.JSON[k] != float64(1000) {
					t.Errorf("%s = %v", k, q.JSON[k])
				}
			}
			b, _ := os.ReadFile(md)
			row := fmt.Sprintf("| %s | %s | 7 | 0 | 7 | $%.4f | $%.4f |", tc.provider, tc.model, e.CostUSD, actual)
			if !strings.Contains(string(b), row) {
				t.Errorf("markdown lacks %q:\n%s", row, b)
			}
		})
	}
}

// TestCostUnknownModel: a model the price table lacks is an error naming
// it and the table with --max-cost (exit 2, no call), a warning without.
func TestCostUnknownModel(t *testing.T) {
	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	oa.Answer = judgeAnswer(oa)
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL()}
	cases := judgedCases(t, 2)
	prices := filepath.Join(t.TempDir(), "my-prices.toml")
	os.WriteFile(prices, []byte("written = 2026-12-01\n[[model]]\nprovider = \"openai\"\nmodel = \"gpt-house\"\ninput = 1\noutput = 2\n"), 0o644)
	for _, args := range [][]string{
		{"--model", "gpt-unpriced", "--max-cost", "5"},
		{"--model", "gpt-5-mini", "--max-cost", "5", "--prices", prices},
	} {
		code, _, errs := runEnv(t, "", env, append([]string{"eval", "--cases", cases, "--judge", "openai", "--output", filepath.Join(t.TempDir(), "r.json")}, args...)...)
		if code != ExitInput || !strings.Contains(errs, "model openai/"+args[1]+" is not in the ") || !strings.Contains(errs, "--prices FILE") {
			t.Errorf("%v: exit %d, stderr %s", args, code, errs)
		}
		if len(args) > 4 && !strings.Contains(errs, prices) {
			t.Errorf("the error does not name %s: %s", prices, errs)
		}
	}
	if oa.Count() != 0 {
		t.Errorf("%d call(s) made", oa.Count())
	}
	code, _, errs := runEnv(t, "", env, "eval", "--cases", cases, "--judge", "openai", "--model", "gpt-unpriced", "--output", filepath.Join(t.TempDir(), "r.json"))
	if code != ExitOK || !strings.Contains(errs, "warning: model openai/gpt-unpriced is not in the bundled price table") || oa.Count() != 2 {
		t.Errorf("without a ceiling: exit %d, %d call(s), stderr %s", code, oa.Count(), errs)
	}
	// The house model is priced from the given table.
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, errs = runEnv(t, "", env, "eval", "--cases", cases, "--judge", "openai", "--model", "gpt-house", "--prices", prices, "--max-cost", "5", "--output", out)
	if code != ExitOK || !strings.Contains(errs, prices+" written 2026-12-01") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if u := readReport(t, out).JudgeUsage; u.Total.CostUSD == nil || math.Abs(*u.Total.CostUSD-2*(500*1+50*2)/1e6) > 1e-12 {
		t.Errorf("usage %+v", u)
	}
}

// TestCostBadPriceFile: a bad price file is an error naming the file and
// the line (exit 2), before any call.
func TestCostBadPriceFile(t *testing.T) {
	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	oa.Answer = judgeAnswer(oa)
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL()}
	dir := t.TempDir()
	for name, tc := range map[string]struct{ text, want string }{
		"syntax":   {"written = 2026-12-01\n[[model]]\nprovider = \"openai\"\ninput = = 1\n", ":4:"},
		"negative": {"written = 2026-12-01\n[[model]]\nprovider = \"openai\"\nmodel = \"gpt-5-mini\"\ninput = -1\noutput = 2\n", ":5:1: [[model]] 1: input = -1"},
		"unknown":  {"written = 2026-12-01\n[[model]]\nprovider = \"openai\"\nmodel = \"gpt-5-mini\"\ninput = 1\noutput = 2\nouput_cached = 3\n", ":7:1: unknown key \"model.ouput_cached\""},
	} {
		p := filepath.Join(dir, name+".toml")
		os.WriteFile(p, []byte(tc.text), 0o644)
		code, _, errs := runEnv(t, "", env, "eval", "--cases", judgedCases(t, 1), "--judge", "openai", "--model", "gpt-5-mini", "--prices", p)
		if code != ExitInput || !strings.Contains(errs, p+tc.want) {
			t.Errorf("%s: exit %d, stderr %s", name, code, errs)
		}
	}
	if oa.Count() != 0 {
		t.Errorf("%d call(s) made", oa.Count())
	}
}

// TestCostReviewReceipts: review receipts refuses to start above the
// ceiling (no call); stopped mid-run it marks the pages left not judged,
// writes the review with its usage and estimate, and exits 1.
func TestCostReviewReceipts(t *testing.T) {
	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	const in, outTok = 20000, 8000
	oa.Answer = func(r judgetest.Request) judgetest.Reply {
		b, _ := json.Marshal(map[string]any{"verdict": "fail", "rationale": "numbers missing", "confidence": 0.8, "claims": []any{}, "reference_claims": []any{}})
		return oa.Text(string(b), in, outTok)
	}
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL()}
	out := filepath.Join(t.TempDir(), "review.json")
	args := []string{"review", "receipts", "--run", sampleFile("run.jsonl"), "--refs", sampleFile("refs"), "--lowest", "4", "--judge", "openai", "--model", "gpt-5-mini", "--out", out}
	code, _, errs := runEnv(t, "", env, append(args, "--max-cost", "0.001")...)
	if code != ExitInput || oa.Count() != 0 || !strings.Contains(errs, "no call was made") {
		t.Fatalf("exit %d, %d call(s), stderr %s", code, oa.Count(), errs)
	}
	code, _, errs = runEnv(t, "", env, append(args, "--max-cost", "0.07")...)
	if code != ExitFailure || !strings.Contains(errs, "run incomplete") {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	b, _ := os.ReadFile(out)
	var rep struct {
		Incomplete bool `json:"incomplete"`
		Pages      []struct {
			Verdict   string   `json:"verdict"`
			NotJudged string   `json:"not_judged"`
			Prob      *float64 `json:"probability"`
		} `json:"pages"`
		Usage struct {
			Calls     int `json:"calls"`
			Estimated struct {
				Calls int `json:"calls"`
			} `json:"estimated"`
			Total struct {
				CostUSD float64 `json:"cost_usd"`
			} `json:"total"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	made := oa.Count()
	notJudged := 0
	for _, p := range rep.Pages {
		if p.NotJudged != "" {
			notJudged++
			if p.Verdict != "uncertain" || p.Prob != nil {
				t.Errorf("page not judged: %+v", p)
			}
		}
	}
	perCall := (in*miniIn + outTok*miniOut) / 1e6
	if !rep.Incomplete || made < 1 || made+notJudged != 4 || rep.Usage.Calls != made || rep.Usage.Estimated.Calls != 4 ||
		math.Abs(rep.Usage.Total.CostUSD-float64(made)*perCall) > 1e-12 {
		t.Errorf("%d made, %d not judged; review %s", made, notJudged, b)
	}
}
