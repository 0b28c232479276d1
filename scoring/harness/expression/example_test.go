//go:build !noexpr

package expression_test

import (
	"context"
	"fmt"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/expression"
)

// An expression metric needs no Go code and runs in every host.
func ExampleNewExpressionMetric() {
	m, err := expression.NewExpressionMetric(evalcase.MetricSpec{
		Name:       "recalculate_total",
		Expression: "prediction.total == sum(input.line_items, .quantity * .unit_price)",
	})
	if err != nil {
		panic(err)
	}
	stage := evalcase.EvaluationCase{
		CaseID:     "document-001",
		InputData:  map[string]any{"line_items": []any{map[string]any{"quantity": 2, "unit_price": 4.25}}},
		Prediction: map[string]any{"total": 8.5},
	}
	res, _ := m.Evaluate(context.Background(), stage)
	fmt.Println(res.Verdict, res.Scores)
	// Output: pass map[recalculate_total:1]
}
