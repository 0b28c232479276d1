package harness

import (
	"context"
	"fmt"

	"github.com/docscore/docscore/scoring/evalcase"
)

// ExactStructuredMetric compares a structured prediction field by field
// with every exact-compatible reference of authority ground_truth or
// generated: JSON values (flattened to paths like $.items[0].code) and
// path/value CSV tables. References that are evidence, semantic, or not
// structured are skipped, never scored as missing fields.
//
// field_accuracy is correct fields / annotated fields over the ground-truth
// references; against generated references the same ratio is reported as
// generated_field_agreement, and decides the verdict only when no ground
// truth is present. The verdict is pass when the ratio reaches Threshold (1
// when zero), not_applicable when no reference is exact-compatible.
type ExactStructuredMetric struct {
	// MetricName defaults to "exact_structured".
	MetricName string
	Threshold  float64
}

// Name returns the metric's name.
func (m *ExactStructuredMetric) Name() string {
	if m.MetricName == "" {
		return evalcase.KindExactStructured
	}
	return m.MetricName
}

// Fingerprint returns the metric's configuration.
func (m *ExactStructuredMetric) Fingerprint() string {
	return fmt.Sprintf("exact_structured:%v", m.threshold())
}

func (m *ExactStructuredMetric) threshold() float64 {
	if m.Threshold == 0 {
		return 1
	}
	return m.Threshold
}

// exactDetails is the JSON detail of an exact comparison.
type exactDetails struct {
	References []exactReference `json:"references"`
	Skipped    []skippedRef     `json:"skipped"`
}

type exactReference struct {
	ArtifactID string             `json:"artifact_id"`
	Authority  evalcase.Authority `json:"authority"`
	Fields     int                `json:"fields"`
	Correct    int                `json:"correct"`
	Mismatches []fieldMismatch    `json:"mismatches"`
}

type fieldMismatch struct {
	Path     string `json:"path"`
	Expected any    `json:"expected"`
	Actual   any    `json:"actual"`
	Missing  bool   `json:"missing,omitempty"`
}

type skippedRef struct {
	ArtifactID string `json:"artifact_id"`
	Reason     string `json:"reason"`
}

// Evaluate compares the stage's prediction with its exact references.
func (m *ExactStructuredMetric) Evaluate(_ context.Context, stage evalcase.EvaluationCase) (evalcase.MetricResult, error) {
	res := evalcase.MetricResult{Metric: m.Name(), Scores: map[string]float64{}}
	det := exactDetails{References: []exactReference{}, Skipped: []skippedRef{}}
	leaves, err := evalcase.Flatten(stage.Prediction)
	if err != nil {
		return res, fmt.Errorf("prediction: %w", err)
	}
	got := make(map[string]any, len(leaves))
	for _, l := range leaves {
		got[l.Path] = l.Value
	}
	var gtFields, gtCorrect, genFields, genCorrect int
	for _, ref := range stage.References {
		fields, reason, err := exactFields(ref)
		if err != nil {
			return res, err
		}
		if reason != "" {
			det.Skipped = append(det.Skipped, skippedRef{ref.ArtifactID, reason})
			continue
		}
		er := exactReference{ArtifactID: ref.ArtifactID, Authority: ref.Authority, Fields: len(fields), Mismatches: []fieldMismatch{}}
		for _, f := range fields {
			actual, present := got[f.Path]
			if present && evalcase.ScalarKey(actual) == evalcase.ScalarKey(f.Value) {
				er.Correct++
				continue
			}
			er.Mismatches = append(er.Mismatches, fieldMismatch{Path: f.Path, Expected: f.Value, Actual: actual, Missing: !present})
		}
		if ref.Authority == evalcase.AuthorityGroundTruth {
			gtFields += er.Fields
			gtCorrect += er.Correct
		} else {
			genFields += er.Fields
			genCorrect += er.Correct
		}
		det.References = append(det.References, er)
	}
	if gtFields > 0 {
		res.Scores[evalcase.ScoreFieldAccuracy] = float64(gtCorrect) / float64(gtFields)
	}
	if genFields > 0 {
		res.Scores[evalcase.ScoreGeneratedAgreement] = float64(genCorrect) / float64(genFields)
	}
	switch {
	case gtFields > 0:
		res.Verdict = verdictFor(res.Scores[evalcase.ScoreFieldAccuracy], m.threshold())
		res.Reason = fmt.Sprintf("%d of %d ground-truth fields correct", gtCorrect, gtFields)
	case genFields > 0:
		res.Verdict = verdictFor(res.Scores[evalcase.ScoreGeneratedAgreement], m.threshold())
		res.Reason = fmt.Sprintf("%d of %d fields agree with a provisional generated reference (agreement, not accuracy)", genCorrect, genFields)
	case len(det.References) > 0:
		res.Verdict = evalcase.NotApplicable
		res.Reason = "the exact references annotate no fields"
	default:
		res.Verdict = evalcase.NotApplicable
		res.Reason = "no exact-compatible ground_truth or generated reference"
	}
	if err := res.SetDetails(det); err != nil {
		return res, err
	}
	return res, nil
}

func verdictFor(score, threshold float64) evalcase.Verdict {
	if score >= threshold {
		return evalcase.Pass
	}
	return evalcase.Fail
}

// exactFields returns the annotated fields of an exact-compatible
// reference, or the reason it is skipped. A path table that cannot be read
// is an input error naming the artifact and row.
func exactFields(ref evalcase.ReferenceArtifact) ([]evalcase.Field, string, error) {
	if ref.Authority == evalcase.AuthorityEvidence {
		return nil, "evidence is not assumed infallible: left to judges", nil
	}
	if ref.ComparisonMode == evalcase.ComparisonSemantic {
		return nil, "comparison_mode semantic: left to judges", nil
	}
	switch ref.Kind {
	case evalcase.KindJSON:
		leaves, err := evalcase.Flatten(ref.Value)
		if err != nil {
			return nil, "", fmt.Errorf("reference %q: %w", ref.ArtifactID, err)
		}
		out := make([]evalcase.Field, len(leaves))
		for i, l := range leaves {
			out[i] = evalcase.Field{Path: l.Path, Value: l.Value}
		}
		return out, "", nil
	case evalcase.KindCSV:
		text, ok := ref.Value.(string)
		if !ok {
			return nil, "CSV reference without text content", nil
		}
		fields, isTable, err := evalcase.PathTable(text, ref)
		if err != nil {
			return nil, "", err
		}
		if !isTable {
			return nil, "an ordinary table (no path and expected columns): semantic, left to judges", nil
		}
		return fields, "", nil
	}
	return nil, fmt.Sprintf("%s reference is not structured: left to judges", ref.Kind), nil
}
