package tabularreport

import (
	"encoding/json"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
)

// Report is the result of scoring a runs file (SPEC A.4). Its JSON form
// (WriteJSON, the one encoder) is the contract shared by the command line,
// the browser and the Worker. The struct tags name the keys for the tests'
// oracle, encoding/json, which WriteJSON is held to byte for byte; encode a
// report with WriteJSON, JSON or SummaryJSON, not with encoding/json.
type Report struct {
	Kind     string       `json:"kind"` // always "tabular"
	Gate     float64      `json:"gate"`
	Key      string       `json:"key"`    // the matching column
	Fields   []string     `json:"fields"` // the scored columns, in order
	Rules    RulesSummary `json:"rules"`
	Warnings []string     `json:"warnings"`
	// LeftOut lists what a scoring with SkipBadInputs left out and why:
	// ground-truth files that cannot be read, rule rows that do not parse,
	// runs lines that are malformed or have no ground truth. Left out of
	// the JSON when empty.
	LeftOut []LeftOut     `json:"left_out,omitempty"`
	Cells   []*Cell       `json:"cells"`
	Images  []*ImageScore `json:"images"`
	Preview *Preview      `json:"preview,omitempty"`
}

// LeftOut is one input a scoring left out (Request.SkipBadInputs): its
// file, line and column (0 when not known), what it is ("ground-truth
// file", "rule file", "rule row", "runs line") and why.
type LeftOut struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	What   string `json:"what"`
	Why    string `json:"why"`
}

// What a LeftOut is.
const (
	LeftGTFile   = "ground-truth file"
	LeftRuleFile = "rule file"
	LeftRuleRow  = "rule row"
	LeftRunsLine = "runs line"
)

// String is "file:line:column: what left out: why", without the parts
// not known, as an input error is written.
func (l LeftOut) String() string {
	e := inputerr.Error{File: l.File, Line: l.Line, Column: l.Column, Msg: l.What + " left out: " + l.Why}
	return e.Error()
}

// NewLeftOut is the LeftOut of an input error.
func NewLeftOut(what string, e *inputerr.Error) LeftOut {
	return LeftOut{File: e.File, Line: e.Line, Column: e.Column, What: what, Why: e.Msg}
}

// RulesSummary says which rule file scored the report.
type RulesSummary struct {
	File    string  `json:"file"` // empty without a rule file
	Settled int     `json:"settled"`
	Open    int     `json:"open"`
	SHA256  *string `json:"sha256"` // null without a rule file
	Preview bool    `json:"preview"`
}

// Cell is the pooled score of one (model, phase).
type Cell struct {
	Model        string      `json:"model"`
	Phase        string      `json:"phase"`
	ImagesOK     int         `json:"images_ok"`
	ImagesFailed int         `json:"images_failed"`
	Matched      int         `json:"matched"`
	NModel       int         `json:"n_model"`
	NGT          int         `json:"n_gt"`
	Precision    float64     `json:"precision"`
	Recall       float64     `json:"recall"`
	F1           float64     `json:"f1"`
	NameCER      *float64    `json:"name_cer"` // null when no name was matched
	NameEdits    int         `json:"name_cer_edits"`
	NameRefChars int         `json:"name_ref_chars"`
	Fields       FieldTotals `json:"fields"`
	// CI holds the cell's confidence intervals (SPEC F.4); nil, and left
	// out, when none were asked for.
	CI *stats.CI `json:"ci,omitempty"`
}

// FieldTotal is a field's pooled accuracy.
type FieldTotal struct {
	Name     string   `json:"-"`
	Accuracy *float64 `json:"accuracy"` // null when nothing was scorable
	Scored   int      `json:"scored"`
	Sum      float64  `json:"sum"`
}

// FieldTotals are written as one object keyed by field name, in schema order.
type FieldTotals []FieldTotal

// Get returns the named field's total.
func (ft FieldTotals) Get(name string) (FieldTotal, bool) {
	for _, f := range ft {
		if f.Name == name {
			return f, true
		}
	}
	return FieldTotal{}, false
}

