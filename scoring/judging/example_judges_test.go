package judging_test

import (
	"context"
	"fmt"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/groundtruth"
	"github.com/docscore/docscore/scoring/judging"
)

// Any model is one function away: wrap its client as a ModelAdapter and
// give it to the one ModelJudge. The adapter receives the instructions,
// the task, the output schema and the files to attach; it returns the raw
// answer, which ModelJudge parses and validates.
func ExampleModelJudge() {
	local := judging.NewModelAdapter(judging.ModelInfo{Provider: "local", Model: "my-vlm"},
		func(_ context.Context, req judging.ModelRequest) (judging.ModelResponse, error) {
			// Call Ollama, vLLM, … with req.Instructions, req.Input,
			// req.OutputSchema and req.Attachments here.
			return judging.ModelResponse{Text: `{"verdict": "pass", "rationale": "the PDF shows 11.50",
				"confidence": 0.9, "claims": [{"claim_id": "c1", "status": "supported", "reference_id": null,
				"evidence": "total line"}], "reference_claims": []}`}, nil
		})
	metric := &judging.LLMJudgeMetric{MetricName: "local-judge", Judge: &judging.ModelJudge{Adapter: local}}
	res, err := metric.Evaluate(context.Background(), evalcase.EvaluationCase{
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
	judge := func(v evalcase.Verdict) judging.Judge {
		return judging.JudgeFunc(func(_ context.Context, req judging.JudgeRequest) (judging.JudgeOutput, error) {
			return judging.JudgeOutput{Verdict: v, Rationale: string(v), Confidence: 0.8,
				Claims: []judging.ClaimJudgment{}, ReferenceClaims: []judging.ReferenceClaimJudgment{}}, nil
		})
	}
	var variants []judging.JudgeVariant
	for i, t := range []float64{0, 0.2, 0.4, 0.6, 0.8} {
		temp := t
		variants = append(variants, judging.JudgeVariant{Name: fmt.Sprintf("gpt-%d", i), Judge: judge(evalcase.Fail), Provider: "openai", Model: "gpt", Temperature: &temp})
	}
	zero := 0.0
	variants = append(variants,
		judging.JudgeVariant{Name: "claude", Judge: judge(evalcase.Pass), Provider: "anthropic", Model: "claude", Temperature: &zero},
		judging.JudgeVariant{Name: "local", Judge: judge(evalcase.Pass), Provider: "local", Model: "llama", Temperature: &zero})
	panel := &judging.JudgePanelMetric{Variants: variants, VoteRule: judging.VoteMajority}
	res, err := panel.Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "c", Prediction: map[string]any{"vehicle": "fund"}})
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
	reader := func(amount string) judging.ModelAdapter {
		return judging.NewModelAdapter(judging.ModelInfo{Provider: "local", Model: "reader"},
			func(_ context.Context, req judging.ModelRequest) (judging.ModelResponse, error) {
				return judging.ModelResponse{Text: `{"claims": [
					{"path": "$.currency", "value": "USD", "reference_id": "page-001", "visual_evidence": "header", "confidence": 0.9},
					{"path": "$.amount", "value": "` + amount + `", "reference_id": "page-001", "visual_evidence": "total", "confidence": 0.7}]}`}, nil
			})
	}
	page, _ := evalcase.ArtifactFromBytes("page-001.png", []byte("\x89PNG…"), evalcase.ArtifactOptions{ArtifactID: "page-001"})
	panel := &groundtruth.GroundTruthPanel{
		Providers:             []groundtruth.GroundTruthProvider{{Name: "a", Adapter: reader("1,250.00")}, {Name: "b", Adapter: reader("1,250.50")}},
		ExtractionInstruction: "Extract currency and amount.",
		ExpectedFields:        []string{"$.currency", "$.amount"},
	}
	gen, err := panel.Generate(context.Background(), "statement-001", []evalcase.ReferenceArtifact{page})
	if err != nil {
		panic(err)
	}
	fmt.Println(gen.ProvisionalReference.Authority, gen.RequiresHumanReview, gen.DisputedPaths())
	_, err = groundtruth.ApproveGeneratedReference(gen.ProvisionalReference, groundtruth.Approval{ApprovedBy: "reviewer@example.org"})
	fmt.Println(err)
	approved, _ := groundtruth.ApproveGeneratedReference(gen.ProvisionalReference, groundtruth.Approval{
		ApprovedBy: "reviewer@example.org",
		Decisions:  []groundtruth.FieldDecision{{Path: "$.amount", Decision: groundtruth.DecisionSet, Value: "1,250.00"}},
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
