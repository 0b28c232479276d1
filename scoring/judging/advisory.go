package judging

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/docscore/docscore/scoring/evalcase"
)

// This file is the pure side of the model-assisted review of SPEC B.5:
// the pages with the lowest overlap are sent to a judge with a review
// rubric, and its answers and probabilities are kept as advisory
// diagnostics, in a file of their own, never touching deterministic scores.
// The receipts command adapts its report's pages to AdvisoryPage.

// ReceiptReviewRubricVersion versions ReceiptReviewRubric.
const ReceiptReviewRubricVersion = "docscore-receipt-review/1"

// ReceiptReviewRubric is the rubric a judge applies to a low-overlap
// receipt page.
const ReceiptReviewRubric = `The prediction is an OCR transcription of a receipt image; the ground_truth reference is a partial human transcription of the same receipt (it may leave out visible text, which is not an error in the prediction). The page scored low on token overlap (ROUGE-L) or numeric-string recall.
Pass when the prediction is a faithful reading of the receipt: every number and word the reference shows is present and correct, allowing for layout, order and formatting differences. Fail when a number or word is misread, missing or invented. Use the receipt image, when attached, to decide which side is right.
For each listed missing number, say in a claim whether the prediction misread it, left it out, or the reference is wrong. Give your confidence as the probability that the verdict is right.`

// AdvisoryPage is one scored page offered for review.
type AdvisoryPage struct {
	SampleID string `json:"sample_id"`
	Phase    string `json:"phase"`
	// F1 and NumericRecall are the deterministic scores (nil when
	// undefined); they are copied into the review, never changed.
	F1             *float64 `json:"f1"`
	NumericRecall  *float64 `json:"numeric_recall"`
	MissingNumbers []string `json:"missing_numbers"`
	// Output is the model's raw output; Reference the reference text.
	Output    string `json:"-"`
	Reference string `json:"-"`
	// Image, when set, is the page image sent to the judge as evidence.
	Image *evalcase.ReferenceArtifact `json:"-"`
}

// LowestOverlapPages returns the n pages with the lowest F1 (then lowest
// numeric recall, then by phase and sample id); pages without an F1 are
// not ranked.
func LowestOverlapPages(pages []AdvisoryPage, n int) []AdvisoryPage {
	var ranked []AdvisoryPage
	for _, p := range pages {
		if p.F1 != nil {
			ranked = append(ranked, p)
		}
	}
	val := func(f *float64) float64 {
		if f == nil {
			return 2 // undefined numeric recall ranks after any defined one
		}
		return *f
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		a, b := ranked[i], ranked[j]
		switch {
		case *a.F1 != *b.F1:
			return *a.F1 < *b.F1
		case val(a.NumericRecall) != val(b.NumericRecall):
			return val(a.NumericRecall) < val(b.NumericRecall)
		case a.Phase != b.Phase:
			return a.Phase < b.Phase
		}
		return a.SampleID < b.SampleID
	})
	if n >= 0 && n < len(ranked) {
		ranked = ranked[:n]
	}
	return ranked
}

// AdvisoryResult is the judge's review of one page.
type AdvisoryResult struct {
	AdvisoryPage
	// Prompt is what the judge received: instructions and task.
	Prompt json.RawMessage `json:"prompt"`
	// Verdict, Probability (the judge's confidence) and Rationale are the
	// answer; Unusable and RawAnswer keep an answer that could not be used.
	Verdict     evalcase.Verdict `json:"verdict"`
	Probability *float64         `json:"probability"`
	Rationale   string           `json:"rationale"`
	Answer      *JudgeOutput     `json:"answer,omitempty"`
	Unusable    string           `json:"unusable,omitempty"`
	RawAnswer   string           `json:"raw_answer,omitempty"`
	// NotJudged says why the page was never sent (a cost ceiling): its
	// verdict is uncertain with no probability.
	NotJudged string `json:"not_judged,omitempty"`
}

