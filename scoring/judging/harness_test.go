package judging_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/judging"
)

// exampleDir holds the harness examples, with their golden files.
const exampleDir = "../../examples/harness"

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
func vehicleStage(t *testing.T) evalcase.EvaluationCase {
	t.Helper()
	path := filepath.Join(exampleDir, "vehicle", "cases.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	loader := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(filepath.Dir(path), p)) }
	f, err := harness.ReadCaseFile(bytes.NewReader(data), "vehicle/cases.json", casefile.ReadOptions{Loader: loader})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := evalcase.NewOperationRegistry(f.OperationSpecs...)
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
	if s.ActionInstruction != "Determine the investment vehicle." || s.OperationSpec == nil || s.OperationSpec.EvaluationSpec.Status != evalcase.StatusApproved {
		t.Fatalf("the operation spec was not applied: %+v", s)
	}
	req, err := judging.BuildJudgeRequest(s)
	if err != nil {
		t.Fatal(err)
	}
	if req.Task.ActionInstruction != "Determine the investment vehicle." || req.Task.EvaluationSpec == nil ||
		strings.Join(req.Task.EvaluationSpec.AllowedOutputs, ",") != "fund,equity,bond,unknown" {
		t.Errorf("task %+v", req.Task)
	}
	if !strings.HasPrefix(req.Instructions, judging.BaseJudgeInstructions) || !strings.HasSuffix(req.Instructions, "is still a fund.") {
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
	if got := strings.Join(names, " "); got != "action_instruction@2026-07-23 evaluation_spec@3 judge_instruction@ judge_instructions@"+judging.BaseJudgeInstructionsVersion {
		t.Errorf("fingerprints %s", got)
	}
	judging.Golden(t, filepath.Join(exampleDir, "vehicle", "judge-request.golden.json"), indentJSON(t, req))
}

func TestLLMJudgeMetric(t *testing.T) {
	s := vehicleStage(t)
	gt, err := evalcase.ArtifactFromValue(map[string]any{"vehicle": "fund"}, evalcase.ArtifactOptions{ArtifactID: "gt", Authority: evalcase.AuthorityGroundTruth})
	if err != nil {
		t.Fatal(err)
	}
	s.References = []evalcase.ReferenceArtifact{gt}
	answer := func(raw string) judging.Judge {
		return judging.JudgeFunc(func(_ context.Context, req judging.JudgeRequest) (judging.JudgeOutput, error) {
			if req.Task.Operation != "vehicle_classification" || !bytes.Equal(req.OutputSchema, judging.CompactJSON(judging.JudgeOutputSchema)) {
				t.Errorf("request %+v", req.Task)
			}
			return judging.ParseJudgeOutput([]byte(raw))
		})
	}
	tests := []struct {
		name    string
		judge   judging.Judge
		verdict evalcase.Verdict
		review  bool
		reason  string
	}{
		{"no judge", nil, evalcase.NotApplicable, false, "no judge configured"},
		{"valid answer", answer(judging.ValidAnswer), evalcase.Pass, false, "ok"},
		{"unparseable answer", answer("I think it passes"), evalcase.Uncertain, true, "unusable judge answer"},
		{"unknown claim id", answer(strings.Replace(judging.ValidAnswer, `"claim_id": "c1"`, `"claim_id": "c9"`, 1)), evalcase.Uncertain, true, `claim_id "c9" is not a claim of the task`},
		{"unknown reference", answer(strings.Replace(judging.ValidAnswer, `"reference_id": "gt", "evidence": "row 1"`, `"reference_id": "web", "evidence": "row 1"`, 1)), evalcase.Uncertain, true, `reference_id "web"`},
		{"uncertain verdict", answer(strings.Replace(judging.ValidAnswer, `"pass"`, `"uncertain"`, 1)), evalcase.Uncertain, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := (&judging.LLMJudgeMetric{MetricName: "j", Judge: tt.judge}).Evaluate(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tt.verdict || res.RequiresReview != tt.review || !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("%s review=%v reason %q", res.Verdict, res.RequiresReview, res.Reason)
			}
			if tt.verdict == evalcase.Uncertain && tt.reason != "" && !strings.Contains(string(res.Details), "raw_answer") {
				t.Errorf("raw answer not kept: %s", res.Details)
			}
		})
	}
	boom := errors.New("connection refused")
	_, err = (&judging.LLMJudgeMetric{Judge: judging.JudgeFunc(func(context.Context, judging.JudgeRequest) (judging.JudgeOutput, error) {
		return judging.JudgeOutput{}, boom
	})}).Evaluate(context.Background(), s)
	if !errors.Is(err, boom) {
		t.Errorf("transport error: %v", err)
	}
}

func TestDraftSpecWarns(t *testing.T) {
	c := evalcase.EvaluationCase{CaseID: "c", Operation: "op", Prediction: 1, OperationSpec: &evalcase.OperationSpec{SpecID: "s", Operation: "op", EvaluationSpec: &evalcase.EvaluationSpec{SpecID: "e", Version: "0", Status: evalcase.StatusDraft}}}
	r, err := (&harness.PipelineEvaluator{}).Run(context.Background(), nil, []evalcase.EvaluationCase{c})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "is a draft") {
		t.Errorf("warnings %v", r.Warnings)
	}
}

