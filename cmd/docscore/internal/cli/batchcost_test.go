package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/internal/testkit"
)

var estimateLine = regexp.MustCompile(`estimated cost before any call( \(batch, at the batch price\))?: \$([0-9.]+)`)

// estimated reads the estimate line of a run's standard error.
func estimated(t *testing.T, errs string) (batch bool, usd float64) {
	t.Helper()
	m := estimateLine.FindStringSubmatch(errs)
	if m == nil {
		t.Fatalf("no estimate line in\n%s", errs)
	}
	v, err := strconv.ParseFloat(m[2], 64)
	if err != nil {
		t.Fatal(err)
	}
	return m[1] != "", v
}

// TestEvalBatchMaxCost: in batch mode the estimate is at the batch price
// and says so; a ceiling below it refuses to start with exit 2, no batch
// created and nothing uploaded or written to the checkpoint directory; a
// ceiling between the batch and the direct estimate refuses the direct run
// and lets the batch run, whose report carries the estimate (batch), the
// batch calls and their cost at the table's batch price.
func TestEvalBatchMaxCost(t *testing.T) {
	for _, tc := range []struct {
		provider, model, keyVar, baseVar, key string
		in, out                               float64 // the table's prices
	}{
		{"openai", "gpt-5-mini", "OPENAI_API_KEY", "OPENAI_BASE_URL", openaiKey, 0.25, 2},
		{"anthropic", "claude-haiku-4-5", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", anthropicKey, 1, 5},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			dir := t.TempDir()
			cases := batchCases(t, dir, 5)
			var direct *judgetest.Server
			var batch *judgetest.BatchServer
			if tc.provider == "openai" {
				direct, batch = judgetest.NewOpenAI(tc.key), judgetest.NewOpenAIBatch(tc.key)
			} else {
				direct, batch = judgetest.NewAnthropic(tc.key), judgetest.NewAnthropicBatch(tc.key)
			}
			defer direct.Close()
			defer batch.Close()
			direct.Answer = judgeAnswer(direct)
			batch.Answer = batchAnswers(nil)
			run := func(base, ceiling, ck string, extra ...string) (int, string) {
				t.Helper()
				env := map[string]string{tc.keyVar: tc.key, tc.baseVar: base, envBatchPoll: "1ms"}
				code, _, errs := runEnv(t, "", env, append([]string{"eval", "--cases", cases, "--judge", tc.provider, "--model", tc.model,
					"--max-cost", ceiling, "--checkpoint-dir", filepath.Join(dir, ck), "--output", filepath.Join(dir, ck+".json")}, extra...)...)
				return code, errs
			}
			// A ceiling below any estimate.
			code, errs := run(direct.BaseURL(), "0.0001", "direct")
			isBatch, directUSD := estimated(t, errs)
			if code != ExitInput || isBatch || direct.Count() != 0 {
				t.Fatalf("direct: exit %d, batch %v, %d calls\n%s", code, isBatch, direct.Count(), errs)
			}
			code, errs = run(batch.BaseURL(), "0.0001", "refused", "--batch")
			isBatch, batchUSD := estimated(t, errs)
			if code != ExitInput || !isBatch || !bytes.Contains([]byte(errs), []byte("no call was made")) {
				t.Fatalf("batch: exit %d, batch %v\n%s", code, isBatch, errs)
			}
			if batch.Creations() != 0 || len(batch.Requests()) != 0 || len(batch.Files()) != 0 {
				t.Errorf("refused batch run: %d creations, %d requests, %d files", batch.Creations(), len(batch.Requests()), len(batch.Files()))
			}
			filepath.WalkDir(filepath.Join(dir, "refused"), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					t.Errorf("the refused run wrote %s", p)
				}
				return nil
			})
			// Both tables' entries give batch_discount 0.5.
			if directUSD <= 0 || math.Abs(batchUSD-directUSD/2) > 0.0001 {
				t.Fatalf("estimates: direct $%v, batch $%v", directUSD, batchUSD)
			}
			// Between the two: the direct run is refused, the batch runs.
			ceiling := fmt.Sprint((batchUSD + directUSD) / 2)
			if code, errs = run(direct.BaseURL(), ceiling, "direct2"); code != ExitInput || direct.Count() != 0 {
				t.Fatalf("direct under %s: exit %d\n%s", ceiling, code, errs)
			}
			if code, errs = run(batch.BaseURL(), ceiling, "batch", "--batch"); code != ExitOK || batch.Creations() != 1 || len(batch.Answered()) != 5 {
				t.Fatalf("batch under %s: exit %d, %d creations\n%s", ceiling, code, batch.Creations(), errs)
			}
			u := readReport(t, filepath.Join(dir, "batch.json")).JudgeUsage
			if u == nil || u.Estimated == nil || !u.Estimated.Batch || u.BatchCalls != 5 || u.Calls != 5 || u.MaxCostUSD == nil || u.Total.CostUSD == nil {
				t.Fatalf("judge_usage %+v", u)
			}
			if len(u.ByModel) != 1 || u.ByModel[0].Estimated == nil || !u.ByModel[0].Estimated.Batch || u.ByModel[0].BatchCalls != 5 {
				t.Errorf("by_model %+v", u.ByModel)
			}
			// batchAnswers reports 500 input and 50 output tokens an item.
			in, out := tc.in, tc.out
			if want := 5 * (500*in + 50*out) / 1e6 * 0.5; math.Abs(*u.Total.CostUSD-want) > 1e-12 {
				t.Errorf("actual cost $%v, want $%v (batch price)", *u.Total.CostUSD, want)
			}
		})
	}
}

