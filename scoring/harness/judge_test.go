package harness

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/internal/jsonout"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with the golden file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output; run go test ./scoring/harness -update to accept it\n--- got ---\n%s", path, got)
	}
}

func indentJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := jsonout.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// vehicleStage returns the classify-vehicle stage of the vehicle example,
// resolved against its operation spec.
func vehicleStage(t *testing.T) EvaluationCase {
	t.Helper()
	f := readExample(t, "vehicle/cases.json")
	reg, err := NewOperationRegistry(f.OperationSpecs...)
	if err != nil {
		t.Fatal(err)
	}
	return reg.Resolve(f.Pipelines[0].Stages[1])
}

// TestVehicleJudgeRequestGolden is the seed's vehicle-classification
// OperationSpec/EvaluationSpec example: the request any judge would receive
// is kept as a golden file beside the example.
func TestVehicleJudgeRequestGolden(t *testing.T) {
	s := vehicleStage(t)
	if s.ActionInstruction != "Determine the investment vehicle." || s.OperationSpec == nil || s.OperationSpec.EvaluationSpec.Status != StatusApproved {
		t.Fatalf("the operation spec was not applied: %+v", s)
	}
	req, err := BuildJudgeRequest(s)
	if err != nil {
		t.Fatal(err)
	}
	if req.Task.ActionInstruction != "Determine the investment vehicle." || req.Task.EvaluationSpec == nil ||
		strings.Join(req.Task.EvaluationSpec.AllowedOutputs, ",") != "fund,equity,bond,unknown" {
		t.Errorf("task %+v", req.Task)
	}
	if !strings.HasPrefix(req.Instructions, BaseJudgeInstructions) || !strings.HasSuffix(req.Instructions, "is still a fund.") {
		t.Errorf("append mode: instructions do not keep the base and add the guidance:\n%s", req.Instructions)
	}
	if len(req.Task.PredictionClaims) != 1 || req.Task.PredictionClaims[0].Path != "$.vehicle" {
		t.Errorf("claims %+v", req.Task.PredictionClaims)
	}
	names := []string{}
	for _, f := range req.Fingerprints {
		names = append(names, f.Name+"@"+f.Version)
		if len(f.SHA256) != 64 || f.Text != "" {
			t.Errorf("fingerprint %+v", f)
		}
	}
	if got := strings.Join(names, " "); got != "action_instruction@2026-07-23 evaluation_spec@3 judge_instruction@ judge_instructions@"+BaseJudgeInstructionsVersion {
		t.Errorf("fingerprints %s", got)
	}
	golden(t, filepath.Join(exampleDir, "vehicle", "judge-request.golden.json"), indentJSON(t, req))
}

func TestOperationRegistry(t *testing.T) {
	spec := OperationSpec{SpecID: "s", Operation: "op", Version: "1", ActionInstruction: "spec prompt", Rubric: "spec rubric", JudgeInstruction: "spec guidance"}
	reg, err := NewOperationRegistry(spec)
	if err != nil {
		t.Fatal(err)
	}
	got := reg.Resolve(EvaluationCase{CaseID: "c", Operation: "op", Rubric: "own rubric"})
	if got.ActionInstruction != "spec prompt" || got.Rubric != "own rubric" || got.JudgeInstruction != "spec guidance" || got.OperationSpec.SpecID != "s" {
		t.Errorf("resolved %+v", got)
	}
	if other := reg.Resolve(EvaluationCase{CaseID: "c", Operation: "other"}); other.OperationSpec != nil {
		t.Error("a case of another operation got a spec")
	}
	recs, _ := stageInstructions(got)
	if recs[0].Source != "operation_spec:s" || recs[0].Version != "1" || recs[1].Source != "case" {
		t.Errorf("sources %+v", recs)
	}
	for _, bad := range [][]OperationSpec{{spec, spec}, {{Operation: "x"}}, {{SpecID: "x"}}, {{SpecID: "x", Operation: "y", EvaluationSpec: &EvaluationSpec{SpecID: "e", Status: "final"}}}} {
		if _, err := NewOperationRegistry(bad...); err == nil {
			t.Errorf("NewOperationRegistry(%+v) accepted", bad)
		}
	}
}

