package harness_test

import (
	"context"
	"fmt"

	"github.com/docscore/docscore/scoring/harness"
)

// Any model is one function away: wrap its client as a ModelAdapter and
// give it to the one ModelJudge. The adapter receives the instructions,
// the task, the output schema and the files to attach; it returns the raw
// answer, which ModelJudge parses and validates.
func ExampleModelJudge() {
	local := harness.NewModelAdapter(harness.ModelInfo{Provider: "local", Model: "my-vlm"},
		func(_ context.Context, req harness.ModelRequest) (harness.ModelResponse, error) {
			// Call Ollama, vLLM, … with req.Instructions, req.Input,
			// req.OutputSchema and req.Attachments here.
			return harness.ModelResponse{Text: `{"verdict": "pass", "rationale": "the PDF shows 11.50",
				"confidence": 0.9, "claims": [{"claim_id": "c1", "status": "supported", "reference_id": null,
				"evidence": "total line"}], "reference_claims": []}`}, nil
		})
	metric := &harness.LLMJudgeMetric{MetricName: "local-judge", Judge: &harness.ModelJudge{Adapter: local}}
	res, err := metric.Evaluate(context.Background(), harness.EvaluationCase{
		CaseID: "invoice-1", Prediction: map[string]any{"total": 11.5}, Rubric: "The total matches the invoice.",
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Metric, res.Verdict, res.Scores)
	// Output:
	// local-judge pass map[claim_precision:1 claim_verification_coverage:1]
}

// Five temperature samples of one model form one group with one vote, so
// they cannot outvote two other models; their dissent goes to review.
func ExampleJudgePanelMetric() {
	judge := func(v harness.Verdict) harness.Judge {
		return harness.JudgeFunc(func(_ context.Context, req harness.JudgeRequest) (harness.JudgeOutput, error) {
			return harness.JudgeOutput{Verdict: v, Rationale: string(v), Confidence: 0.8,
				Claims: []harness.ClaimJudgment{}, ReferenceClaims: []harness.ReferenceClaimJudgment{}}, nil
		})
	}
	var variants []harness.JudgeVariant
	for i, t := range []float64{0, 0.2, 0.4, 0.6, 0.8} {
		temp := t
		variants = append(variants, harness.JudgeVariant{Name: fmt.Sprintf("gpt-%d", i), Judge: judge(harness.Fail), Provider: "openai", Model: "gpt", Temperature: &temp})
	}
	zero := 0.0
	variants = append(variants,
		harness.JudgeVariant{Name: "claude", Judge: judge(harness.Pass), Provider: "anthropic", Model: "claude", Temperature: &zero},
		harness.JudgeVariant{Name: "local", Judge: judge(harness.Pass), Provider: "local", Model: "llama", Temperature: &zero})
	panel := &harness.JudgePanelMetric{Variants: variants, VoteRule: harness.VoteMajority}
	res, err := panel.Evaluate(context.Background(), harness.EvaluationCase{CaseID: "c", Prediction: map[string]any{"vehicle": "fund"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Verdict, res.RequiresReview)
	fmt.Println(res.Reason)
	// Output:
	// pass true
	// majority vote of 3 model group(s): pass (2 of 3); review: dissent against pass: gpt-0 (fail), gpt-1 (fail), gpt-2 (fail), gpt-3 (fail), gpt-4 (fail)
}

// Two providers read the page blind; what they agree on becomes a
// provisional reference (authority generated), and a person resolves the
// rest and signs before it becomes ground truth.
func ExampleGroundTruthPanel() {
	reader := func(amount string) harness.ModelAdapter {
		return harness.NewModelAdapter(harness.ModelInfo{Provider: "local", Model: "reader"},
			func(_ context.Context, req harness.ModelRequest) (harness.ModelResponse, error) {
				return harness.ModelResponse{Text: `{"claims": [
					{"path": "$.currency", "value": "USD", "reference_id": "page-001", "visual_evidence": "header", "confidence": 0.9},
					{"path": "$.amount", "value": "` + amount + `", "reference_id": "page-001", "visual_evidence": "total", "confidence": 0.7}]}`}, nil
			})
	}
	page, _ := harness.ArtifactFromBytes("page-001.png", []byte("\x89PNG…"), harness.ArtifactOptions{ArtifactID: "page-001"})
	panel := &harness.GroundTruthPanel{
		Providers:             []harness.GroundTruthProvider{{Name: "a", Adapter: reader("1,250.00")}, {Name: "b", Adapter: reader("1,250.50")}},
		ExtractionInstruction: "Extract currency and amount.",
		ExpectedFields:        []string{"$.currency", "$.amount"},
	}
	gen, err := panel.Generate(context.Background(), "statement-001", []harness.ReferenceArtifact{page})
	if err != nil {
		panic(err)
	}
	fmt.Println(gen.ProvisionalReference.Authority, gen.RequiresHumanReview, gen.DisputedPaths())
	_, err = harness.ApproveGeneratedReference(gen.ProvisionalReference, harness.Approval{ApprovedBy: "reviewer@example.org"})
	fmt.Println(err)
	approved, _ := harness.ApproveGeneratedReference(gen.ProvisionalReference, harness.Approval{
		ApprovedBy: "reviewer@example.org",
		Decisions:  []harness.FieldDecision{{Path: "$.amount", Decision: harness.DecisionSet, Value: "1,250.00"}},
	})
	fmt.Print(approved.Authority, "\n", approved.Value)
	// Output:
	// generated true [$.amount]
	// reference "statement-001-generated": refusing to approve: 1 disagreement(s) unresolved ($.amount): decide each with set or omit
	// ground_truth
	// path,expected
	// $.currency,USD
	// $.amount,"1,250.00"
}
