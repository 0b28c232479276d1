package harness

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/harness/expression"
	"github.com/docscore/docscore/scoring/judging"
)

// FunctionMetric is a metric written as a Go function. The function
// returns a score in [0, 1] (1 for a boolean pass); the verdict is pass
// when the score reaches Threshold (1 when zero). A function that cannot
// decide returns ErrUndecided (wrapped or not) and the verdict is
// uncertain; any other error stops the evaluation.
type FunctionMetric struct {
	MetricName string
	// ScoreName names the score in reports; it defaults to MetricName.
	ScoreName string
	Threshold float64
	Func      func(ctx context.Context, stage evalcase.EvaluationCase) (float64, error)
}

// ErrUndecided is returned by a FunctionMetric's function that cannot
// decide a stage; the stage's verdict for that metric is uncertain.
var ErrUndecided = errors.New("undecided")

// NewFunctionMetric returns a FunctionMetric from a predicate: true passes
// with score 1, false fails with score 0.
func NewFunctionMetric(name, scoreName string, pred func(stage evalcase.EvaluationCase) (bool, error)) *FunctionMetric {
	return &FunctionMetric{
		MetricName: name,
		ScoreName:  scoreName,
		Func: func(_ context.Context, stage evalcase.EvaluationCase) (float64, error) {
			ok, err := pred(stage)
			if ok {
				return 1, err
			}
			return 0, err
		},
	}
}

// Name returns the metric's name.
func (m *FunctionMetric) Name() string { return m.MetricName }

// Fingerprint returns the score name and threshold; the function itself
// cannot be hashed, so include its version in the checkpoint context.
func (m *FunctionMetric) Fingerprint() string {
	return fmt.Sprintf("function:%s:%s:%v", m.MetricName, m.ScoreName, m.threshold())
}

func (m *FunctionMetric) threshold() float64 {
	if m.Threshold == 0 {
		return 1
	}
	return m.Threshold
}

// Evaluate calls the function.
func (m *FunctionMetric) Evaluate(ctx context.Context, stage evalcase.EvaluationCase) (evalcase.MetricResult, error) {
	score, err := m.Func(ctx, stage)
	res := evalcase.MetricResult{Metric: m.MetricName, Scores: map[string]float64{}}
	if err != nil {
		if isUndecided(err) {
			res.Verdict = evalcase.Uncertain
			res.Reason = err.Error()
			res.RequiresReview = true
			return res, nil
		}
		return evalcase.MetricResult{}, err
	}
	if math.IsNaN(score) || math.IsInf(score, 0) {
		res.Verdict = evalcase.Uncertain
		res.Reason = fmt.Sprintf("function returned %v", score)
		return res, nil
	}
	name := m.ScoreName
	if name == "" {
		name = m.MetricName
	}
	res.Scores[name] = score
	if score >= m.threshold() {
		res.Verdict = evalcase.Pass
	} else {
		res.Verdict = evalcase.Fail
	}
	return res, nil
}

func isUndecided(err error) bool {
	return errors.Is(err, ErrUndecided)
}

// DefaultMetricKinds returns the kinds that need nothing from the host:
// expression, exact_structured, tabular, receipts, and llm_judge without a
// judge (its results are not_applicable until a judge is configured with
// JudgeMetricKind).
func DefaultMetricKinds() casefile.MetricKinds {
	return casefile.MetricKinds{
		evalcase.KindExpression: func(s evalcase.MetricSpec) (evalcase.Metric, error) {
			return expression.NewExpressionMetric(s)
		},
		evalcase.KindExactStructured: func(s evalcase.MetricSpec) (evalcase.Metric, error) {
			m := &ExactStructuredMetric{MetricName: s.Name}
			if s.Threshold != nil {
				m.Threshold = *s.Threshold
			}
			return m, nil
		},
		evalcase.KindLLMJudge: judging.JudgeMetricKind(nil, ""),
		KindTabular: func(s evalcase.MetricSpec) (evalcase.Metric, error) {
			return &TabularMetric{MetricName: s.Name, Threshold: thresholdOr1(s.Threshold)}, nil
		},
		KindReceipts: func(s evalcase.MetricSpec) (evalcase.Metric, error) {
			return &ReceiptsMetric{MetricName: s.Name, Threshold: thresholdOr1(s.Threshold)}, nil
		},
	}
}
