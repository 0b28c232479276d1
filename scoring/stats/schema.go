package stats

// Kind says how a statistic is computed from the summed contributions of
// a draw (SPEC F.2).
type Kind uint8

const (
	// Ratio is Σ num / Σ den, undefined when Σ den is 0: field accuracy,
	// name CER, numeric recall, and a mean over non-null values (Σ value /
	// Σ count).
	Ratio Kind = iota
	// RatioOrZero is Σ num / Σ den, 0 when Σ den is 0: precision and
	// recall (SPEC A.2).
	RatioOrZero
	// F1 is the traveler F1 of SPEC A.2 and A.6 from the sums of matched
	// (Num), predicted (Den) and reference (Ref) counts: P and R as
	// RatioOrZero, then 2·P·R/(P+R), 0 when P+R is 0. Never undefined.
	F1
	// DonutF1 is Donut's micro field F1 from matched (Num), predicted
	// (Den) and reference (Ref) counts: m / (m + ((pred−m)+(ref−m))/2),
	// undefined when that denominator is 0.
	DonutF1
)

// Stat is one statistic of a cell: its name as the cell names it, the
// group it sits in ("" for the cell's own members, "fields" for the
// tabular fields, "structured" for the receipts' structured metrics), how
// it is computed, and which components it reads.
type Stat struct {
	Name  string
	Group string
	Kind  Kind
	// Num, Den and Ref index the unit contribution vector (Ref only for
	// F1 and DonutF1).
	Num, Den, Ref int
	// LowerIsBetter is true for an error rate (name CER): a comparison
	// whose delta is negative then favours the new side.
	LowerIsBetter bool
}

// Path is the statistic's name with its group: "f1", "fields.title".
func (s *Stat) Path() string {
	if s.Group == "" {
		return s.Name
	}
	return s.Group + "." + s.Name
}

// value computes the statistic from summed contributions; ok is false
// when it is undefined on them. It allocates nothing.
func (s *Stat) value(sum []float64) (v float64, ok bool) {
	switch s.Kind {
	case Ratio:
		d := sum[s.Den]
		if d == 0 {
			return 0, false
		}
		return sum[s.Num] / d, true
	case RatioOrZero:
		d := sum[s.Den]
		if d == 0 {
			return 0, true
		}
		return sum[s.Num] / d, true
	case F1:
		m, np, ng := sum[s.Num], sum[s.Den], sum[s.Ref]
		var p, r float64
		if np > 0 {
			p = m / np
		}
		if ng > 0 {
			r = m / ng
		}
		if p+r > 0 {
			return 2 * p * r / (p + r), true
		}
		return 0, true
	case DonutF1:
		m, np, ng := sum[s.Num], sum[s.Den], sum[s.Ref]
		den := m + ((np-m)+(ng-m))/2
		if den == 0 {
			return 0, false
		}
		return m / den, true
	}
	return 0, false
}

// Schema lays out a family's unit contributions and statistics: Width
// components per unit, the statistics in the cell's order, the statistic
// whose per-unit value drives the movement lists, and the unit's name.
type Schema struct {
	Family     string // "tabular" or "receipts"
	Unit       string // "page" or "sample"
	Width      int
	Components []string // the components' names, for messages
	Stats      []Stat
	// Movement indexes Stats: the statistic whose value on one unit is
	// that unit's own score for the movement lists (SPEC F.5).
	Movement int
}

// Tabular component indices (SPEC F.1); field i's sum and scored count
// follow at TabFields+2i and TabFields+2i+1.
const (
	TabMatched = iota
	TabNModel
	TabNGT
	TabNameEdits
	TabNameRefChars
	TabFields
)

// TabularSchema returns the schema of a tabular cell scoring fields, in
// the cell's order: precision, recall, f1, name_cer, then each field's
// accuracy under "fields" (SPEC A.4, F.1).
func TabularSchema(fields []string) *Schema {
	s := &Schema{
		Family:     "tabular",
		Unit:       "page",
		Width:      TabFields + 2*len(fields),
		Components: []string{"matched", "n_model", "n_gt", "name_cer_edits", "name_ref_chars"},
		Stats: []Stat{
			{Name: "precision", Kind: RatioOrZero, Num: TabMatched, Den: TabNModel},
			{Name: "recall", Kind: RatioOrZero, Num: TabMatched, Den: TabNGT},
			{Name: "f1", Kind: F1, Num: TabMatched, Den: TabNModel, Ref: TabNGT},
			{Name: "name_cer", Kind: Ratio, Num: TabNameEdits, Den: TabNameRefChars, LowerIsBetter: true},
		},
		Movement: 2,
	}
	for i, f := range fields {
		s.Components = append(s.Components, f+".sum", f+".scored")
		s.Stats = append(s.Stats, Stat{Name: f, Group: "fields", Kind: Ratio,
			Num: TabFields + 2*i, Den: TabFields + 2*i + 1})
	}
	return s
}

