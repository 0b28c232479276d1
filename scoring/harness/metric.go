package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// The score names the harness reports, where they apply.
const (
	// ScoreFieldAccuracy is correct authoritative fields / annotated fields.
	ScoreFieldAccuracy = "field_accuracy"
	// ScoreGeneratedAgreement is field_accuracy against a provisional,
	// model-generated reference: agreement, not accuracy.
	ScoreGeneratedAgreement = "generated_field_agreement"
	// ScoreClaimPrecision is supported predictions / judge-decided predictions.
	ScoreClaimPrecision = "claim_precision"
	// ScoreReferenceRecall is matched reference claims / judge-decided
	// reference claims.
	ScoreReferenceRecall = "reference_recall"
	// ScoreClaimVerificationCoverage is the fraction of claims a judge decided.
	ScoreClaimVerificationCoverage = "claim_verification_coverage"
	// ScoreF1 is the harmonic mean of claim precision and reference recall.
	ScoreF1 = "f1"
)

// Metric decides a verdict for one stage. Evaluate receives the stage with
// its operation spec resolved. It returns an error only when it could not
// run at all (a cancelled context, a transport failure); a stage the
// metric cannot decide is a result with verdict Uncertain, and one it does
// not apply to is NotApplicable.
//
// Wrapping another scorer is a few lines: read the stage's prediction and
// references, call the scorer, and return its numbers in Scores with a
// verdict.
type Metric interface {
	// Name identifies the metric in reports; names are unique per stage.
	Name() string
	Evaluate(ctx context.Context, stage EvaluationCase) (MetricResult, error)
}

// Fingerprinter is implemented by metrics whose configuration changes
// their result (an expression, a threshold): the fingerprint joins the
// stage fingerprint, so a checkpoint made with another configuration is not
// reused.
type Fingerprinter interface {
	Fingerprint() string
}

// MetricResult is one metric's outcome on one stage.
type MetricResult struct {
	Metric  string             `json:"metric"`
	Verdict Verdict            `json:"verdict"`
	Scores  map[string]float64 `json:"scores"`
	Reason  string             `json:"reason,omitempty"`
	// Details is metric-specific JSON (mismatched fields, judge votes). It
	// is kept as bytes so a checkpointed result reports byte-identically.
	Details json.RawMessage `json:"details,omitempty"`
	// RequiresReview puts the stage on the report's human-review queue.
	RequiresReview bool `json:"requires_review,omitempty"`
}

// SetDetails stores v, marshaled, as the result's details.
func (r *MetricResult) SetDetails(v any) error {
	b, err := canonicalJSON(v)
	if err != nil {
		return err
	}
	r.Details = b
	return nil
}

func (r MetricResult) check() error {
	if !oneOf(string(r.Verdict), verdicts) {
		return fmt.Errorf("metric %q returned verdict %q: expected one of %s", r.Metric, r.Verdict, strings.Join(verdicts, ", "))
	}
	for k, v := range r.Scores {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("metric %q returned score %s = %v: scores must be finite", r.Metric, k, v)
		}
	}
	return nil
}

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
	Func      func(ctx context.Context, stage EvaluationCase) (float64, error)
}

// ErrUndecided is returned by a FunctionMetric's function that cannot
// decide a stage; the stage's verdict for that metric is uncertain.
var ErrUndecided = errors.New("undecided")