// TestGroundTruthGenerateBatch: groundtruth generate --batch with an
// OpenAI and an Anthropic provider and --adjudicate (two rounds of
// batches: the first reading, then the blind second reading of the
// disputed field) writes the same report, review file and reference as the
// direct calls, but for the usage, which says batch and costs half.
func TestGroundTruthGenerateBatch(t *testing.T) {
	dir := t.TempDir()
	rig := newGTBatchRig(t, dir)
	oa, an, boa, ban := rig.oa, rig.an, rig.boa, rig.ban
	generate := func(name, openaiBase, anthropicBase string, extra ...string) {
		t.Helper()
		if code, errs := rig.generate(name, openaiBase, anthropicBase, extra...); code != ExitOK {
			t.Fatalf("%s: exit %d\n%s", name, code, errs)
		}
	}
	generate("direct", oa.BaseURL(), an.BaseURL())
	generate("batch", boa.BaseURL(), ban.BaseURL(), "--batch")
	if oa.Count() != 2 || an.Count() != 2 || boa.Creations() != 2 || ban.Creations() != 2 || len(boa.Answered()) != 2 || len(ban.Answered()) != 2 {
		t.Errorf("direct calls %d+%d, batches %d+%d, batch answers %d+%d", oa.Count(), an.Count(), boa.Creations(), ban.Creations(), len(boa.Answered()), len(ban.Answered()))
	}
	if p := append(append(oa.Problems(), an.Problems()...), append(boa.Problems(), ban.Problems()...)...); len(p) > 0 {
		t.Errorf("request shape problems: %v", p)
	}
	for _, f := range []string{"-review.json", "-reference.csv"} {
		if a, b := mustRead(t, filepath.Join(dir, "direct"+f)), mustRead(t, filepath.Join(dir, "batch"+f)); !bytes.Equal(a, b) {
			t.Errorf("%s differs:\n%s\n---\n%s", f, a, b)
		}
	}
	// The readings' own usage costs half in batch mode; the rest is equal.
	a, b := testkit.ReadJSONObject(t, filepath.Join(dir, "direct.json")), testkit.ReadJSONObject(t, filepath.Join(dir, "batch.json"))
	ua, ub := a["usage"].(map[string]any), b["usage"].(map[string]any)
	if n := halvedUsage(t, a, b); n != 5 {
		t.Errorf("%d usage members compared, want 5 (the run's and 4 readings')", n)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the batch report differs from the direct one beyond usage")
	}
	if agreed, _ := a["agreed"].([]any); len(agreed) != 2 {
		t.Errorf("agreed %v: the adjudication did not settle the amount", a["agreed"])
	}
	ca := ua["total"].(map[string]any)["cost_usd"].(float64)
	cb := ub["total"].(map[string]any)["cost_usd"].(float64)
	if ub["calls"] != 4.0 || ub["batch_calls"] != 4.0 || ua["batch_calls"] != nil || math.Abs(cb-ca/2) > 1e-12 || ub["estimated"].(map[string]any)["batch"] != true {
		t.Errorf("usage: direct %v, batch %v", ua, ub)
	}
	// A rerun submits nothing.
	generate("batch", boa.BaseURL(), ban.BaseURL(), "--batch")
	if boa.Creations() != 2 || ban.Creations() != 2 {
		t.Errorf("rerun created batches: %d+%d", boa.Creations(), ban.Creations())
	}
}

