package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
)

// edit applies f to a review file's JSON and re-encodes it indented.
func edit(t *testing.T, data []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func item(m map[string]any, i int) map[string]any {
	return m["review_items"].([]any)[i].(map[string]any)
}

// approveAll is what a reviewer does: decide every item, fix a claim,
// sign.
func approveAll(m map[string]any) {
	item(m, 0)["decision"] = "set"
	item(m, 0)["value"] = "1,250.00"
	item(m, 1)["decision"] = "set"
	item(m, 1)["value"] = "J. Smith"
	item(m, 2)["decision"] = "omit"
	m["claims"].([]any)[0].(map[string]any)["value"] = "EUR"
	m["status"] = "approved"
	m["approved_by"] = "reviewer@example.org"
}

func TestReviewFileRoundTrip(t *testing.T) {
	rep, _ := firstPass(t)
	data, err := WriteGroundTruthReview(rep)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "ground-truth-review.golden.json"), data)
	var f ReviewFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Status != ReviewPending || len(f.Claims) != 1 || len(f.ReviewItems) != 3 || f.ReviewItems[0].Decision != nil || f.GeneratedReference.SHA256 != rep.ProvisionalReference.SHA256 {
		t.Fatalf("review file %+v", f)
	}
	// As written, it is refused: undecided items, pending, unsigned.
	if _, err := ApprovedReferenceFromReview(data, "review.json"); err == nil || !strings.Contains(err.Error(), "3 review item(s) undecided ($.amount, $.account_name, $.date)") {
		t.Errorf("pending file: %v", err)
	}
	approved := edit(t, data, approveAll)
	ref, err := ApprovedReferenceFromReview(approved, "review.json")
	if err != nil {
		t.Fatal(err)
	}
	if ref.Authority != AuthorityGroundTruth || ref.Value != "path,expected\n$.currency,EUR\n$.amount,\"1,250.00\"\n$.account_name,J. Smith\n" {
		t.Errorf("reference %s %q", ref.Authority, ref.Value)
	}
	if ref.Metadata["approved_by"] != "reviewer@example.org" || ref.Metadata["review_file_sha256"] != sha256Hex(approved) || ref.Metadata["generated_reference_sha256"] != rep.ProvisionalReference.SHA256 {
		t.Errorf("metadata %v", ref.Metadata)
	}
	if ref.ArtifactID != "statement-001-generated" {
		t.Errorf("id %s", ref.ArtifactID)
	}
}

func TestReviewFileRefusals(t *testing.T) {
	rep, _ := firstPass(t)
	data, _ := WriteGroundTruthReview(rep)
	tests := []struct {
		name string
		edit func(m map[string]any)
		err  string
	}{
		{"pending", func(m map[string]any) { approveAll(m); m["status"] = "pending" }, `status: refusing to approve: status is "pending"`},
		{"unsigned", func(m map[string]any) { approveAll(m); m["approved_by"] = "  " }, "approved_by: refusing to approve an unsigned review"},
		{"null signature", func(m map[string]any) { approveAll(m); m["approved_by"] = nil }, "unsigned"},
		{"one undecided", func(m map[string]any) { approveAll(m); item(m, 2)["decision"] = nil }, "review_items[2].decision: refusing to approve: 1 review item(s) undecided ($.date)"},
		{"set without value", func(m map[string]any) { approveAll(m); item(m, 0)["value"] = nil }, `review_items[0].value: decision "set" needs a value`},
		{"unknown decision", func(m map[string]any) { approveAll(m); item(m, 0)["decision"] = "accept" }, `"accept": expected "set" or "omit"`},
		{"object value", func(m map[string]any) { approveAll(m); item(m, 0)["value"] = map[string]any{"a": 1} }, "expected a string, number, boolean or null, found an object"},
		{"path twice", func(m map[string]any) { approveAll(m); item(m, 0)["path"] = "currency" }, "path $.currency appears twice (first at claims[0])"},
		{"bad path", func(m map[string]any) { approveAll(m); item(m, 0)["path"] = "$.[" }, "review_items[0].path"},
		{"unknown field", func(m map[string]any) { approveAll(m); m["approved"] = true }, "approved: unknown field"},
		{"wrong kind", func(m map[string]any) { approveAll(m); m["kind"] = "harness" }, `kind: expected "docscore-ground-truth-review"`},
		{"wrong version", func(m map[string]any) { approveAll(m); m["version"] = 2 }, "version: expected 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := edit(t, data, tc.edit)
			_, err := ApprovedReferenceFromReview(b, "review.json")
			ie, ok := inputerr.As(err)
			if !ok || ie.File != "review.json" || ie.Line == 0 || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want an input error with a line and %q", err, tc.err)
			}
		})
	}
	// A syntax error names line and column.
	_, err := ApprovedReferenceFromReview([]byte("{\n  \"kind\": \"docscore-ground-truth-review\",\n  \"version\": 1\n  \"status\": \"approved\"\n}"), "r.json")
	if err == nil || !strings.HasPrefix(err.Error(), "r.json:4:") {
		t.Errorf("syntax error %v", err)
	}
}

