//go:build noexpr

package harness

import (
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/harness/expression"
)

// TestNoExpressionsBuild checks the explicit answer of the build without
// the expression engine: a cases file with an expression metric is an
// input error naming the file and saying why and where to run it instead.
func TestNoExpressionsBuild(t *testing.T) {
	_, err := ReadCaseFile(strings.NewReader(`{"case_id": "a", "prediction": 1, "metrics": [{"name": "m", "expression": "prediction == 1"}]}`), "cases.json", casefile.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "cases.json") || !strings.Contains(err.Error(), "expression metrics are not in this build") {
		t.Fatalf("error %v", err)
	}
	if _, err := expression.NewExpressionMetric(evalcase.MetricSpec{Name: "m", Expression: "1"}); err != expression.ErrNoExpressions {
		t.Fatalf("expression.NewExpressionMetric: %v", err)
	}
}