// ImageScore is the score of one image (one line of the runs file).
type ImageScore struct {
	Model        string          `json:"model"`
	Phase        string          `json:"phase"`
	Run          json.RawMessage `json:"run"`
	Page         string          `json:"page"`
	Status       string          `json:"status"` // "ok" or "failed"
	Line         int             `json:"line"`
	Failure      string          `json:"failure,omitempty"`
	Matched      int             `json:"matched"`
	NModel       int             `json:"n_model"`
	NGT          int             `json:"n_gt"`
	Precision    float64         `json:"precision"`
	Recall       float64         `json:"recall"`
	F1           float64         `json:"f1"`
	NameEdits    int             `json:"name_cer_edits"`
	NameRefChars int             `json:"name_ref_chars"`
	Fields       FieldSums       `json:"fields"`
	Pairs        []*Pair         `json:"pairs"`
	// UnmatchedModel are the names of model records paired with no GT row
	// (extras); UnmatchedGT the GT names no record was paired with (misses).
	UnmatchedModel []string `json:"unmatched_model"`
	UnmatchedGT    []string `json:"unmatched_gt"`
}

// FieldSum is one field's sum of scores and count of scorable pairs.
type FieldSum struct {
	Name   string  `json:"-"`
	Sum    float64 `json:"sum"`
	Scored int     `json:"scored"`
}

// FieldSums are written as one object keyed by field name, in schema order.
type FieldSums []FieldSum

// Pair is one matched (GT row, model record) pair.
type Pair struct {
	GT         string  `json:"gt"`
	Model      string  `json:"model"`
	GTIndex    int     `json:"gt_index"`
	ModelIndex int     `json:"model_index"`
	GTLine     int     `json:"gt_line"`
	Similarity float64 `json:"similarity"`
	// SimilarityGT says which ground truth gave the similarity: "resolved"
	// (illegible glyphs resolved against the reading) or "written".
	SimilarityGT string      `json:"similarity_gt"`
	GTResolved   string      `json:"gt_resolved"`
	ModelReading string      `json:"model_reading"`
	NameEdits    int         `json:"name_cer_edits"`
	NameRefChars int         `json:"name_ref_chars"`
	Fields       PairFields  `json:"fields"`
	Extra        ExtraFields `json:"extra,omitempty"`
}

// PairField is one field's score on a pair; Score is nil when unscorable.
type PairField struct {
	Name  string
	Score *float64
}

// PairFields are written as one object keyed by field name, in schema
// order, with null for unscorable fields.
type PairFields []PairField

// ExtraFields are a record's unscored keys, in input order.
type ExtraFields []tabularread.Field

// Preview reports what switching OPEN rows on changes.
type Preview struct {
	Rows  []rules.Row    `json:"rows"`
	Cells []*PreviewCell `json:"cells"`
	// Comparison compares each cell settled (A) with its preview (B) on
	// its pages (SPEC F.6): the bytes "docscore compare --preview" writes
	// for the settled and the preview report. Nil, and left out, when
	// neither intervals nor p-values are asked for.
	Comparison *stats.Report `json:"comparison,omitempty"`
	// Changes lists every pair and field the preview changed (before →
	// after), in image order, each with the previewed rows that make it
	// alone; ChangeCounts tallies them per previewed row (in Rows' order),
	// ChangeTotal all of them.
	Changes      []Change      `json:"changes"`
	ChangeCounts []ChangeCount `json:"change_counts"`
	ChangeTotal  ChangeTally   `json:"change_total"`
}

// Delta is a metric with the settled rules, with the previewed rows on, and
// the difference (null when either side is null).
type Delta struct {
	Settled *float64 `json:"settled"`
	Preview *float64 `json:"preview"`
	Delta   *float64 `json:"delta"`
}

// PreviewCell holds the deltas of one cell.
type PreviewCell struct {
	Model     string      `json:"model"`
	Phase     string      `json:"phase"`
	Precision Delta       `json:"precision"`
	Recall    Delta       `json:"recall"`
	F1        Delta       `json:"f1"`
	NameCER   Delta       `json:"name_cer"`
	Fields    FieldDeltas `json:"fields"`
}

// FieldDelta is one field's accuracy delta.
type FieldDelta struct {
	Name string
	Delta
}

// FieldDeltas are written as one object keyed by field name, in schema order.
type FieldDeltas []FieldDelta
