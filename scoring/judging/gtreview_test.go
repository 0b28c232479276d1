package judging

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/evalcase"
)

func TestAdvisoryReview(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	pages := []AdvisoryPage{
		{SampleID: "s3", Phase: "c1", F1: f(0.9), NumericRecall: f(1), Output: "ok", Reference: "ok"},
		{SampleID: "s1", Phase: "c1", F1: f(0.2), NumericRecall: f(0.5), MissingNumbers: []string{"79,300"}, Output: "TOTAL 79,500", Reference: "TOTAL 79,300"},
		{SampleID: "s2", Phase: "c1", F1: f(0.2), NumericRecall: nil, Output: "x", Reference: "y"},
		{SampleID: "s0", Phase: "c1", F1: nil, Output: "", Reference: ""},
		{SampleID: "s4", Phase: "c4", F1: f(0.5), NumericRecall: f(0), Output: "a", Reference: "b"},
	}
	low := LowestOverlapPages(pages, 3)
	var ids []string
	for _, p := range low {
		ids = append(ids, p.SampleID)
	}
	if strings.Join(ids, " ") != "s1 s2 s4" {
		t.Errorf("lowest %v", ids)
	}
	calls := 0
	judge := JudgeFunc(func(_ context.Context, req JudgeRequest) (JudgeOutput, error) {
		calls++
		if req.Task.CaseID == "s2" {
			return ParseJudgeOutput([]byte("unsure"))
		}
		if req.Task.Rubric != ReceiptReviewRubric || !strings.Contains(fmt.Sprint(req.Task.Prediction), "79,500") {
			t.Errorf("task %+v", req.Task)
		}
		return JudgeOutput{Verdict: evalcase.Fail, Rationale: "79,300 misread as 79,500", Confidence: 0.85, Claims: []ClaimJudgment{}, ReferenceClaims: []ReferenceClaimJudgment{}}, nil
	})
	rep, err := ReviewPages(context.Background(), judge, low[:2], "")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Advisory || rep.Kind != AdvisoryReportKind || len(rep.Pages) != 2 || calls != 2 {
		t.Fatalf("report %+v", rep)
	}
	p0, p1 := rep.Pages[0], rep.Pages[1]
	if p0.Verdict != evalcase.Fail || *p0.Probability != 0.85 || !strings.Contains(string(p0.Prompt), "79,500") || *p0.F1 != 0.2 {
		t.Errorf("page 0 %+v", p0)
	}
	if p1.Verdict != evalcase.Uncertain || p1.RawAnswer != "unsure" || p1.Probability != nil {
		t.Errorf("page 1 %+v", p1)
	}
	// The deterministic scores were copied, never changed.
	if *pages[1].F1 != 0.2 || *pages[1].NumericRecall != 0.5 {
		t.Error("the review changed a score")
	}
}

func TestCachedAdapter(t *testing.T) {
	calls := 0
	mk := func(model string) ModelAdapter {
		return NewModelAdapter(ModelInfo{Provider: "p", Model: model}, func(_ context.Context, req ModelRequest) (ModelResponse, error) {
			calls++
			return ModelResponse{Text: fmt.Sprintf("answer %d", calls), Usage: Usage{InputTokens: 10, TotalTokens: 10}}, nil
		})
	}
	store := evalcase.NewMemoryCheckpointStore()
	req := ModelRequest{Purpose: PurposeJudge, Instructions: "i", Input: map[string]any{"a": 1}, OutputSchema: JudgeOutputSchema}
	var u UsageTracker
	c := &CachedAdapter{Adapter: mk("m1"), Store: store, Usage: &u}
	r1, _ := c.Call(context.Background(), req)
	r2, _ := c.Call(context.Background(), req)
	if calls != 1 || r1.Text != r2.Text {
		t.Errorf("%d calls, %q %q", calls, r1.Text, r2.Text)
	}
	req.Input = map[string]any{"a": 2}
	c.Call(context.Background(), req)
	(&CachedAdapter{Adapter: mk("m2"), Store: store}).Call(context.Background(), req)
	(&CachedAdapter{Adapter: mk("m2"), Store: store, Context: "prompt-v2"}).Call(context.Background(), req)
	if calls != 4 {
		t.Errorf("%d calls: a changed request, model or context must not reuse an answer", calls)
	}
	if recs := u.UsageRecords(); len(recs) != 1 || !recs[0].Cached {
		t.Errorf("usage %+v", recs)
	}
}

func TestUsage(t *testing.T) {
	p := Prices{InputPerMTok: 3, CachedInputPerMTok: 0.3, OutputPerMTok: 15}
	u := Usage{InputTokens: 1_000_000, CachedInputTokens: 500_000, OutputTokens: 100_000}
	if got := p.Cost(u); fmt.Sprintf("%.4f", got) != "3.1500" {
		t.Errorf("cost %v", got)
	}
	if err := (Prices{InputPerMTok: -1}).Validate(); err == nil {
		t.Error("negative price accepted")
	}
	c1, c2 := 0.5, 0.25
	s := SummarizeUsage([]UsageRecord{
		{Provider: "openai", Model: "b", Usage: Usage{InputTokens: 10, CostUSD: &c1}},
		{Provider: "anthropic", Model: "a", Usage: Usage{InputTokens: 5, CostUSD: &c2}},
		{Provider: "openai", Model: "b", Cached: true, Usage: Usage{InputTokens: 10, CostUSD: &c1}},
	})
	if s.Calls != 2 || s.CachedCalls != 1 || s.Total.InputTokens != 15 || *s.Total.CostUSD != 0.75 || s.ByModel[0].Provider != "anthropic" {
		t.Errorf("summary %+v", s)
	}
}

func TestJudgeOutputSchema(t *testing.T) {
	s := testkit.CompileSchema(t, "schema/judge-output.schema.json")
	answers := []struct {
		raw   string
		valid bool
	}{
		{validAnswer, true},
		{`{"verdict": "uncertain", "rationale": "", "confidence": 0, "claims": [], "reference_claims": []}`, true},
		{`{"verdict": "pass", "rationale": "", "confidence": 1, "claims": []}`, false},
		{`{"verdict": "ok", "rationale": "", "confidence": 1, "claims": [], "reference_claims": []}`, false},
		{`{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [{"claim_id": "c1", "status": "supported"}], "reference_claims": []}`, false},
		{`{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [], "reference_claims": [], "x": 1}`, false},
	}
	for _, a := range answers {
		schemaErr := testkit.Validate(s, []byte(a.raw))
		_, parseErr := ParseJudgeOutput([]byte(a.raw))
		if (schemaErr == nil) != a.valid || (parseErr == nil) != a.valid {
			t.Errorf("%s\n  schema: %v\n  parser: %v\n  want valid=%v", a.raw, schemaErr, parseErr, a.valid)
		}
	}
}