func TestDraftSpecWarns(t *testing.T) {
	c := EvaluationCase{CaseID: "c", Operation: "op", Prediction: 1, OperationSpec: &OperationSpec{SpecID: "s", Operation: "op", EvaluationSpec: &EvaluationSpec{SpecID: "e", Version: "0", Status: StatusDraft}}}
	r, err := (&PipelineEvaluator{}).Run(context.Background(), nil, []EvaluationCase{c})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "is a draft") {
		t.Errorf("warnings %v", r.Warnings)
	}
}

const validAnswer = `{"verdict": "pass", "rationale": "ok", "confidence": 0.9,
 "claims": [{"claim_id": "c1", "status": "supported", "reference_id": "gt", "evidence": "row 1"}],
 "reference_claims": [{"reference_id": "gt", "claim": "$.vehicle = fund", "status": "matched", "prediction_claim_id": "c1", "evidence": ""}]}`

func TestParseJudgeOutput(t *testing.T) {
	tests := []struct{ name, raw, err string }{
		{"valid", validAnswer, ""},
		{"fenced", "```json\n" + validAnswer + "\n```", ""},
		{"not json", "The answer is pass.", "invalid JSON"},
		{"missing field", `{"verdict": "pass", "rationale": "", "confidence": 1, "claims": []}`, "reference_claims: required"},
		{"extra field", `{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [], "reference_claims": [], "score": 1}`, "score: unknown property"},
		{"bad verdict", `{"verdict": "ok", "rationale": "", "confidence": 1, "claims": [], "reference_claims": []}`, `verdict "ok"`},
		{"confidence out of range", `{"verdict": "pass", "rationale": "", "confidence": 2, "claims": [], "reference_claims": []}`, "confidence 2"},
		{"bad claim status", `{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [{"claim_id": "c1", "status": "true", "reference_id": null, "evidence": ""}], "reference_claims": []}`, `claims[0].status "true"`},
		{"claim missing property", `{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [{"claim_id": "c1", "status": "supported"}], "reference_claims": []}`, "claims[0].reference_id: required"},
		{"wrong type", `{"verdict": "pass", "rationale": 5, "confidence": 1, "claims": [], "reference_claims": []}`, "cannot unmarshal"},
	}
	for _, tt := range tests {
		out, err := ParseJudgeOutput([]byte(tt.raw))
		if tt.err == "" {
			if err != nil || out.Verdict != Pass || len(out.Claims) != 1 {
				t.Errorf("%s: %+v, %v", tt.name, out, err)
			}
			continue
		}
		var ua *UnusableAnswerError
		if !errors.As(err, &ua) || ua.Raw != tt.raw || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: error %v, want an UnusableAnswerError containing %q", tt.name, err, tt.err)
		}
	}
}

