package pagetext

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/docscore/docscore/scoring/stats"
)

// ConfusionsKept is how many confusions a cell lists of each kind (SPEC
// G.3).
const ConfusionsKept = 50

// Epsilon stands for the missing side of an insertion or a deletion in a
// confusion.
const Epsilon = "ε"

// Report is a page-text scoring (SPEC G): one cell per model and phase,
// one row per scored page, the pages without a partner and the warnings.
// Its JSON (WriteJSON) has a stable key order, so equal inputs give equal
// bytes on every host.
type Report struct {
	Kind          string   `json:"kind"` // always "text"
	Level         string   `json:"level"`
	Normalization string   `json:"normalization"`
	Cells         []Cell   `json:"cells"`
	Pages         []Row    `json:"pages"`
	Unpaired      Unpaired `json:"unpaired"`
	Warnings      []string `json:"warnings"`
}

// Unpaired lists the pages of one side without a partner on the other
// (SPEC G.1), by id.
type Unpaired struct {
	GTOnly  []string `json:"gt_only"`
	OCROnly []string `json:"ocr_only"`
}

// Cell aggregates the pages of one model and phase (SPEC G.3): the micro
// rates (Σ edits ÷ Σ ground-truth units) as the headline, the macro means
// of the pages' rates beside them.
type Cell struct {
	Model     string   `json:"model"`
	Phase     string   `json:"phase"`
	Pages     int      `json:"pages"` // distinct pages
	Rows      int      `json:"rows"`  // pages × runs
	GTChars   int      `json:"gt_chars"`
	CharEdits int      `json:"char_edits"`
	CER       *float64 `json:"cer"`
	CERMacro  *float64 `json:"cer_macro"`
	GTWords   int      `json:"gt_words"`
	WordEdits int      `json:"word_edits"`
	WER       *float64 `json:"wer"`
	WERMacro  *float64 `json:"wer_macro"`
	// Bag of words, pooled over the cell's rows.
	BowMatched     int         `json:"bow_matched"`
	BowPrecision   float64     `json:"bow_precision"`
	BowRecall      float64     `json:"bow_recall"`
	BowF1          float64     `json:"bow_f1"`
	CharConfusions []Confusion `json:"char_confusions"`
	WordConfusions []Confusion `json:"word_confusions"`
	// CI holds the cell's intervals with the page as the unit (SPEC F.4);
	// nil, and left out, when none were asked for.
	CI *stats.CI `json:"ci,omitempty"`
}

// Confusion is a ground-truth unit read as an OCR unit (Epsilon for an
// insertion or a deletion), and how often.
type Confusion struct {
	GT    string `json:"gt"`
	OCR   string `json:"ocr"`
	Count int    `json:"count"`
}

// Row is one scored page of one model, phase and run (SPEC G.3).
type Row struct {
	Model string          `json:"model"`
	Phase string          `json:"phase"`
	Run   json.RawMessage `json:"run"`
	Page  string          `json:"page"`
	// GTFile and OCRFile name the files read (base names); Line is the
	// runs file's line (0 for files).
	GTFile       string   `json:"gt_file"`
	OCRFile      string   `json:"ocr_file,omitempty"`
	Line         int      `json:"line,omitempty"`
	CER          *float64 `json:"cer"`
	WER          *float64 `json:"wer"`
	CharEdits    int      `json:"char_edits"`
	GTChars      int      `json:"gt_chars"`
	OCRChars     int      `json:"ocr_chars"`
	WordEdits    int      `json:"word_edits"`
	GTWords      int      `json:"gt_words"`
	OCRWords     int      `json:"ocr_words"`
	BowMatched   int      `json:"bow_matched"`
	BowPrecision float64  `json:"bow_precision"`
	BowRecall    float64  `json:"bow_recall"`
	BowF1        float64  `json:"bow_f1"`
}

// ReportOptions choose how pages are read and cells summarized.
type ReportOptions struct {
	Extract ExtractOptions
	Limits  AlignLimits
	// Intervals are the cells' interval options; Replicates 0 leaves the
	// "ci" members out.
	Intervals stats.Options
	// NoIntervals leaves the intervals out whatever Intervals says.
	NoIntervals bool
}

