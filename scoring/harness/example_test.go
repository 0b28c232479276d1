package harness_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/judging"
)

// The seed's extraction + total calculation in Go: an exact metric on the
// extraction and a Go function that recomputes the total from the input.
func ExamplePipelineEvaluator() {
	items := map[string]any{"line_items": []any{
		map[string]any{"quantity": 2, "unit_price": 4.25},
		map[string]any{"quantity": 1, "unit_price": 3.00},
	}}
	truth, _ := evalcase.ArtifactFromValue(items, evalcase.ArtifactOptions{
		Authority: evalcase.AuthorityGroundTruth, ArtifactID: "human-transcription"})
	extraction := evalcase.EvaluationCase{
		CaseID: "document-001", StageID: "extract", Operation: "parse_line_items",
		Prediction: map[string]any{"line_items": []any{
			map[string]any{"quantity": 3, "unit_price": 4.25}, // misread
			map[string]any{"quantity": 1, "unit_price": 3.00},
		}},
		References: []evalcase.ReferenceArtifact{truth},
	}
	calculation := evalcase.EvaluationCase{
		CaseID: "document-001", StageID: "calculate-total", Operation: "sum_quantity_times_unit_price",
		InputData:  extraction.Prediction,
		Prediction: map[string]any{"total": 15.75},
		DependsOn:  []string{"extract"},
		Rubric:     "Total equals the sum of quantity multiplied by unit price.",
	}
	totalMatches := func(stage evalcase.EvaluationCase) (bool, error) {
		expected := 0.0
		for _, row := range stage.InputData.(map[string]any)["line_items"].([]any) {
			r := row.(map[string]any)
			q, _ := evalcase.Number(r["quantity"])
			p, _ := evalcase.Number(r["unit_price"])
			expected += q * p
		}
		got, _ := evalcase.Number(stage.Prediction.(map[string]any)["total"])
		return got == expected, nil
	}
	evaluator := &harness.PipelineEvaluator{OperationMetrics: map[string][]evalcase.Metric{
		"parse_line_items": {&harness.ExactStructuredMetric{}},
		"sum_quantity_times_unit_price": {
			harness.NewFunctionMetric("recalculate_total", "calculation_accuracy", totalMatches),
		},
	}}
	report, err := evaluator.Evaluate(context.Background(), casefile.PipelineCase{
		PipelineID: "document-processing",
		Stages:     []evalcase.EvaluationCase{extraction, calculation},
	})
	if err != nil {
		panic(err)
	}
	for _, s := range report.Stages {
		fmt.Printf("%s: %s, failure context %q, scores %v\n", s.StageID, s.Verdict, s.FailureContext, s.Scores)
	}
	// Output:
	// extract: fail, failure context "current_stage", scores map[field_accuracy:0.75]
	// calculate-total: pass, failure context "upstream", scores map[calculation_accuracy:1]
}

// Resolve a stage against its operation's spec and inspect exactly what a
// judge would receive, before any model is called.
func ExampleBuildJudgeRequest() {
	registry, _ := evalcase.NewOperationRegistry(evalcase.OperationSpec{
		SpecID: "investment-vehicle", Operation: "vehicle_classification", Version: "2026-07-23",
		ActionInstruction: "Determine the investment vehicle.",
		EvaluationSpec: &evalcase.EvaluationSpec{
			SpecID: "investment-vehicle-correctness", Version: "3", Status: evalcase.StatusApproved,
			Objective:      "Choose the vehicle using the approved investment taxonomy.",
			AllowedOutputs: []string{"fund", "equity", "bond", "unknown"},
		},
	})
	stage := registry.Resolve(evalcase.EvaluationCase{
		CaseID: "statement-001", StageID: "classify-vehicle", Operation: "vehicle_classification",
		Prediction: map[string]any{"vehicle": "fund"}, DependsOn: []string{"extract"},
	})
	req, err := judging.BuildJudgeRequest(stage)
	if err != nil {
		panic(err)
	}
	fmt.Println(req.Task.ActionInstruction)
	fmt.Println(req.Task.EvaluationSpec.AllowedOutputs)
	fmt.Println(req.Task.PredictionClaims[0].Path, "=", req.Task.PredictionClaims[0].Value)
	fmt.Println(strings.HasPrefix(req.Instructions, judging.BaseJudgeInstructions))
	// Output:
	// Determine the investment vehicle.
	// [fund equity bond unknown]
	// $.vehicle = fund
	// true
}

// Read a cases file (JSON or JSONL) and evaluate it.
func ExampleReadCaseFile() {
	src := `{"operation_metrics": {"total": [{"name": "sum", "expression": "prediction.total == sum(input.items, .price)"}]},
	 "cases": [{"case_id": "r1", "operation": "total", "input_data": {"items": [{"price": 2}, {"price": 2.5}]}, "prediction": {"total": 4.5}}]}`
	f, err := harness.ReadCaseFile(strings.NewReader(src), "cases.json", casefile.ReadOptions{})
	if err != nil {
		panic(err)
	}
	r, _ := harness.EvaluateCaseFile(context.Background(), f, harness.EvaluatorOptions{})
	fmt.Println(r.Cases[0].CaseID, r.Cases[0].Verdict)

	_, err = harness.ReadCaseFile(strings.NewReader(`{"case_id": "r1", "prediction": 1, "references": [{"authority": "gold", "value": 1}]}`), "bad.json", casefile.ReadOptions{})
	fmt.Println(err)
	// Output:
	// r1 pass
	// bad.json:1:65: references[0].authority: "gold": expected one of evidence, generated, ground_truth
	//     1 | {"case_id": "r1", "prediction": 1, "references": [{"authority": "gold", "value": 1}]}
	//       |                                                                 ^
}

// Attribute localizes a failure from a stage's verdict and its upstream
// verdicts.
func ExampleAttribute() {
	fmt.Println(harness.Attribute(evalcase.Fail, []evalcase.Verdict{evalcase.Pass}))
	fmt.Println(harness.Attribute(evalcase.Pass, []evalcase.Verdict{evalcase.Fail}))
	fmt.Println(harness.Attribute(evalcase.Fail, []evalcase.Verdict{evalcase.Fail}))
	fmt.Println(harness.Attribute(evalcase.Uncertain, nil))
	// Output:
	// current_stage
	// upstream
	// upstream_or_combined
	// indeterminate
}
