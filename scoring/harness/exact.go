package harness

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
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
		return KindExactStructured
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
	ArtifactID string          `json:"artifact_id"`
	Authority  Authority       `json:"authority"`
	Fields     int             `json:"fields"`
	Correct    int             `json:"correct"`
	Mismatches []fieldMismatch `json:"mismatches"`
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

// expectedField is one annotated field of a reference.
type expectedField struct {
	path  string
	value any
}

// Evaluate compares the stage's prediction with its exact references.
func (m *ExactStructuredMetric) Evaluate(_ context.Context, stage EvaluationCase) (MetricResult, error) {
	res := MetricResult{Metric: m.Name(), Scores: map[string]float64{}}
	det := exactDetails{References: []exactReference{}, Skipped: []skippedRef{}}
	leaves, err := Flatten(stage.Prediction)
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
			actual, present := got[f.path]
			if present && scalarKey(actual) == scalarKey(f.value) {
				er.Correct++
				continue
			}
			er.Mismatches = append(er.Mismatches, fieldMismatch{Path: f.path, Expected: f.value, Actual: actual, Missing: !present})
		}
		if ref.Authority == AuthorityGroundTruth {
			gtFields += er.Fields
			gtCorrect += er.Correct
		} else {
			genFields += er.Fields
			genCorrect += er.Correct
		}
		det.References = append(det.References, er)
	}
	if gtFields > 0 {
		res.Scores[ScoreFieldAccuracy] = float64(gtCorrect) / float64(gtFields)
	}
	if genFields > 0 {
		res.Scores[ScoreGeneratedAgreement] = float64(genCorrect) / float64(genFields)
	}
	switch {
	case gtFields > 0:
		res.Verdict = verdictFor(res.Scores[ScoreFieldAccuracy], m.threshold())
		res.Reason = fmt.Sprintf("%d of %d ground-truth fields correct", gtCorrect, gtFields)
	case genFields > 0:
		res.Verdict = verdictFor(res.Scores[ScoreGeneratedAgreement], m.threshold())
		res.Reason = fmt.Sprintf("%d of %d fields agree with a provisional generated reference (agreement, not accuracy)", genCorrect, genFields)
	case len(det.References) > 0:
		res.Verdict = NotApplicable
		res.Reason = "the exact references annotate no fields"
	default:
		res.Verdict = NotApplicable
		res.Reason = "no exact-compatible ground_truth or generated reference"
	}
	if err := res.SetDetails(det); err != nil {
		return res, err
	}
	return res, nil
}

func verdictFor(score, threshold float64) Verdict {
	if score >= threshold {
		return Pass
	}
	return Fail
}

// exactFields returns the annotated fields of an exact-compatible
// reference, or the reason it is skipped. A path table that cannot be read
// is an input error naming the artifact and row.
func exactFields(ref ReferenceArtifact) ([]expectedField, string, error) {
	if ref.Authority == AuthorityEvidence {
		return nil, "evidence is not assumed infallible: left to judges", nil
	}
	if ref.ComparisonMode == ComparisonSemantic {
		return nil, "comparison_mode semantic: left to judges", nil
	}
	switch ref.Kind {
	case KindJSON:
		leaves, err := Flatten(ref.Value)
		if err != nil {
			return nil, "", fmt.Errorf("reference %q: %w", ref.ArtifactID, err)
		}
		out := make([]expectedField, len(leaves))
		for i, l := range leaves {
			out[i] = expectedField{l.Path, l.Value}
		}
		return out, "", nil
	case KindCSV:
		text, ok := ref.Value.(string)
		if !ok {
			return nil, "CSV reference without text content", nil
		}
		fields, isTable, err := pathTable(text, ref)
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

// Column synonyms of a path/value table, in order of preference.
var (
	pathColumns     = []string{"path", "field_path"}
	expectedColumns = []string{"expected", "expected_value", "value"}
)

// pathTable reads a path/value CSV (or TSV). isTable is false when the
// header lacks a path or an expected column: an ordinary table.
func pathTable(text string, ref ReferenceArtifact) (fields []expectedField, isTable bool, err error) {
	name := ref.Path
	if name == "" {
		name = ref.ArtifactID
	}
	r := csv.NewReader(strings.NewReader(text))
	if ref.MediaType == "text/tab-separated-values" {
		r.Comma = '\t'
	}
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err == io.EOF {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, csvError(name, err)
	}
	pathCol, expCol := -1, -1
	for _, want := range pathColumns {
		if pathCol < 0 {
			pathCol = columnIndex(header, want)
		}
	}
	for _, want := range expectedColumns {
		if expCol < 0 {
			expCol = columnIndex(header, want)
		}
	}
	if pathCol < 0 || expCol < 0 {
		return nil, false, nil
	}
	seen := map[string]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, true, csvError(name, err)
		}
		line, _ := r.FieldPos(0)
		if allBlank(rec) {
			continue
		}
		if pathCol >= len(rec) || strings.TrimSpace(rec[pathCol]) == "" {
			return nil, true, inputerr.New(name, line, "expected a field path in column %q", header[pathCol])
		}
		p, err := CanonicalPath(rec[pathCol])
		if err != nil {
			return nil, true, inputerr.New(name, line, "%v", err)
		}
		if prev, dup := seen[p]; dup {
			return nil, true, inputerr.New(name, line, "path %s is listed twice (first on line %d)", p, prev)
		}
		seen[p] = line
		val := ""
		if expCol < len(rec) {
			val = rec[expCol]
		}
		fields = append(fields, expectedField{p, val})
	}
	return fields, true, nil
}

func columnIndex(header []string, want string) int {
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(ingest.StripBOMString(h)), want) {
			return i
		}
	}
	return -1
}

func allBlank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func csvError(name string, err error) error {
	if pe, ok := err.(*csv.ParseError); ok {
		return &inputerr.Error{File: name, Line: pe.Line, Column: pe.Column, Msg: "invalid CSV: " + pe.Err.Error()}
	}
	return inputerr.New(name, 0, "invalid CSV: %v", err)
}
