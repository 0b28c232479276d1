package harness

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// Metric kinds that wrap docscore's own scorers.
const (
	// KindTabular scores a stage's records against a ground-truth CSV
	// reference with the tabular scorer (SPEC A).
	KindTabular = "tabular"
	// KindReceipts scores a stage's OCR text against a ground-truth
	// receipt reference with ROUGE-L and numeric recall (SPEC B).
	KindReceipts = "receipts"
)

func thresholdOr1(t *float64) float64 {
	if t == nil {
		return 1
	}
	return *t
}

func nameOr(name, kind string) string {
	if name == "" {
		return kind
	}
	return name
}

// TabularMetric scores a stage whose prediction is a list of records (or a
// model's raw answer holding one) against the stage's one ground-truth CSV
// reference, with the default register schema and the default gate. A
// reference of kind markdown whose metadata has "role": "rules" is the
// rule file. The verdict is pass when F1 reaches Threshold.
type TabularMetric struct {
	MetricName string
	Threshold  float64
}

// Name returns the metric's name in reports.
func (m *TabularMetric) Name() string { return nameOr(m.MetricName, KindTabular) }

// Fingerprint makes the threshold part of the stage fingerprint.
func (m *TabularMetric) Fingerprint() string { return fmt.Sprintf("tabular threshold=%v", m.Threshold) }

// Evaluate runs the tabular scorer on the stage.
func (m *TabularMetric) Evaluate(_ context.Context, stage evalcase.EvaluationCase) (evalcase.MetricResult, error) {
	res := evalcase.MetricResult{Metric: m.Name(), Scores: map[string]float64{}}
	var gt []evalcase.ReferenceArtifact
	var rules *tabular.File
	for _, ref := range stage.References {
		text, ok := ref.Value.(string)
		switch {
		case ref.Authority == evalcase.AuthorityGroundTruth && ref.Kind == evalcase.KindCSV && ok:
			gt = append(gt, ref)
		case ref.Kind == evalcase.KindMarkdown && ok && ref.Metadata["role"] == "rules":
			rules = &tabular.File{Name: ref.ArtifactID, Data: []byte(text)}
		}
	}
	if len(gt) != 1 {
		res.Verdict = evalcase.NotApplicable
		res.Reason = fmt.Sprintf("the tabular metric needs exactly one ground-truth CSV reference; the stage has %d", len(gt))
		if len(gt) > 1 {
			res.Verdict = evalcase.Uncertain
		}
		return res, nil
	}
	line := map[string]any{"model": stage.Stage(), "phase": "", "run": 1, "page": "1"}
	switch p := stage.Prediction.(type) {
	case string:
		line["response"] = p
	default:
		line["records"] = p
	}
	runs, err := json.Marshal(line)
	if err != nil {
		return res, fmt.Errorf("prediction: %w", err)
	}
	rep, err := tabular.ScoreRequest(tabular.Request{
		GT:    []tabular.File{{Name: "gt_page_1.csv", Data: []byte(gt[0].Value.(string))}},
		Runs:  tabular.File{Name: stage.Stage() + " prediction", Data: runs},
		Rules: rules,
	})
	if err != nil {
		res.Verdict, res.Reason = evalcase.Uncertain, "the tabular scorer could not read the stage: "+err.Error()
		return res, nil
	}
	im := rep.Images[0]
	if im.Status != "ok" {
		res.Verdict, res.Reason = evalcase.Fail, "the prediction holds no records: "+im.Failure
		return res, nil
	}
	res.Scores["f1"], res.Scores["precision"], res.Scores["recall"] = im.F1, im.Precision, im.Recall
	if im.NameRefChars > 0 {
		res.Scores["name_cer"] = float64(im.NameEdits) / float64(im.NameRefChars)
	}
	sum, scored := 0.0, 0
	for _, f := range im.Fields {
		if f.Scored > 0 {
			res.Scores["accuracy."+f.Name] = f.Sum / float64(f.Scored)
			sum += f.Sum
			scored += f.Scored
		}
	}
	if scored > 0 {
		res.Scores[evalcase.ScoreFieldAccuracy] = sum / float64(scored)
	}
	res.Verdict = evalcase.Fail
	if im.F1 >= m.Threshold {
		res.Verdict = evalcase.Pass
	}
	res.Reason = fmt.Sprintf("matched %d of %d ground-truth rows and %d predicted records (gate %v)", im.Matched, im.NGT, im.NModel, rep.Gate)
	return res, res.SetDetails(struct {
		Pairs          []*tabularreport.Pair `json:"pairs"`
		UnmatchedModel []string              `json:"unmatched_model"`
		UnmatchedGT    []string              `json:"unmatched_gt"`
	}{im.Pairs, im.UnmatchedModel, im.UnmatchedGT})
}