// Scorer builds a Report page by page, keeping only each page's row and
// its cell's sums and confusion counts: a runs file streams through it
// in memory that grows with the rows, not with the texts (and not with
// the rows either when they are handed on instead: StreamRuns).
type Scorer struct {
	opts  ReportOptions
	cells map[cellKey]*cellAcc
	order []cellKey
	rows  []Row
	onRow func(*Row) error // when set, each row goes here instead of rows
	warn  []string
	unp   Unpaired
}

type cellKey struct{ model, phase string }

type cellAcc struct {
	Cell
	pages          map[string]bool
	cerSum, werSum float64
	cerN, werN     int
	bowOCR, bowGT  int
	chars, words   map[[2]string]int
	units          *stats.Builder
}

// NewScorer returns an empty scorer.
func NewScorer(opts ReportOptions) *Scorer {
	return &Scorer{opts: opts, cells: map[cellKey]*cellAcc{}}
}

// Add scores one page's OCR text against its ground truth, both already
// extracted and normalized, as a row of the cell model/phase.
func (s *Scorer) Add(row Row, gt, ocr string) error {
	p, err := ScorePage(gt, ocr, s.opts.Limits)
	if err != nil {
		return fmt.Errorf("page %q: %w", row.Page, err)
	}
	row.CER, row.WER = p.CER, p.WER
	row.CharEdits, row.GTChars, row.OCRChars = p.CharEdits, p.GTChars, p.OCRChars
	row.WordEdits, row.GTWords, row.OCRWords = p.WordEdits, p.GTWords, p.OCRWords
	row.BowMatched, row.BowPrecision, row.BowRecall, row.BowF1 = p.BowMatched, p.BowPrecision, p.BowRecall, p.BowF1
	if len(row.Run) == 0 {
		row.Run = json.RawMessage("null")
	}
	k := cellKey{row.Model, row.Phase}
	c := s.cells[k]
	if c == nil {
		c = &cellAcc{Cell: Cell{Model: row.Model, Phase: row.Phase}, pages: map[string]bool{},
			chars: map[[2]string]int{}, words: map[[2]string]int{},
			units: stats.NewBuilder(stats.TextID(row.Model, row.Phase), stats.TextSchema())}
		s.cells[k] = c
		s.order = append(s.order, k)
	}
	c.pages[row.Page] = true
	c.Rows++
	c.GTChars += p.GTChars
	c.CharEdits += p.CharEdits
	c.GTWords += p.GTWords
	c.WordEdits += p.WordEdits
	c.BowMatched += p.BowMatched
	c.bowOCR += p.OCRWords
	c.bowGT += p.GTWords
	var v [11]float64
	v[stats.TxtCharEdits], v[stats.TxtGTChars] = float64(p.CharEdits), float64(p.GTChars)
	v[stats.TxtWordEdits], v[stats.TxtGTWords] = float64(p.WordEdits), float64(p.GTWords)
	if p.CER != nil {
		c.cerSum += *p.CER
		c.cerN++
		v[stats.TxtCERSum], v[stats.TxtCERCount] = *p.CER, 1
	} else {
		s.warn = append(s.warn, fmt.Sprintf("%s: empty ground truth, %d OCR characters: CER and WER are undefined", describe(row), p.OCRChars))
	}
	if p.WER != nil {
		c.werSum += *p.WER
		c.werN++
		v[stats.TxtWERSum], v[stats.TxtWERCount] = *p.WER, 1
	}
	v[stats.TxtBowMatched], v[stats.TxtBowOCR], v[stats.TxtBowGT] = float64(p.BowMatched), float64(p.OCRWords), float64(p.GTWords)
	if err := c.units.Add(row.Page, v[:]); err != nil {
		return err
	}
	countConfusions(c.chars, p.CharOps, p.GTClusters, p.OCRClusters)
	countConfusions(c.words, p.WordOps, p.GTWordList, p.OCRWordList)
	if s.onRow != nil {
		return s.onRow(&row)
	}
	s.rows = append(s.rows, row)
	return nil
}