// AdvisoryReport is the advisory diagnostics file of a review.
type AdvisoryReport struct {
	Kind string `json:"kind"`
	// Advisory is always true: nothing here changes a deterministic score.
	Advisory bool              `json:"advisory"`
	Notice   string            `json:"notice"`
	Judge    *ModelInfo        `json:"judge"`
	Rubric   InstructionRecord `json:"rubric"`
	Pages    []AdvisoryResult  `json:"pages"`
	// Incomplete is true when a page was not judged (see NotJudged).
	Incomplete bool `json:"incomplete,omitempty"`
	// Usage is the calls' usage and cost, set by hosts that meter them.
	Usage *UsageSummary `json:"usage,omitempty"`
}

// AdvisoryReportKind is the Kind of an AdvisoryReport.
const AdvisoryReportKind = "docscore-advisory-review"

// ReviewPages asks judge to review each page with rubric (the receipts
// rubric when empty). An unusable answer is kept with its raw text and an
// uncertain verdict; any other judge error stops the review.
func ReviewPages(ctx context.Context, judge Judge, pages []AdvisoryPage, rubric string) (*AdvisoryReport, error) {
	if judge == nil {
		return nil, errors.New("advisory review needs a judge")
	}
	version := "caller"
	if rubric == "" {
		rubric, version = ReceiptReviewRubric, ReceiptReviewRubricVersion
	}
	rep := &AdvisoryReport{
		Kind: AdvisoryReportKind, Advisory: true,
		Notice: "Advisory model-assisted review: these answers and probabilities are diagnostics only; they never change the deterministic scores, which are reported elsewhere.",
		Rubric: InstructionRecord{Name: "review_rubric", Source: "docscore", Version: version, SHA256: evalcase.SHA256Hex([]byte(rubric)), Text: rubric},
		Pages:  []AdvisoryResult{},
	}
	if ij, ok := judge.(InfoJudge); ok {
		info := ij.Info()
		rep.Judge = &info
	}
	for _, p := range pages {
		refText, err := evalcase.ArtifactFromValue(p.Reference, evalcase.ArtifactOptions{ArtifactID: "reference", Authority: evalcase.AuthorityGroundTruth, ComparisonMode: evalcase.ComparisonSemantic})
		if err != nil {
			return nil, err
		}
		refs := []evalcase.ReferenceArtifact{refText}
		if p.Image != nil {
			refs = append(refs, *p.Image)
		}
		stage := evalcase.EvaluationCase{
			CaseID: p.SampleID, StageID: p.Phase + "/" + p.SampleID, Operation: "receipt_ocr_review",
			Prediction: map[string]any{"transcription": p.Output, "missing_numbers": p.MissingNumbers},
			References: refs, Rubric: rubric,
		}
		req, err := BuildJudgeRequest(stage)
		if err != nil {
			return nil, err
		}
		prompt, err := evalcase.CanonicalJSON(struct {
			Instructions string `json:"instructions"`
			Task         any    `json:"task"`
		}{req.Instructions, ModelRequestForJudge(req).Input})
		if err != nil {
			return nil, err
		}
		res := AdvisoryResult{AdvisoryPage: p, Prompt: prompt}
		out, err := judge.Judge(ctx, req)
		if err == nil {
			if verr := out.Validate(); verr != nil {
				err = &UnusableAnswerError{Err: verr}
			}
		}
		var ua *UnusableAnswerError
		var nj *NotJudgedError
		switch {
		case errors.As(err, &nj):
			res.Verdict, res.NotJudged = evalcase.Uncertain, nj.Reason
			rep.Incomplete = true
		case errors.As(err, &ua):
			res.Verdict, res.Unusable, res.RawAnswer = evalcase.Uncertain, ua.Error(), ua.Raw
		case err != nil:
			return nil, fmt.Errorf("advisory review of %s/%s: %w", p.Phase, p.SampleID, err)
		default:
			c := out.Confidence
			res.Verdict, res.Probability, res.Rationale, res.Answer = out.Verdict, &c, out.Rationale, &out
		}
		rep.Pages = append(rep.Pages, res)
	}
	return rep, nil
}
