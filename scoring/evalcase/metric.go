package evalcase

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
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
	// NotJudged marks a judge metric whose call was never made (a cost
	// ceiling refused it): its verdict is uncertain with no score, the
	// report lists it as not judged and is incomplete, and its stage is
	// never checkpointed, so a rerun asks again.
	NotJudged bool `json:"not_judged,omitempty"`
}

// SetDetails stores v, marshaled, as the result's details.
func (r *MetricResult) SetDetails(v any) error {
	b, err := CanonicalJSON(v)
	if err != nil {
		return err
	}
	r.Details = b
	return nil
}

// Check refuses an unknown verdict and a score that is not finite.
func (r MetricResult) Check() error {
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