// describe names a row in a warning.
func describe(r Row) string {
	s := fmt.Sprintf("page %q", r.Page)
	if r.Model != "" || r.Phase != "" {
		s = fmt.Sprintf("model %q phase %q %s", r.Model, r.Phase, s)
	}
	if r.Line > 0 {
		s += fmt.Sprintf(" (line %d)", r.Line)
	}
	return s
}

func countConfusions(m map[[2]string]int, ops []Op, a, b []string) {
	for _, op := range ops {
		switch op.Kind {
		case Sub:
			m[[2]string{a[op.A], b[op.B]}]++
		case Del:
			m[[2]string{a[op.A], Epsilon}]++
		case Ins:
			m[[2]string{Epsilon, b[op.B]}]++
		}
	}
}

// Unpaired records the pages without a partner.
func (s *Scorer) Unpaired(gtOnly, ocrOnly []string) {
	s.unp.GTOnly = append(s.unp.GTOnly, gtOnly...)
	s.unp.OCROnly = append(s.unp.OCROnly, ocrOnly...)
}

// Report returns the report: cells ordered by model, then phase (byte
// order), rows in the order they were added.
func (s *Scorer) Report() (*Report, error) {
	r := &Report{Kind: "text", Level: s.opts.Extract.Level.String(), Normalization: s.opts.Extract.Normalization.String(),
		Cells: []Cell{}, Pages: s.rows, Unpaired: s.unp, Warnings: s.warn}
	if r.Pages == nil {
		r.Pages = []Row{}
	}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	if r.Unpaired.GTOnly == nil {
		r.Unpaired.GTOnly = []string{}
	}
	if r.Unpaired.OCROnly == nil {
		r.Unpaired.OCROnly = []string{}
	}
	sort.Strings(r.Unpaired.GTOnly)
	sort.Strings(r.Unpaired.OCROnly)
	keys := append([]cellKey(nil), s.order...)
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].model != keys[j].model {
			return keys[i].model < keys[j].model
		}
		return keys[i].phase < keys[j].phase
	})
	for _, k := range keys {
		c := s.cells[k]
		cell := c.Cell
		cell.Pages = len(c.pages)
		cell.CER = ratio(c.CharEdits, c.GTChars)
		cell.WER = ratio(c.WordEdits, c.GTWords)
		cell.CERMacro = mean(c.cerSum, c.cerN)
		cell.WERMacro = mean(c.werSum, c.werN)
		cell.BowPrecision, cell.BowRecall, cell.BowF1 = prf(c.BowMatched, c.bowOCR, c.bowGT)
		cell.CharConfusions = topConfusions(c.chars)
		cell.WordConfusions = topConfusions(c.words)
		if !s.opts.NoIntervals && s.opts.Intervals.Replicates > 0 {
			ci, err := stats.Interval(c.units.Build(), s.opts.Intervals)
			if err != nil {
				return nil, err
			}
			cell.CI = ci
		}
		r.Cells = append(r.Cells, cell)
	}
	return r, nil
}

// ratio is the micro rate: Σ edits ÷ Σ units, undefined (nil) when there
// are no units (a cell of empty ground truths; SPEC F.2's Ratio).
func ratio(edits, n int) *float64 {
	if n == 0 {
		return nil
	}
	v := float64(edits) / float64(n)
	return &v
}

func mean(sum float64, n int) *float64 {
	if n == 0 {
		return nil
	}
	v := sum / float64(n)
	return &v
}

// topConfusions is the ConfusionsKept most frequent confusions: by count,
// descending, then ground truth, then OCR, as byte strings.
func topConfusions(m map[[2]string]int) []Confusion {
	out := make([]Confusion, 0, len(m))
	for k, n := range m {
		out = append(out, Confusion{GT: k[0], OCR: k[1], Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		if out[i].GT != out[j].GT {
			return out[i].GT < out[j].GT
		}
		return out[i].OCR < out[j].OCR
	})
	if len(out) > ConfusionsKept {
		out = out[:ConfusionsKept]
	}
	return out
}