func TestScoreJudgeOutput(t *testing.T) {
	req := JudgeRequest{Task: JudgeTask{PredictionClaims: make([]PredictionClaim, 4)}}
	cl := func(status ...string) []ClaimJudgment {
		out := []ClaimJudgment{}
		for _, s := range status {
			out = append(out, ClaimJudgment{Status: s})
		}
		return out
	}
	rc := func(status ...string) []ReferenceClaimJudgment {
		out := []ReferenceClaimJudgment{}
		for _, s := range status {
			out = append(out, ReferenceClaimJudgment{Status: s})
		}
		return out
	}
	tests := []struct {
		out  JudgeOutput
		want map[string]float64
	}{
		{JudgeOutput{Claims: cl("supported", "supported", "contradicted", "undecidable"), ReferenceClaims: rc("matched", "missing", "undecidable")},
			map[string]float64{ScoreClaimPrecision: 2.0 / 3, ScoreReferenceRecall: 0.5, ScoreClaimVerificationCoverage: 0.75, ScoreF1: 2 * (2.0 / 3) * 0.5 / (2.0/3 + 0.5)}},
		{JudgeOutput{Claims: cl("undecidable"), ReferenceClaims: rc()}, map[string]float64{ScoreClaimVerificationCoverage: 0}},
		{JudgeOutput{Claims: cl("contradicted"), ReferenceClaims: rc("missing")}, map[string]float64{ScoreClaimPrecision: 0, ScoreReferenceRecall: 0, ScoreClaimVerificationCoverage: 0.25, ScoreF1: 0}},
	}
	for i, tt := range tests {
		got := ScoreJudgeOutput(req, tt.out)
		if len(got) != len(tt.want) {
			t.Errorf("%d: %v, want %v", i, got, tt.want)
		}
		for k, v := range tt.want {
			if g, ok := got[k]; !ok || g < v-1e-12 || g > v+1e-12 {
				t.Errorf("%d: %s = %v, want %v", i, k, g, v)
			}
		}
	}
}

func TestLLMJudgeMetric(t *testing.T) {
	s := vehicleStage(t)
	s.References = []ReferenceArtifact{mustValue(t, map[string]any{"vehicle": "fund"}, ArtifactOptions{ArtifactID: "gt", Authority: AuthorityGroundTruth})}
	answer := func(raw string) Judge {
		return JudgeFunc(func(_ context.Context, req JudgeRequest) (JudgeOutput, error) {
			if req.Task.Operation != "vehicle_classification" || !bytes.Equal(req.OutputSchema, compactJSON(JudgeOutputSchema)) {
				t.Errorf("request %+v", req.Task)
			}
			return ParseJudgeOutput([]byte(raw))
		})
	}
	tests := []struct {
		name    string
		judge   Judge
		verdict Verdict
		review  bool
		reason  string
	}{
		{"no judge", nil, NotApplicable, false, "no judge configured"},
		{"valid answer", answer(validAnswer), Pass, false, "ok"},
		{"unparseable answer", answer("I think it passes"), Uncertain, true, "unusable judge answer"},
		{"unknown claim id", answer(strings.Replace(validAnswer, `"claim_id": "c1"`, `"claim_id": "c9"`, 1)), Uncertain, true, `claim_id "c9" is not a claim of the task`},
		{"unknown reference", answer(strings.Replace(validAnswer, `"reference_id": "gt", "evidence": "row 1"`, `"reference_id": "web", "evidence": "row 1"`, 1)), Uncertain, true, `reference_id "web"`},
		{"uncertain verdict", answer(strings.Replace(validAnswer, `"pass"`, `"uncertain"`, 1)), Uncertain, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := (&LLMJudgeMetric{MetricName: "j", Judge: tt.judge}).Evaluate(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tt.verdict || res.RequiresReview != tt.review || !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("%s review=%v reason %q", res.Verdict, res.RequiresReview, res.Reason)
			}
			if tt.verdict == Uncertain && tt.reason != "" && !strings.Contains(string(res.Details), "raw_answer") {
				t.Errorf("raw answer not kept: %s", res.Details)
			}
		})
	}
	boom := errors.New("connection refused")
	_, err := (&LLMJudgeMetric{Judge: JudgeFunc(func(context.Context, JudgeRequest) (JudgeOutput, error) { return JudgeOutput{}, boom })}).Evaluate(context.Background(), s)
	if !errors.Is(err, boom) {
		t.Errorf("transport error: %v", err)
	}
}

func TestJudgeOutputSchemaCopies(t *testing.T) {
	docs, err := os.ReadFile("../../docs/schema/judge-output.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, JudgeOutputSchema) {
		t.Error("docs/schema/judge-output.schema.json and scoring/harness/schema/judge-output.schema.json differ: copy one over the other")
	}
}