// TestReviewFileNoDisagreement: a unanimous generation needs only the
// signature.
func TestReviewFileNoDisagreement(t *testing.T) {
	a := &reader{name: "a", answer: fixed(claims("$.x", `"1"`))}
	b := &reader{name: "b", answer: fixed(claims("$.x", `"1"`))}
	p := &GroundTruthPanel{Providers: []GroundTruthProvider{{"a", a.adapter()}, {"b", b.adapter()}}, ExtractionInstruction: "x", ExpectedFields: []string{"$.x"}}
	rep, err := p.Generate(context.Background(), "c", sources(t))
	if err != nil || rep.RequiresHumanReview {
		t.Fatalf("%v %v", rep, err)
	}
	data, _ := WriteGroundTruthReview(rep)
	if _, err := ApprovedReferenceFromReview(data, "r.json"); err == nil || !strings.Contains(err.Error(), "status is \"pending\"") {
		t.Errorf("unsigned: %v", err)
	}
	signed := edit(t, data, func(m map[string]any) { m["status"] = "approved"; m["approved_by"] = "x@example.org" })
	ref, err := ApprovedReferenceFromReview(signed, "r.json")
	if err != nil || ref.Value != "path,expected\n$.x,1\n" {
		t.Errorf("%v %v", ref.Value, err)
	}
}

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
		return JudgeOutput{Verdict: Fail, Rationale: "79,300 misread as 79,500", Confidence: 0.85, Claims: []ClaimJudgment{}, ReferenceClaims: []ReferenceClaimJudgment{}}, nil
	})
	rep, err := ReviewPages(context.Background(), judge, low[:2], "")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Advisory || rep.Kind != AdvisoryReportKind || len(rep.Pages) != 2 || calls != 2 {
		t.Fatalf("report %+v", rep)
	}
	p0, p1 := rep.Pages[0], rep.Pages[1]
	if p0.Verdict != Fail || *p0.Probability != 0.85 || !strings.Contains(string(p0.Prompt), "79,500") || *p0.F1 != 0.2 {
		t.Errorf("page 0 %+v", p0)
	}
	if p1.Verdict != Uncertain || p1.RawAnswer != "unsure" || p1.Probability != nil {
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
	store := NewMemoryCheckpointStore()
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

// TestGroundTruthClaimsSchema: the schema and the parser accept and reject
// the same answers, and the docs copy is the embedded one.
func TestGroundTruthClaimsSchema(t *testing.T) {
	docs, err := os.ReadFile("../../docs/schema/ground-truth-claims.schema.json")
	if err != nil || !bytes.Equal(docs, GroundTruthClaimsSchema) {
		t.Error("docs/schema/ground-truth-claims.schema.json and scoring/harness/schema/ground-truth-claims.schema.json differ: copy one over the other")
	}
	s := compileSchema(t, "schema/ground-truth-claims.schema.json")
	for _, a := range []struct {
		raw   string
		valid bool
	}{
		{claims("$.a", `"x"`, "$.b", "1.5", "$.c", "null", "$.d", "false"), true},
		{`{"claims": []}`, true},
		{`{"claims": [], "extra": 1}`, false},
		{`{}`, false},
		{claims("$.a", `["x"]`), false},
		{`{"claims": [{"path": "$.a", "value": "x", "reference_id": "page-001", "visual_evidence": "", "confidence": 1, "page": 2}]}`, false},
		{`{"claims": [{"path": "$.a", "value": "x", "reference_id": "page-001", "confidence": 1}]}`, false},
	} {
		schemaErr := validate(s, []byte(a.raw))
		_, parseErr := ParseGroundTruthClaims([]byte(a.raw), []string{"page-001"})
		if (schemaErr == nil) != a.valid || (parseErr == nil) != a.valid {
			t.Errorf("%s\n  schema: %v\n  parser: %v\n  want valid=%v", a.raw, schemaErr, parseErr, a.valid)
		}
	}
}