// gtBatchRig is a ground-truth panel of an OpenAI and an Anthropic
// provider, each with a direct and a batch stand-in: both read EUR; the
// first reading of the amount differs (1,250.00 and 1,250.50), the blind
// second reading (disputed_paths) gives 1,250.00 on both.
type gtBatchRig struct {
	t        *testing.T
	dir      string
	oa, an   *judgetest.Server
	boa, ban *judgetest.BatchServer
}

func newGTBatchRig(t *testing.T, dir string) *gtBatchRig {
	reading := func(r judgetest.Request, first string) string {
		task := r.Task()
		src := task["sources"].([]any)[0].(map[string]any)["artifact_id"].(string)
		claim := func(path, value string) map[string]any {
			return map[string]any{"path": path, "value": value, "reference_id": src, "visual_evidence": "top right", "confidence": 0.9}
		}
		claims := []any{claim("$.currency", "EUR"), claim("$.amount", first)}
		if _, second := task["disputed_paths"]; second {
			claims = []any{claim("$.amount", "1,250.00")}
		}
		b, _ := json.Marshal(map[string]any{"claims": claims})
		return string(b)
	}
	firsts := map[string]string{"openai": "1,250.00", "anthropic": "1,250.50"}
	g := &gtBatchRig{t: t, dir: dir, oa: judgetest.NewOpenAI(openaiKey), an: judgetest.NewAnthropic(anthropicKey),
		boa: judgetest.NewOpenAIBatch(openaiKey), ban: judgetest.NewAnthropicBatch(anthropicKey)}
	for _, c := range []interface{ Close() }{g.oa, g.an, g.boa, g.ban} {
		t.Cleanup(c.Close)
	}
	g.oa.Answer = func(r judgetest.Request) judgetest.Reply { return g.oa.Text(reading(r, firsts["openai"]), 900, 40) }
	g.an.Answer = func(r judgetest.Request) judgetest.Reply { return g.an.Text(reading(r, firsts["anthropic"]), 900, 40) }
	g.boa.Answer = func(_ string, r judgetest.Request) judgetest.BatchReply {
		return judgetest.BatchReply{Text: reading(r, firsts["openai"]), In: 900, Out: 40}
	}
	g.ban.Answer = func(_ string, r judgetest.Request) judgetest.BatchReply {
		return judgetest.BatchReply{Text: reading(r, firsts["anthropic"]), In: 900, Out: 40}
	}
	return g
}

// generate runs groundtruth generate --adjudicate as name (its checkpoint
// directory and outputs are named after it).
func (g *gtBatchRig) generate(name, openaiBase, anthropicBase string, extra ...string) (int, string) {
	g.t.Helper()
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": openaiBase,
		"ANTHROPIC_API_KEY": anthropicKey, "ANTHROPIC_BASE_URL": anthropicBase, envBatchPoll: "1ms"}
	code, _, errs := runEnv(g.t, "", env, append([]string{"groundtruth", "generate", "--case-id", "statement-001",
		"--source", filepath.Join(pages, "page-001.png"), "--source", filepath.Join(pages, "page-002.png"),
		"--instruction", "Extract currency and amount.", "--field", "$.currency", "--field", "$.amount",
		"--provider", "openai:gpt-5-mini", "--provider", "anthropic:claude-haiku-4-5", "--adjudicate",
		"--checkpoint-dir", filepath.Join(g.dir, name+"-ck"), "--output", filepath.Join(g.dir, name+".json"),
		"--review-file", filepath.Join(g.dir, name+"-review.json"), "--reference", filepath.Join(g.dir, name+"-reference.csv")}, extra...)...)
	return code, errs
}

// costOf is a usage member's cost: a summary's total, or a call's.
func costOf(u map[string]any) float64 {
	if total, ok := u["total"].(map[string]any); ok {
		u = total
	}
	c, _ := u["cost_usd"].(float64)
	return c
}

// halvedUsage checks that every nested usage member of the batch value b
// costs half its counterpart in the direct value a, deletes both, and
// returns how many it compared.
func halvedUsage(t *testing.T, a, b any) int {
	t.Helper()
	n := 0
	switch av := a.(type) {
	case map[string]any:
		bv, _ := b.(map[string]any)
		if ua, ok := av["usage"].(map[string]any); ok {
			ub, _ := bv["usage"].(map[string]any)
			ca, cb := costOf(ua), costOf(ub)
			if ca <= 0 || math.Abs(cb-ca/2) > 1e-12 {
				t.Errorf("usage: direct %v, batch %v", ua, ub)
			}
			delete(av, "usage")
			delete(bv, "usage")
			n++
		}
		for k := range av {
			n += halvedUsage(t, av[k], bv[k])
		}
	case []any:
		bv, _ := b.([]any)
		for i := range av {
			if i < len(bv) {
				n += halvedUsage(t, av[i], bv[i])
			}
		}
	}
	return n
}