// Receipts component indices (SPEC F.1). A page's ROUGE-L F1 is the pair
// (f1, 1), or (0, 0) when it is null, so that the mean over the non-null
// pages of a draw is a ratio of sums; the TED accuracy likewise.
const (
	RecF1Sum = iota
	RecF1Count
	RecNumericMatched
	RecNumericRef
	RecTEDSum
	RecTEDCount
	RecFieldsMatched
	RecFieldsPred
	RecFieldsRef
)

// ReceiptsSchema returns the schema of a receipts phase: rouge_l_f1_mean
// and numeric_recall, and with structured metrics ted_accuracy_mean and
// field_f1 under "structured" (SPEC B.3, F.1).
func ReceiptsSchema(structured bool) *Schema {
	s := &Schema{
		Family:     "receipts",
		Unit:       "sample",
		Width:      RecTEDSum,
		Components: []string{"f1_sum", "f1_count", "numeric_matched", "numeric_ref"},
		Stats: []Stat{
			{Name: "rouge_l_f1_mean", Kind: Ratio, Num: RecF1Sum, Den: RecF1Count},
			{Name: "numeric_recall", Kind: Ratio, Num: RecNumericMatched, Den: RecNumericRef},
		},
		Movement: 0,
	}
	if structured {
		s.Width = RecFieldsRef + 1
		s.Components = append(s.Components, "ted_sum", "ted_count", "fields_matched", "fields_pred", "fields_ref")
		s.Stats = append(s.Stats,
			Stat{Name: "ted_accuracy_mean", Group: "structured", Kind: Ratio, Num: RecTEDSum, Den: RecTEDCount},
			Stat{Name: "field_f1", Group: "structured", Kind: DonutF1,
				Num: RecFieldsMatched, Den: RecFieldsPred, Ref: RecFieldsRef})
	}
	return s
}

// sameLayout reports whether two schemas compute the same statistics from
// the same components, so that their cells can be compared.
func sameLayout(a, b *Schema) bool {
	if a == b {
		return true
	}
	if a.Family != b.Family || a.Unit != b.Unit || a.Width != b.Width ||
		a.Movement != b.Movement || len(a.Stats) != len(b.Stats) {
		return false
	}
	for i := range a.Stats {
		if a.Stats[i] != b.Stats[i] {
			return false
		}
	}
	return true
}

// Text component indices (SPEC G.3, F.1): a page's edits and ground-truth
// counts summed over its runs, the sums and counts of its rates for the
// macro means, and its bag-of-words counts.
const (
	TxtCharEdits = iota
	TxtGTChars
	TxtWordEdits
	TxtGTWords
	TxtCERSum
	TxtCERCount
	TxtWERSum
	TxtWERCount
	TxtBowMatched
	TxtBowOCR
	TxtBowGT
	txtWidth
)

// TextSchema returns the schema of a page-text cell: the micro cer and
// wer, their macro means cer_macro and wer_macro, and bag-of-words
// precision, recall and F1 (SPEC G.3). A page's CER drives the movement
// lists.
func TextSchema() *Schema {
	return &Schema{
		Family: "text",
		Unit:   "page",
		Width:  txtWidth,
		Components: []string{"char_edits", "gt_chars", "word_edits", "gt_words", "cer_sum", "cer_count",
			"wer_sum", "wer_count", "bow_matched", "bow_ocr", "bow_gt"},
		Stats: []Stat{
			{Name: "cer", Kind: Ratio, Num: TxtCharEdits, Den: TxtGTChars, LowerIsBetter: true},
			{Name: "wer", Kind: Ratio, Num: TxtWordEdits, Den: TxtGTWords, LowerIsBetter: true},
			{Name: "cer_macro", Kind: Ratio, Num: TxtCERSum, Den: TxtCERCount, LowerIsBetter: true},
			{Name: "wer_macro", Kind: Ratio, Num: TxtWERSum, Den: TxtWERCount, LowerIsBetter: true},
			{Name: "bow_precision", Kind: RatioOrZero, Num: TxtBowMatched, Den: TxtBowOCR},
			{Name: "bow_recall", Kind: RatioOrZero, Num: TxtBowMatched, Den: TxtBowGT},
			{Name: "bow_f1", Kind: F1, Num: TxtBowMatched, Den: TxtBowOCR, Ref: TxtBowGT},
		},
		Movement: 0,
	}
}