// ReceiptsMetric scores a stage whose prediction is OCR text against the
// stage's one ground-truth reference: plain text, or a CORD annotation
// (JSON) whose valid_line words are the reference text. The verdict is
// pass when the ROUGE-L F1 reaches Threshold.
type ReceiptsMetric struct {
	MetricName string
	Threshold  float64
}

// Name returns the metric's name in reports.
func (m *ReceiptsMetric) Name() string { return nameOr(m.MetricName, KindReceipts) }

// Fingerprint makes the threshold part of the stage fingerprint.
func (m *ReceiptsMetric) Fingerprint() string {
	return fmt.Sprintf("receipts threshold=%v", m.Threshold)
}

// Evaluate runs the receipt scorer on the stage.
func (m *ReceiptsMetric) Evaluate(_ context.Context, stage evalcase.EvaluationCase) (evalcase.MetricResult, error) {
	res := evalcase.MetricResult{Metric: m.Name(), Scores: map[string]float64{}}
	pred, ok := stage.Prediction.(string)
	if !ok {
		res.Verdict, res.Reason = evalcase.NotApplicable, "the receipts metric scores a text prediction"
		return res, nil
	}
	var refs []string
	for _, ref := range stage.References {
		if ref.Authority != evalcase.AuthorityGroundTruth {
			continue
		}
		switch v := ref.Value.(type) {
		case string:
			refs = append(refs, v)
		case map[string]any:
			b, err := json.Marshal(v)
			if err != nil {
				return res, err
			}
			r, err := receiptsread.ParseCORD(ref.ArtifactID, b, receiptsread.ParseOptions{})
			if err != nil {
				res.Verdict, res.Reason = evalcase.Uncertain, "the CORD reference could not be read: "+err.Error()
				return res, nil
			}
			refs = append(refs, r.Text)
		}
	}
	if len(refs) != 1 {
		res.Verdict = evalcase.NotApplicable
		res.Reason = fmt.Sprintf("the receipts metric needs exactly one ground-truth text or CORD reference; the stage has %d", len(refs))
		if len(refs) > 1 {
			res.Verdict = evalcase.Uncertain
		}
		return res, nil
	}
	s := receipts.ScoreText(pred, refs[0])
	if s.Rouge.F1 == nil {
		res.Verdict, res.Reason = evalcase.NotApplicable, "the reference text is empty"
		return res, nil
	}
	res.Scores["rouge_l_f1"] = *s.Rouge.F1
	res.Scores["rouge_l_recall"] = *s.Rouge.Recall
	if s.Rouge.Precision != nil {
		res.Scores["rouge_l_precision"] = *s.Rouge.Precision
	}
	if s.Numeric.Recall != nil {
		res.Scores["numeric_recall"] = *s.Numeric.Recall
	}
	res.Verdict = evalcase.Fail
	if *s.Rouge.F1 >= m.Threshold {
		res.Verdict = evalcase.Pass
	}
	res.Reason = fmt.Sprintf("LCS %d of %d reference tokens; %d of %d reference numbers found", s.Rouge.LCS, s.Rouge.RefTokens, s.Numeric.Matched, s.Numeric.Ref)
	return res, res.SetDetails(struct {
		MissingNumbers []string `json:"missing_numbers"`
	}{s.Numeric.Missing})
}