// TestGroundTruthGenerateBatchCeilingMidRun: groundtruth generate --batch
// --adjudicate with a ceiling the first reading fits under but the second
// does not. The estimate covers the first reading only (two requests at
// their max_output_tokens bound, batch price), so a ceiling just above it
// lets the first round of batches run; its answers cost far less than
// their bound, but the second reading of the disputed amount reserves the
// bound again for each provider, and the second reservation passes the
// ceiling: the run stops with exit 1 naming the ceiling, and writes no
// report, review file or reference. A rerun with room to spare creates
// only the batch the ceiling refused, pays for nothing twice, and writes
// what an uncapped batch run writes.
func TestGroundTruthGenerateBatchCeilingMidRun(t *testing.T) {
	dir := t.TempDir()
	rig := newGTBatchRig(t, dir)
	creations := func() int { return rig.boa.Creations() + rig.ban.Creations() }
	// Items answered, counting each answer (custom ids repeat across runs:
	// they are keyed by the request).
	answered := func() int {
		n := 0
		for _, m := range []map[string]int{rig.boa.Answered(), rig.ban.Answered()} {
			for _, c := range m {
				n += c
			}
		}
		return n
	}
	// The uncapped batch run: 2 batches a round, 4 items answered.
	if code, errs := rig.generate("uncapped", rig.boa.BaseURL(), rig.ban.BaseURL(), "--batch", "--max-cost", "10"); code != ExitOK || creations() != 4 || answered() != 4 {
		t.Fatalf("uncapped: exit %d, %d creations, %d answered\n%s", code, creations(), answered(), errs)
	}
	// The estimate, from a run the ceiling refuses before any call.
	code, errs := rig.generate("estimate", rig.boa.BaseURL(), rig.ban.BaseURL(), "--batch", "--max-cost", "0.000001")
	isBatch, est := estimated(t, errs)
	if code != ExitInput || !isBatch || creations() != 4 {
		t.Fatalf("estimate: exit %d, batch %v, %d creations\n%s", code, isBatch, creations(), errs)
	}
	// Just above the printed (rounded to $0.0001) estimate.
	ceiling := fmt.Sprintf("%.5f", est+0.00005)
	code, errs = rig.generate("capped", rig.boa.BaseURL(), rig.ban.BaseURL(), "--batch", "--max-cost", ceiling)
	if code != ExitFailure || !regexp.MustCompile(`run incomplete: 1 item\(s\) not judged \(cost ceiling --max-cost \$[0-9.]+ reached: \$[0-9.]+ spent, \$[0-9.]+ in flight, and a call to [a-z/0-9.-]+ \(batch\) may cost up to \$[0-9.]+\); nothing was written`).MatchString(errs) {
		t.Fatalf("capped at $%s: exit %d\n%s", ceiling, code, errs)
	}
	// The first round's two batches and one of the second round's: the
	// first reservation of the second round fits, the second does not.
	if creations() != 4+3 || answered() != 4+3 {
		t.Errorf("capped: %d creations, %d answered after the uncapped run's 4 and 4; want 3 more of each", creations()-4, answered()-4)
	}
	for _, f := range []string{"capped.json", "capped-review.json", "capped-reference.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("the stopped run wrote %s (%v)", f, err)
		}
	}
	// The rerun with room: one batch more (the refused one), one item more.
	if code, errs = rig.generate("capped", rig.boa.BaseURL(), rig.ban.BaseURL(), "--batch", "--max-cost", "10"); code != ExitOK {
		t.Fatalf("rerun: exit %d\n%s", code, errs)
	}
	if creations() != 4+4 || answered() != 4+4 {
		t.Errorf("rerun: %d creations, %d answered in all after the uncapped run; want 4 and 4 (nothing paid twice)", creations()-4, answered()-4)
	}
	for _, f := range []string{"-review.json", "-reference.csv"} {
		if a, b := mustRead(t, filepath.Join(dir, "uncapped"+f)), mustRead(t, filepath.Join(dir, "capped"+f)); !bytes.Equal(a, b) {
			t.Errorf("%s differs from the uncapped run's:\n%s\n---\n%s", f, a, b)
		}
	}
}