// NewFunctionMetric returns a FunctionMetric from a predicate: true passes
// with score 1, false fails with score 0.
func NewFunctionMetric(name, scoreName string, pred func(stage EvaluationCase) (bool, error)) *FunctionMetric {
	return &FunctionMetric{
		MetricName: name,
		ScoreName:  scoreName,
		Func: func(_ context.Context, stage EvaluationCase) (float64, error) {
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
func (m *FunctionMetric) Evaluate(ctx context.Context, stage EvaluationCase) (MetricResult, error) {
	score, err := m.Func(ctx, stage)
	res := MetricResult{Metric: m.MetricName, Scores: map[string]float64{}}
	if err != nil {
		if isUndecided(err) {
			res.Verdict = Uncertain
			res.Reason = err.Error()
			res.RequiresReview = true
			return res, nil
		}
		return MetricResult{}, err
	}
	if math.IsNaN(score) || math.IsInf(score, 0) {
		res.Verdict = Uncertain
		res.Reason = fmt.Sprintf("function returned %v", score)
		return res, nil
	}
	name := m.ScoreName
	if name == "" {
		name = m.MetricName
	}
	res.Scores[name] = score
	if score >= m.threshold() {
		res.Verdict = Pass
	} else {
		res.Verdict = Fail
	}
	return res, nil
}

func isUndecided(err error) bool {
	return errors.Is(err, ErrUndecided)
}

// MetricSpec is a metric written as data in a cases file: {"name",
// "expression"} for an expression metric, or {"name", "kind"} for a
// built-in kind (exact_structured, llm_judge, and the kinds a host adds).
type MetricSpec struct {
	Name string `json:"name"`
	// Kind selects the metric; it defaults to "expression" when Expression
	// is set and must be given otherwise.
	Kind       string `json:"kind,omitempty"`
	Expression string `json:"expression,omitempty"`
	// ScoreName names the expression's score; it defaults to Name.
	ScoreName string `json:"score_name,omitempty"`
	// Threshold is the lowest passing score; nil means 1.
	Threshold *float64 `json:"threshold,omitempty"`
	// MaxSteps bounds an expression's evaluation (default
	// DefaultExpressionSteps).
	MaxSteps int `json:"max_steps,omitempty"`
	// Options are kind-specific settings.
	Options map[string]any `json:"options,omitempty"`
}

// EffectiveKind returns Kind, or "expression" when it is empty.
func (s MetricSpec) EffectiveKind() string {
	if s.Kind == "" && s.Expression != "" {
		return KindExpression
	}
	return s.Kind
}

// The metric kinds every host knows.
const (
	KindExpression      = "expression"
	KindExactStructured = "exact_structured"
	KindLLMJudge        = "llm_judge"
)

// MetricFactory builds a Metric from its spec.
type MetricFactory func(spec MetricSpec) (Metric, error)

// MetricKinds maps a metric kind to its factory. Hosts add kinds (the
// tabular and receipts scorers, a configured judge) with With.
type MetricKinds map[string]MetricFactory

// DefaultMetricKinds returns the kinds that need nothing from the host:
// expression, exact_structured, tabular, receipts, and llm_judge without a
// judge (its results are not_applicable until a judge is configured with
// JudgeMetricKind).
func DefaultMetricKinds() MetricKinds {
	return MetricKinds{
		KindExpression: func(s MetricSpec) (Metric, error) {
			return NewExpressionMetric(s)
		},
		KindExactStructured: func(s MetricSpec) (Metric, error) {
			m := &ExactStructuredMetric{MetricName: s.Name}
			if s.Threshold != nil {
				m.Threshold = *s.Threshold
			}
			return m, nil
		},
		KindLLMJudge: JudgeMetricKind(nil, ""),
		KindTabular: func(s MetricSpec) (Metric, error) {
			return &TabularMetric{MetricName: s.Name, Threshold: thresholdOr1(s.Threshold)}, nil
		},
		KindReceipts: func(s MetricSpec) (Metric, error) {
			return &ReceiptsMetric{MetricName: s.Name, Threshold: thresholdOr1(s.Threshold)}, nil
		},
	}
}

// With returns a copy of k with kind set to f.
func (k MetricKinds) With(kind string, f MetricFactory) MetricKinds {
	out := MetricKinds{}
	for n, v := range k {
		out[n] = v
	}
	out[kind] = f
	return out
}

// Names returns the known kinds, sorted.
func (k MetricKinds) Names() []string {
	out := make([]string, 0, len(k))
	for n := range k {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Build returns the metrics of specs, in order.
func (k MetricKinds) Build(specs []MetricSpec) ([]Metric, error) {
	out := make([]Metric, 0, len(specs))
	seen := map[string]bool{}
	for _, s := range specs {
		kind := s.EffectiveKind()
		f, ok := k[kind]
		if !ok {
			return nil, fmt.Errorf("metric %q: unknown kind %q (known: %s)", s.Name, kind, strings.Join(k.Names(), ", "))
		}
		m, err := f(s)
		if err != nil {
			return nil, fmt.Errorf("metric %q: %w", s.Name, err)
		}
		if seen[m.Name()] {
			return nil, fmt.Errorf("metric %q is listed twice", m.Name())
		}
		seen[m.Name()] = true
		out = append(out, m)
	}
	return out, nil
}
