//go:build noexpr

package expression

import (
	"context"
	"errors"

	"github.com/docscore/docscore/scoring/evalcase"
)

// ErrNoExpressions is what expression metrics answer in a build without
// the expression engine (the Cloudflare Worker's, tag noexpr): the engine
// inspects methods by name at run time, which keeps every method of every
// type in the binary and would push the Worker over Cloudflare's 3 MB
// upload limit.
var ErrNoExpressions = errors.New("expression metrics are not in this build (the Cloudflare Worker leaves the expression engine out to stay under its 3 MB upload limit); evaluate these cases with 'docscore eval' or in the browser")

// ExpressionMetric is a metric written as an expression; this build has no
// expression engine, so none can be made.
type ExpressionMetric struct{ spec evalcase.MetricSpec }

// NewExpressionMetric returns ErrNoExpressions in this build.
func NewExpressionMetric(spec evalcase.MetricSpec) (*ExpressionMetric, error) {
	return nil, ErrNoExpressions
}

// CheckExpression returns ErrNoExpressions in this build.
func CheckExpression(src string) error { return ErrNoExpressions }

// Name returns the metric's name.
func (m *ExpressionMetric) Name() string { return m.spec.Name }

// Evaluate returns ErrNoExpressions in this build.
func (m *ExpressionMetric) Evaluate(context.Context, evalcase.EvaluationCase) (evalcase.MetricResult, error) {
	return evalcase.MetricResult{}, ErrNoExpressions
}
