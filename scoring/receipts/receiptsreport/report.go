package receiptsreport

import "github.com/docscore/docscore/scoring/stats"

// Report is the score of one pilot run against its references. Its JSON
// form (WriteJSON) has a stable key order and float formatting, so the same
// inputs give the same bytes on every host. Pointer fields are JSON null
// when a score is not defined.
type Report struct {
	Kind       string `json:"kind"` // always "receipts"
	RunID      string `json:"run_id"`
	Model      string `json:"model,omitempty"`
	Complete   bool   `json:"complete"`   // every planned pair appears exactly once
	Incomplete bool   `json:"incomplete"` // the opposite: scored under AllowIncomplete
	// Planned is the number of planned (phase, sample) pairs.
	Planned int `json:"planned"`
	// CompletedRecords counts the measured request records in the file
	// (warmups left out; duplicates and unplanned pairs counted).
	CompletedRecords int `json:"completed_records"`
	// ScoredRecords counts the pages scored: one per distinct pair.
	ScoredRecords int `json:"scored_records"`
	// MissingCount counts the planned pairs with no record; Missing lists
	// the first MaxListedPairs of them, in plan order.
	MissingCount int           `json:"missing_count"`
	Missing      []Pair        `json:"missing"`
	Duplicated   []Duplicate   `json:"duplicated"`
	Unplanned    []Unplanned   `json:"unplanned"`
	EndStatus    *string       `json:"end_status"` // the last end record's status; null when there is none
	SkippedLines []SkippedLine `json:"skipped_lines,omitempty"`
	// ReferenceOrder is "annotation_order" (SPEC B.1) or "reading_order".
	ReferenceOrder string  `json:"reference_order"`
	Phases         []Phase `json:"phases"`
	Pages          []Page  `json:"pages"`
}

// Pair is one (phase, sample) pair of a run.
type Pair struct {
	Phase    string `json:"phase"`
	SampleID string `json:"sample_id"`
}

// Duplicate is a pair recorded more than once; the first record is scored.
type Duplicate struct {
	Phase      string `json:"phase"`
	SampleID   string `json:"sample_id"`
	Count      int    `json:"count"`
	Lines      []int  `json:"lines"`
	ScoredLine int    `json:"scored_line"`
}

// Unplanned is a recorded pair the run header did not plan; it is scored.
type Unplanned struct {
	Phase    string `json:"phase"`
	SampleID string `json:"sample_id"`
	Line     int    `json:"line"`
}

// SkippedLine is a malformed run line left out under SkipBadLines.
type SkippedLine struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// Phase aggregates the pages of one measured phase.
type Phase struct {
	Phase   string `json:"phase"`
	Primary bool   `json:"primary"` // c1: the primary quality observation
	Pages   int    `json:"pages"`
	// PagesWithF1 counts the pages whose reference is non-empty.
	PagesWithF1 int `json:"pages_with_f1"`
	// RougeLF1Mean is the mean of the page F1s (null pages left out).
	RougeLF1Mean   *float64 `json:"rouge_l_f1_mean"`
	NumericMatched int      `json:"numeric_matched"`
	NumericRef     int      `json:"numeric_ref"`
	// NumericRecall is Σ matched / Σ reference numbers over the phase.
	NumericRecall *float64 `json:"numeric_recall"`
	// ScoredText counts the pages whose text was used (ok and stop).
	ScoredText   int `json:"scored_text"`
	EmptyOutputs int `json:"empty_outputs"`
	Truncated    int `json:"truncated"`
	// StatusCounts and FinishReasonCounts count the pages by status and
	// by finish reason ("null" when there was none).
	StatusCounts       map[string]int `json:"status_counts"`
	FinishReasonCounts map[string]int `json:"finish_reason_counts"`
	// Structured holds the Donut-style metrics when the phase has them.
	Structured *PhaseStructured `json:"structured,omitempty"`
	// CI holds the phase's confidence intervals (SPEC F.4); nil, and left
	// out, when none were asked for.
	CI *stats.CI `json:"ci,omitempty"`
}

// PhaseStructured pools the structured metrics of a phase.
type PhaseStructured struct {
	// Pages counts the pages whose reference has a gt_parse; Parsed those
	// whose scored prediction was a JSON parse (the rest count as {}).
	Pages  int `json:"pages"`
	Parsed int `json:"parsed"`
	// TEDAccuracyMean is the mean page TED accuracy.
	TEDAccuracyMean *float64 `json:"ted_accuracy_mean"`
	// FieldF1 is Donut's micro-averaged field F1 over the phase.
	FieldF1       *float64 `json:"field_f1"`
	FieldsMatched int      `json:"fields_matched"`
	FieldsPred    int      `json:"fields_pred"`
	FieldsRef     int      `json:"fields_ref"`
}

// Page is the score of one (phase, sample) record.
type Page struct {
	Phase        string  `json:"phase"`
	SampleID     string  `json:"sample_id"`
	Line         int     `json:"line"` // of the run file
	Status       string  `json:"status"`
	FinishReason *string `json:"finish_reason"`
	// ScoredText is true when the output's text was scored (ok and stop);
	// otherwise the page is scored as an empty prediction.
	ScoredText  bool `json:"scored_text"`
	EmptyOutput bool `json:"empty_output"` // the raw output is null or blank
	Truncated   bool `json:"truncated"`    // finish_reason "length"
	// Flags lists the observations about the page, in a fixed order:
	// empty_output, truncated, not_scored, empty_after_cleaning,
	// duplicated, unplanned.
	Flags          []string `json:"flags"`
	Error          string   `json:"error,omitempty"`
	PredTokens     int      `json:"pred_tokens"`
	RefTokens      int      `json:"ref_tokens"`
	LCS            int      `json:"lcs"`
	Precision      *float64 `json:"precision"`
	Recall         *float64 `json:"recall"`
	F1             *float64 `json:"f1"`
	NumericRef     int      `json:"numeric_ref"`
	NumericMatched int      `json:"numeric_matched"`
	NumericRecall  *float64 `json:"numeric_recall"`
	MissingNumbers []string `json:"missing_numbers"`
	// Structured holds the page's Donut-style metrics when its phase has
	// them and its reference has a gt_parse.
	Structured *PageStructured `json:"structured,omitempty"`
}

// PageStructured is the structured score of one page.
type PageStructured struct {
	Parsed        bool     `json:"parsed"`
	TEDAccuracy   *float64 `json:"ted_accuracy"`
	FieldsMatched int      `json:"fields_matched"`
	FieldsPred    int      `json:"fields_pred"`
	FieldsRef     int      `json:"fields_ref"`
}

// Page flags.
const (
	FlagEmptyOutput        = "empty_output"
	FlagTruncated          = "truncated"
	FlagNotScored          = "not_scored"
	FlagEmptyAfterCleaning = "empty_after_cleaning"
	FlagDuplicated         = "duplicated"
	FlagUnplanned          = "unplanned"
)