// TestPanelInReport: the report keeps the votes and dissent, the review
// queue names the reason, and the Markdown lists every variant.
func TestPanelInReport(t *testing.T) {
	m := &judging.JudgePanelMetric{Variants: []judging.JudgeVariant{judging.Variant("gpt-cold", "openai", "gpt", 0, evalcase.Fail), judging.Variant("gpt-hot", "openai", "gpt", 0.9, evalcase.Fail),
		judging.Variant("claude", "anthropic", "claude", 0, evalcase.Pass), judging.Variant("local", "local", "llama", 0.2, evalcase.Pass)}}
	r, err := (&harness.PipelineEvaluator{DefaultMetrics: []evalcase.Metric{m}}).Run(context.Background(), nil, []evalcase.EvaluationCase{judging.PanelStage(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Summary.Pass != 1 || len(r.ReviewQueue) != 1 || !strings.Contains(r.ReviewQueue[0].Reason, "pass (2 of 3); review: dissent against pass: gpt-cold (fail), gpt-hot (fail)") {
		t.Fatalf("summary %+v queue %+v", r.Summary, r.ReviewQueue)
	}
	md := string(r.Markdown())
	for _, want := range []string{"group `openai/gpt` votes fail (fail 2)", "variant `gpt-hot` (openai/gpt, temperature 0.9, unknown): fail", "variant `claude` (anthropic/claude, temperature 0, unknown): pass", "dissent `gpt-cold`: fail: judged fail"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestPanelAgreementInReport: two stages judged by a three-variant panel
// (pass, pass, fail each time) give Krippendorff's α over the variants
// (−0.25, as testdata/gen_vectors.py's alpha_nominal computes it), the
// dissenting variant's rate 2 of 2, and a Markdown section.
func TestPanelAgreementInReport(t *testing.T) {
	m := &judging.JudgePanelMetric{Variants: []judging.JudgeVariant{judging.Variant("gpt", "openai", "gpt", 0, evalcase.Pass),
		judging.Variant("claude", "anthropic", "claude", 0, evalcase.Pass), judging.Variant("llama", "local", "llama", 0, evalcase.Fail)}}
	s1, s2 := judging.PanelStage(nil), judging.PanelStage(nil)
	s2.CaseID = "c2"
	r, err := (&harness.PipelineEvaluator{DefaultMetrics: []evalcase.Metric{m}}).Run(context.Background(), nil, []evalcase.EvaluationCase{s1, s2})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Agreement.Panel
	if p == nil || p.Alpha.Alpha == nil || math.Abs(*p.Alpha.Alpha+0.25) > 1e-12 || p.Units != 2 || p.Values != 6 {
		t.Fatalf("panel %+v", p)
	}
	if strings.Join(p.Judges, ",") != "claude,gpt,llama" {
		t.Errorf("judges %v", p.Judges)
	}
	if d := p.Dissent["llama"]; d.Count != 2 || d.N != 2 {
		t.Errorf("llama dissent %+v, expected 2 of 2", d)
	}
	if d := p.Dissent["gpt"]; d.Count != 0 || d.N != 2 {
		t.Errorf("gpt dissent %+v, expected 0 of 2", d)
	}
	if r.Agreement.SelfConsistency != nil || r.Agreement.OrderFlips != nil {
		t.Errorf("probes reported without being asked: %+v", r.Agreement)
	}
	md := string(r.Markdown())
	for _, want := range []string{"## Judge agreement", "Krippendorff's α (nominal) over 3 judge(s) (claude, gpt, llama): -0.25 over 2 unit(s), 6 pairable verdict(s)", "| llama | 2 of 2 (1) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	data, _ := r.JSON()
	if !strings.Contains(string(data), `"agreement": {`) || !strings.Contains(string(data), `"dissent": {`) {
		t.Errorf("JSON lacks the agreement member")
	}
}
