package harness

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/expression"
)

// BenchmarkExactStructured compares a 1,000-field prediction with its
// ground truth.
func BenchmarkExactStructured(b *testing.B) {
	items := make([]any, 250)
	for i := range items {
		items[i] = map[string]any{"code": fmt.Sprintf("A-%d", i), "quantity": i, "unit_price": 1.25, "note": "x"}
	}
	doc := map[string]any{"items": items}
	ref, err := evalcase.ArtifactFromValue(doc, evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth})
	if err != nil {
		b.Fatal(err)
	}
	c := evalcase.EvaluationCase{CaseID: "c", Prediction: doc, References: []evalcase.ReferenceArtifact{ref}}
	m := &ExactStructuredMetric{}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Evaluate(context.Background(), c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExpressionMetric runs the seed's total check over 100 line items.
func BenchmarkExpressionMetric(b *testing.B) {
	items := make([]any, 100)
	for i := range items {
		items[i] = map[string]any{"quantity": 2, "unit_price": 4.25}
	}
	m, err := expression.NewExpressionMetric(evalcase.MetricSpec{Name: "t", Expression: "prediction.total == sum(input.line_items, .quantity * .unit_price)"})
	if err != nil {
		b.Fatal(err)
	}
	c := evalcase.EvaluationCase{CaseID: "c", InputData: map[string]any{"line_items": items}, Prediction: map[string]any{"total": 850.0}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := m.Evaluate(context.Background(), c)
		if err != nil || res.Verdict != evalcase.Pass {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkReadAndEvaluate reads and evaluates a 200-pipeline cases file.
func BenchmarkReadAndEvaluate(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&sb, `{"pipeline_id": "p%d", "stages": [{"case_id": "d", "stage_id": "x", "prediction": {"line_items": [{"quantity": 2, "unit_price": 4.25}]}, "references": [{"authority": "ground_truth", "value": {"line_items": [{"quantity": 2, "unit_price": 4.25}]}}]}, {"case_id": "d", "stage_id": "y", "operation": "sum", "input_data": {"line_items": [{"quantity": 2, "unit_price": 4.25}]}, "prediction": {"total": 8.5}, "depends_on": ["x"]}]}`+"\n", i)
	}
	sb.WriteString(`{"operation_metrics": {"sum": [{"name": "t", "expression": "prediction.total == sum(input.line_items, .quantity * .unit_price)"}]}}` + "\n")
	data := sb.String()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EvaluateCasesJSON(context.Background(), []byte(data), RunOptions{Name: "bench.jsonl"}); err != nil {
			b.Fatal(err)
		}
	}
}
