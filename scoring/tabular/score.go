package tabular

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/scratch"
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/text"
)

// DefaultGate is the similarity a name pair needs to be a candidate.
const DefaultGate = 0.7

// Input is everything a tabular scoring needs, already parsed.
type Input struct {
	Schema *schema.Schema // nil means schema.Default()
	Pages  []*tabularread.GTPage
	Runs   *tabularread.Runs
	Rules  *rules.File // nil without a rule file
	// Gate is the name-similarity gate; 0 means DefaultGate.
	Gate float64
	// Preview switches OPEN rows on; the zero value previews nothing.
	Preview rules.Selection
	// Intervals asks for the cells' confidence intervals; the zero value
	// computes none.
	Intervals Intervals
	// LeftOut is what Load left out of the request's files
	// (Request.SkipBadInputs); the report lists it.
	LeftOut []tabularreport.LeftOut
}

// Score scores every image of in.Runs against the ground truth and pools
// the results per (model, phase). With a preview selection, cells and
// images hold the scores with the chosen OPEN rows on, and Preview holds
// the settled value, the preview value and the delta of every metric.
func Score(in Input) (*tabularreport.Report, error) {
	return ScoreContext(nil, in, Limits{})
}

// ScoreContext is Score within limits: it stops when ctx is done (the
// error wraps ctx.Err()) or when the scoring would compare more name pairs
// than lim.MaxPairs (a *WorkLimitError). The context is looked at between
// images and every checkInterval pairs; a scoring that finishes gives
// exactly the report Score gives.
func ScoreContext(ctx Canceler, in Input, lim Limits) (*tabularreport.Report, error) {
	return ScoreReusing(ctx, in, lim, nil)
}

// Reuse keeps the settled scoring (the images scored with the settled
// rows, and their cells) of the last input ScoreReusing scored, so that a
// page that switches a preview on and off, or asks for the report it
// has just shown, does not score the same images again. The zero value
// holds nothing. It is memoization only: the reports are those
// ScoreContext gives.
type Reuse struct {
	key    reuseKey
	images []*tabularreport.ImageScore
	cells  []*tabularreport.Cell
}

// reuseKey names what a settled scoring depends on: the parsed values
// themselves (not equal copies), and the gate.
type reuseKey struct {
	schema *schema.Schema
	runs   *tabularread.Runs
	rules  *rules.File
	pages  []*tabularread.GTPage
	gate   float64
}

func (k reuseKey) is(o reuseKey) bool {
	return k.schema == o.schema && k.runs == o.runs && k.rules == o.rules && k.gate == o.gate &&
		k.runs != nil && slices.Equal(k.pages, o.pages)
}

// ScoreReusing is ScoreContext that takes the settled scoring from reuse
// when it holds that of the same input (the same parsed Schema, Pages, Runs and
// Rules values, not equal copies) at the same gate, and leaves its own
// there. Within work limits (a MaxPairs or a Work counter) nothing is
// reused: the cap counts a whole scoring. A nil reuse reuses nothing.
func ScoreReusing(ctx Canceler, in Input, lim Limits, reuse *Reuse) (*tabularreport.Report, error) {
	if lim != (Limits{}) {
		reuse = nil
	}
	s := in.Schema
	if s == nil {
		s = schema.Default()
	}
	gate, err := GateOf(in.Gate)
	if err != nil {
		return nil, err
	}
	if _, err := in.Intervals.options(); err != nil {
		return nil, err
	}
	if in.Runs == nil {
		return nil, fmt.Errorf("tabular: no runs to score")
	}
	pages, err := IndexPages(in.Pages)
	if err != nil {
		return nil, err
	}
	for _, im := range in.Runs.Images {
		if pages.Find(im.Page) == nil {
			return nil, MissingPageError(in.Runs.File, im, pages)
		}
	}

	rep := &tabularreport.Report{Kind: "tabular", Gate: gate, Key: s.Key, Warnings: []string{}, LeftOut: in.LeftOut}
	for _, c := range s.Columns {
		rep.Fields = append(rep.Fields, c.Name)
	}
	var settledRows, previewRows, previewed []rules.Row
	if in.Rules != nil {
		if errs := rules.Check(in.Rules, s, nil); len(errs) > 0 {
			return nil, errs
		}
		sum := in.Rules.SHA256
		rep.Rules = tabularreport.RulesSummary{File: in.Rules.Name, Settled: in.Rules.Count(rules.Settled), Open: in.Rules.Count(rules.Open), SHA256: &sum}
		for _, w := range in.Rules.Warnings {
			rep.Warnings = append(rep.Warnings, WarningText(w))
		}
		if settledRows, _, err = in.Rules.Active(rules.Selection{}); err != nil {
			return nil, err
		}
		if !in.Preview.IsZero() {
			if previewRows, previewed, err = in.Rules.Active(in.Preview); err != nil {
				return nil, err
			}
		}
	} else if !in.Preview.IsZero() {
		return nil, inputerr.New("", 0, "a preview needs a rule file with OPEN rows (--rules)")
	}
	for _, sk := range in.Runs.Skipped {
		rep.Warnings = append(rep.Warnings, "skipped: "+sk.Head())
	}
	if len(in.Runs.Images) == 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: no images to score: expected one JSON object per model reading of a page", in.Runs.File))
	}

	work := newBudget(ctx, lim)
	in.Intervals = in.Intervals.StoppedBy(work.ctx)
	key := reuseKey{schema: in.Schema, runs: in.Runs, rules: in.Rules, pages: in.Pages, gate: gate}
	var images []*tabularreport.ImageScore
	var cells []*tabularreport.Cell
	if reuse != nil && reuse.key.is(key) {
		images, cells = reuse.images, reuse.cells
	} else {
		settled := newScorer(s, rules.Compile(settledRows, s), gate, pages, work)
		if images, err = settled.scoreAll(in.Runs.Images); err != nil {
			return nil, err
		}
		cells = tabularreport.PoolCells(s, images)
		if reuse != nil {
			*reuse = Reuse{key: key, images: images, cells: cells}
		}
	}
	if in.Preview.IsZero() {
		rep.Images, rep.Cells = images, cells
		return withIntervals(rep, in.Intervals)
	}
	pv := newScorer(s, rules.Compile(previewRows, s), gate, pages, work)
	if rep.Images, err = pv.scoreAll(in.Runs.Images); err != nil {
		return nil, err
	}
	rep.Cells = tabularreport.PoolCells(s, rep.Images)
	rep.Rules.Preview = true
	rep.Preview = &tabularreport.Preview{Rows: previewed, Cells: tabularreport.PreviewCells(cells, rep.Cells)}
	if rep.Preview.Comparison, err = previewComparison(work.ctx, rep, cells, images, in.Intervals); err != nil {
		return nil, err
	}
	if err = previewChanges(rep.Preview, in, s, gate, pages, work, images, rep.Images); err != nil {
		return nil, err
	}
	return withIntervals(rep, in.Intervals)
}

// GateOf returns the gate to score with: g, or DefaultGate for 0 (the
// zero value of Input and Request); anything else outside (0, 1], NaN
// included, is an input error.
func GateOf(g float64) (float64, error) {
	if g == 0 {
		g = DefaultGate
	}
	if err := param.Float("gate", g, param.Gate); err != nil {
		return 0, err
	}
	return g, nil
}

// PageIndex finds ground-truth pages by id, as strings first and then as
// integers ("7" = "07").
type PageIndex struct {
	byID  map[string]*tabularread.GTPage
	byInt map[int64]*tabularread.GTPage
	order []*tabularread.GTPage
}

// IndexPages indexes pages by id; two pages of one id are an error
// naming both files.
func IndexPages(pages []*tabularread.GTPage) (*PageIndex, error) {
	idx := &PageIndex{byID: map[string]*tabularread.GTPage{}, byInt: map[int64]*tabularread.GTPage{}}
	for _, p := range pages {
		if prev, ok := idx.byID[p.ID]; ok {
			return nil, inputerr.New(p.File, 0, "page %s is also given by %s", p.ID, prev.File)
		}
		idx.byID[p.ID] = p
		if n, ok := tabularread.PageKey(p.ID); ok {
			if _, dup := idx.byInt[n]; !dup {
				idx.byInt[n] = p
			}
		}
		idx.order = append(idx.order, p)
	}
	return idx, nil
}

// Find returns the page of id, or nil.
func (idx *PageIndex) Find(id string) *tabularread.GTPage {
	if p, ok := idx.byID[id]; ok {
		return p
	}
	if n, ok := tabularread.PageKey(id); ok {
		return idx.byInt[n]
	}
	return nil
}

// IDs lists the pages' ids in the order given.
func (idx *PageIndex) IDs() []string {
	out := make([]string, len(idx.order))
	for i, p := range idx.order {
		out[i] = p.ID
	}
	return out
}

// nameForm is a normalized name ready for comparison.
type nameForm struct {
	runes  []rune
	str    string // string(runes), once asked for (text)
	hasStr bool
	toks   []string
	ids    []int32 // the distinct tokens, interned, sorted
	bag    charBag
	// wilds counts the illegible-glyph markers (text.Wildcard) the name
	// holds, and wildToks are its tokens that hold them (wildBound).
	wilds    int
	wildToks [][]rune
}

// text returns the name as a string, converting it once: a GT name is
// reported with every pair it makes.
func (f *nameForm) text() string {
	if !f.hasStr {
		f.str, f.hasStr = string(f.runes), true
	}
	return f.str
}

// nameForm prepares normalized name tokens for comparison.
func (sc *scorer) nameForm(toks []string) nameForm {
	r := joinRunes(toks)
	f := nameForm{runes: r, toks: toks, bag: newCharBag(r)}
	for _, t := range toks {
		if k := strings.Count(t, string(text.Wildcard)); k > 0 {
			f.wilds += k
			f.wildToks = append(f.wildToks, []rune(t))
		}
	}
	f.ids = make([]int32, 0, len(toks))
	for _, t := range toks {
		id, ok := sc.tokenIDs[t]
		if !ok {
			id = int32(len(sc.tokenIDs))
			sc.tokenIDs[t] = id
		}
		f.ids = append(f.ids, id)
	}
	slices.Sort(f.ids)
	f.ids = slices.Compact(f.ids)
	return f
}

// joinRunes is []rune(strings.Join(toks, " ")), in one allocation.
func joinRunes(toks []string) []rune {
	n := max(len(toks)-1, 0)
	for _, t := range toks {
		n += utf8.RuneCountInString(t)
	}
	r := make([]rune, 0, n)
	for i, t := range toks {
		if i > 0 {
			r = append(r, ' ')
		}
		for _, c := range t {
			r = append(r, c)
		}
	}
	return r
}

// charBag counts a name's characters in 32 byte-sized buckets (letters a–z
// each in its own, everything else spread over six), packed in four words.
// Buckets only merge counts, so the bag intersection bounds difflib's
// quick_ratio from above, and with it the ratio: a cheap first test
// against the gate.
type charBag [4]uint64

// maxBagName is the longest name a bag describes; longer names get no
// bound (the byte sums below must not overflow).
const maxBagName = 120

func newCharBag(r []rune) charBag {
	var counts [32]uint8
	for _, c := range r {
		k := 26 + int(uint32(c)%6)
		if c >= 'a' && c <= 'z' {
			k = int(c - 'a')
		}
		if counts[k] < 127 {
			counts[k]++
		}
	}
	var b charBag
	for k, n := range counts {
		b[k/8] |= uint64(n) << (8 * (k % 8))
	}
	return b
}

const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// ratioBound returns an upper bound on the Ratcliff–Obershelp ratio of
// two names from their bags: 2·Σ min(count) / (|a|+|b|), the byte-wise
// minimum taken in SWAR fashion (counts stay under 128).
func ratioBound(a, b *nameForm) float64 { return ratioBoundPlus(a, b, 0) }

// ratioBoundPlus is ratioBound with extra more characters allowed to
// match: a bound on the ratio of a's resolved form, whose extra
// wildcards may each become a character of b.
func ratioBoundPlus(a, b *nameForm, extra int) float64 {
	la, lb := len(a.runes), len(b.runes)
	if la+lb == 0 || la > maxBagName || lb > maxBagName {
		return 1
	}
	m := uint64(extra)
	for w := range a.bag {
		x, y := a.bag[w], b.bag[w]
		ge := (((x | highBits) - y) & highBits) >> 7 * 0xFF // 0xFF where x ≥ y
		mins := (y & ge) | (x &^ ge)
		m += (mins * lowBits) >> 56
	}
	return min(1, 2.0*float64(m)/float64(la+lb))
}

// wildBound bounds from above the similarity of a GT name g that holds
// wildcards with a reading r, without resolving g: the ratio and the
// token overlap of g as written (ratioBound, idOverlap), the ratio of g
// resolved (each wildcard one more character that may match), and its
// token overlap. Resolving changes only g's wildcard tokens, so a token
// of g resolved that equals one of r's is one of g's as written or a
// piece of a wildcard token (pieceOf); the overlap is over at least r's
// distinct tokens.
func wildBound(g, r *nameForm) float64 {
	b := max(ratioBound(g, r), idOverlap(g.ids, r.ids), ratioBoundPlus(g, r, g.wilds))
	if len(r.ids) == 0 {
		return b
	}
	common := idCommon(g.ids, r.ids)
	for i, u := range r.toks {
		if slices.Contains(r.toks[:i], u) {
			continue
		}
		for _, t := range g.wildToks {
			if pieceOf(t, u) {
				common++
				break
			}
		}
	}
	return max(b, float64(common)/float64(len(r.ids)))
}

// pieceOf reports whether u may be a token of t once t's wildcards are
// resolved: t's characters from a start to an end, a wildcard standing
// for any one character, where the start is t's or follows a wildcard
// and the end is t's or a wildcard (one resolved to a space splits t).
func pieceOf(t []rune, u string) bool {
	for i := 0; i < len(t); i++ {
		if i > 0 && t[i-1] != text.Wildcard {
			continue
		}
		j := i
		for _, c := range u {
			if j == len(t) || (t[j] != c && t[j] != text.Wildcard) {
				j = -1
				break
			}
			j++
		}
		if j >= 0 && (j == len(t) || t[j] == text.Wildcard) {
			return true
		}
	}
	return false
}

// idOverlap is text.TokenSetOverlap over interned, sorted distinct tokens.
func idOverlap(a, b []int32) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return float64(idCommon(a, b)) / float64(max(len(a), len(b)))
}

// idCommon counts the ids two sorted lists of distinct ids share.
func idCommon(a, b []int32) int {
	common, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return common
}

// preparedPage is a ground-truth page normalized under one rule set.
type preparedPage struct {
	page   *tabularread.GTPage
	names  []nameForm
	values [][]string // [row][column] normalized text values ("" for non-text columns)
}

// scorer scores images under one compiled rule set. It is not safe for
// concurrent use.
type scorer struct {
	s        *schema.Schema
	compiled *rules.Compiled
	colRules []*rules.FieldRules
	// plainEqual marks columns whose rules treat both sides alike, so an
	// identical raw value needs no normalization.
	plainEqual []bool
	gate       float64
	pages      *PageIndex
	prepared   map[*tabularread.GTPage]*preparedPage
	matches    map[matchKey]*nameMatch
	matcher    text.Matcher
	aligner    text.WildcardAligner
	cands      []candidate
	tokenIDs   map[string]int32 // token interning for the overlap test
	toks       []string         // scratch tokens of a model's field value
	work       *budget          // the scoring's context, cap and count
	// maxMatches bounds the memo of name matches (and with it the token
	// ids and prepared pages) of a long scoring: trim empties them past
	// it. Zero keeps everything, as a scoring of a file in memory does.
	maxMatches int
	older      map[matchKey]*nameMatch // the previous generation (trim)
	// Scratch of scoreImage: the records' readings, what is taken, the
	// pairs accepted.
	names               []modelName
	modelTaken, gtTaken []bool
	accepted            []candidate
	// transient: an image's pairs and unmatched names live in pairs,
	// which the next image reuses (ImageScorer.ScoreTransient).
	transient bool
	pairs     struct {
		pairs                       []tabularreport.Pair
		fields                      tabularreport.PairFields
		scores                      []float64
		ptrs                        []*tabularreport.Pair
		unmatchedModel, unmatchedGT []string
	}
}

// trim bounds the scorer's memos between images when they hold more than
// maxMatches name matches: the matches move to a second generation, which
// match still reads from (a hit moves back), and the token ids and the
// prepared pages start afresh (a match, once made, no longer reads token
// ids). A streamed scoring of millions of images keeps at most twice
// maxMatches matches, hot names staying, and the memo changes no score.
func (sc *scorer) trim() {
	if sc.maxMatches > 0 && len(sc.matches) > sc.maxMatches {
		sc.older = sc.matches
		sc.matches = make(map[matchKey]*nameMatch, sc.maxMatches)
		sc.prepared = map[*tabularread.GTPage]*preparedPage{}
		sc.tokenIDs = map[string]int32{}
	}
}

func newScorer(s *schema.Schema, c *rules.Compiled, gate float64, pages *PageIndex, work *budget) *scorer {
	sc := &scorer{s: s, compiled: c, gate: gate, pages: pages, prepared: map[*tabularread.GTPage]*preparedPage{}, matches: map[matchKey]*nameMatch{}, tokenIDs: map[string]int32{}, work: work}
	sc.colRules = make([]*rules.FieldRules, len(s.Columns))
	sc.plainEqual = make([]bool, len(s.Columns))
	for i, col := range s.Columns {
		sc.colRules[i] = c.Fields[col.Name]
		sc.plainEqual[i] = true
		if fr := sc.colRules[i]; fr != nil {
			for _, ig := range fr.Ignores {
				if ig.Side == rules.ModelSide {
					sc.plainEqual[i] = false
				}
			}
		}
	}
	return sc
}

func (sc *scorer) prepare(p *tabularread.GTPage) *preparedPage {
	if pp, ok := sc.prepared[p]; ok {
		return pp
	}
	pp := &preparedPage{page: p, names: make([]nameForm, len(p.Rows)), values: make([][]string, len(p.Rows))}
	for i, row := range p.Rows {
		pp.names[i] = sc.nameForm(text.NameTokens(row.Key))
		vals := make([]string, len(sc.s.Columns))
		for j, col := range sc.s.Columns {
			if col.Kind.IsText() && !text.IsBlank(row.Values[j]) {
				vals[j] = normalizeField(row.Values[j], col.Kind, sc.colRules[j], true, nil)
			}
		}
		pp.values[i] = vals
	}
	sc.prepared[p] = pp
	return pp
}

// scoreAll scores every image, stopping (with the budget's error) when
// the context is done or the cap is reached.
func (sc *scorer) scoreAll(images []*tabularread.Image) ([]*tabularreport.ImageScore, error) {
	out := make([]*tabularreport.ImageScore, len(images))
	for i, im := range images {
		if !sc.work.alive() {
			return nil, sc.work.err
		}
		out[i] = sc.scoreImage(im)
	}
	sc.work.flush()
	if sc.work.err != nil {
		return nil, sc.work.err
	}
	return out, nil
}

// candidate is a (model record, GT row) pair that cleared the gate.
type candidate struct {
	model, gt int
	sim       float64
	reading   int
	written   bool // the similarity came from the GT as written
}

// modelName holds the readings of one model record's name.
type modelName struct {
	readings []nameForm
}

func (sc *scorer) scoreImage(im *tabularread.Image) *tabularreport.ImageScore {
	res := &tabularreport.ImageScore{Model: im.Model, Phase: im.Phase, Run: im.Run, Page: im.Page, Status: "ok", Line: im.Line}
	if im.Failed() {
		res.Status, res.Failure = "failed", im.Failure
		return res
	}
	pp := sc.prepare(sc.pages.Find(im.Page))
	// Candidates: every pair whose similarity clears the gate.
	names := scratch.Slice(&sc.names, len(im.Records))
	sc.cands = sc.cands[:0]
	for mi, rec := range im.Records {
		if rec.Key.Blank() {
			continue
		}
		m := sc.match(pp, rec.Key.Text)
		if m == nil { // stopped: scoreAll returns the budget's error
			return res
		}
		names[mi].readings = m.readings
		for _, c := range m.cands {
			c.model = mi
			sc.cands = append(sc.cands, c)
		}
	}
	// Best first; (model, gt) is unique, so the order is total.
	slices.SortFunc(sc.cands, func(a, b candidate) int {
		if a.sim != b.sim {
			if a.sim > b.sim {
				return -1
			}
			return 1
		}
		if a.model != b.model {
			return cmp.Compare(a.model, b.model)
		}
		return cmp.Compare(a.gt, b.gt)
	})
	modelTaken := scratch.Slice(&sc.modelTaken, len(im.Records))
	gtTaken := scratch.Slice(&sc.gtTaken, len(pp.names))
	accepted := sc.accepted[:0]
	defer func() { sc.accepted = accepted[:0] }()
	for _, c := range sc.cands {
		if modelTaken[c.model] || gtTaken[c.gt] {
			continue
		}
		modelTaken[c.model], gtTaken[c.gt] = true, true
		accepted = append(accepted, c)
	}

	res.NModel, res.NGT, res.Matched = len(im.Records), len(pp.names), len(accepted)
	res.Precision, res.Recall, res.F1 = tabularreport.PRF(res.Matched, res.NModel, res.NGT)
	res.Fields = make(tabularreport.FieldSums, len(sc.s.Columns))
	for j, col := range sc.s.Columns {
		res.Fields[j].Name = col.Name
	}
	// Pairs are reported in ground-truth row order.
	slices.SortFunc(accepted, func(a, b candidate) int { return cmp.Compare(a.gt, b.gt) })
	// One allocation each for the image's pairs, their fields and their
	// scores, rather than three per pair; none for a transient scorer's.
	cols := len(sc.s.Columns)
	var pairs []tabularreport.Pair
	var fields tabularreport.PairFields
	var scores []float64
	if sc.transient {
		pairs = scratch.Slice(&sc.pairs.pairs, len(accepted))
		fields = scratch.Slice(&sc.pairs.fields, len(accepted)*cols)
		scores = scratch.Slice(&sc.pairs.scores, len(accepted)*cols)
		res.Pairs = scratch.Slice(&sc.pairs.ptrs, len(accepted))
	} else {
		pairs = make([]tabularreport.Pair, len(accepted))
		fields = make(tabularreport.PairFields, len(accepted)*cols)
		scores = make([]float64, len(accepted)*cols)
		res.Pairs = make([]*tabularreport.Pair, len(accepted))
	}
	for k, c := range accepted {
		lo, hi := k*cols, (k+1)*cols
		res.Pairs[k] = &pairs[k]
		if !sc.work.spend(sc.fieldCost(pp.values[c.gt], &im.Records[c.model])) {
			return res // stopped: scoreAll returns the budget's error
		}
		sc.pair(&pairs[k], fields[lo:hi:hi], scores[lo:hi:hi], im, pp, names, c, res)
	}
	// Empty lists, not nil ones: the report writes [] for them.
	res.UnmatchedModel, res.UnmatchedGT = []string{}, []string{}
	if sc.transient {
		res.UnmatchedModel, res.UnmatchedGT = scratch.Slice(&sc.pairs.unmatchedModel, 0), scratch.Slice(&sc.pairs.unmatchedGT, 0)
	}
	for i, taken := range modelTaken {
		if !taken {
			res.UnmatchedModel = append(res.UnmatchedModel, im.Records[i].Key.Text)
		}
	}
	for i, taken := range gtTaken {
		if !taken {
			res.UnmatchedGT = append(res.UnmatchedGT, pp.page.Rows[i].Key)
		}
	}
	if sc.transient {
		sc.pairs.unmatchedModel, sc.pairs.unmatchedGT = res.UnmatchedModel, res.UnmatchedGT
	}
	return res
}

// pair fills p, the report of one accepted pair, with fields and scores
// (one per column) as its storage, and adds its name edits and field
// scores to the image totals.
func (sc *scorer) pair(p *tabularreport.Pair, fields tabularreport.PairFields, scores []float64, im *tabularread.Image, pp *preparedPage, names []modelName, c candidate, res *tabularreport.ImageScore) {
	g := &pp.names[c.gt]
	r := &names[c.model].readings[c.reading]
	resolved := sc.aligner.Resolve(g.runes, r.runes)
	var resolvedStr string
	if len(resolved) > 0 && &resolved[0] == &g.runes[0] {
		resolvedStr = g.text() // nothing to resolve: the GT name as normalized
	} else {
		resolvedStr = string(resolved)
	}
	edits := sc.aligner.Distance(resolved, r.runes)
	rec := &im.Records[c.model]
	row := &pp.page.Rows[c.gt]
	*p = tabularreport.Pair{
		GT: row.Key, Model: rec.Key.Text, GTIndex: c.gt, ModelIndex: c.model, GTLine: row.Line,
		Similarity: c.sim, SimilarityGT: "resolved", GTResolved: resolvedStr, ModelReading: r.text(),
		NameEdits: edits, NameRefChars: len(resolved), Extra: tabularreport.ExtraFields(rec.Extra),
		Fields: fields,
	}
	if c.written {
		p.SimilarityGT = "written"
	}
	res.NameEdits += edits
	res.NameRefChars += len(resolved)
	for j, col := range sc.s.Columns {
		p.Fields[j].Name = col.Name
		score, ok := sc.fieldScore(j, col, row.Values[j], pp.values[c.gt][j], rec.Values[j])
		if !ok {
			continue
		}
		scores[j] = score
		p.Fields[j].Score = &scores[j]
		res.Fields[j].Sum += score
		res.Fields[j].Scored++
	}
}

// fieldCost is what comparing the text fields of a matched pair counts
// against the work cap: their lengths multiplied (in bytes, a bound on
// the characters), per cellsPerPair; nothing for short values.
func (sc *scorer) fieldCost(gtNorm []string, rec *tabularread.Record) int64 {
	cells := int64(0)
	for j, col := range sc.s.Columns {
		if col.Kind.IsText() {
			cells += int64(len(gtNorm[j])) * int64(len(rec.Values[j].Text))
		}
	}
	return cells / cellsPerPair
}

// fieldScore scores one field of a matched pair; ok is false when the field
// is unscorable. gtNorm is the normalized GT value of text columns.
func (sc *scorer) fieldScore(j int, col schema.Column, gtRaw, gtNorm string, model tabularread.Value) (float64, bool) {
	if text.IsBlank(gtRaw) {
		if col.BlankGT != schema.Scored {
			return 0, false
		}
		if model.Blank() {
			return 1, true
		}
		return 0, true
	}
	switch col.Kind {
	case schema.YesNo:
		return boolScore(strings.ToUpper(strings.TrimSpace(gtRaw)) == strings.ToUpper(strings.TrimSpace(model.Text))), true
	case schema.Integer:
		if g, ok := tabularread.IntegerValue(tabularread.Value{Text: gtRaw}); ok {
			m, ok := tabularread.IntegerValue(model)
			return boolScore(ok && m == g), true
		}
		return boolScore(strings.TrimSpace(gtRaw) == strings.TrimSpace(model.Text)), true
	default:
		if model.Text == gtRaw && sc.plainEqual[j] && strings.IndexByte(gtRaw, '?') < 0 {
			// Identical raw values normalize identically when no rule
			// treats the two sides differently.
			return 1, true
		}
		m := ""
		if !model.Blank() {
			m = normalizeField(model.Text, col.Kind, sc.colRules[j], false, &sc.toks)
		}
		return text.CharAccuracy(gtNorm, m), true
	}
}

func boolScore(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// similarity returns the best reading's similarity with the GT name when
// it clears the gate (SPEC A.2 steps 3–4, A.6). For each reading the
// similarity is the larger of the similarities with the GT resolved and
// with the GT as written, each the larger of the Ratcliff–Obershelp ratio
// and the token-set overlap. The first reading with the highest similarity
// wins. Readings whose cheap upper bound is under the gate are skipped:
// they can neither clear the gate nor beat a reading that does.
func (sc *scorer) similarity(g *nameForm, readings []nameForm) (candidate, bool) {
	best := candidate{sim: -1}
	for ri := range readings {
		r := &readings[ri]
		if g.wilds == 0 {
			overlap := idOverlap(g.ids, r.ids)
			if overlap < sc.gate && (ratioBound(g, r) < sc.gate || sc.matcher.QuickRatio(g.runes, r.runes) < sc.gate) {
				continue
			}
			s := max(overlap, sc.matcher.Ratio(g.runes, r.runes))
			if s > best.sim {
				best = candidate{sim: s, reading: ri}
			}
			continue
		}
		if wildBound(g, r) < sc.gate {
			continue
		}
		s, written := sc.wildSimilarity(g, r)
		if s > best.sim {
			best = candidate{sim: s, reading: ri, written: written}
		}
	}
	return best, best.sim >= sc.gate
}

// wildSimilarity is the similarity of a GT name holding wildcards with a
// reading: the larger of that of g resolved against r and that of g as
// written (written), each the larger of the ratio and the token overlap.
func (sc *scorer) wildSimilarity(g, r *nameForm) (s float64, written bool) {
	resolved := sc.aligner.Resolve(g.runes, r.runes)
	sR := max(sc.matcher.Ratio(resolved, r.runes), text.TokenSetOverlap(text.Fields(string(resolved)), r.toks))
	sW := max(sc.matcher.Ratio(g.runes, r.runes), text.TokenSetOverlap(g.toks, r.toks))
	if sW > sR {
		return sW, true
	}
	return sR, false
}

// nameMatch is what a model's name gives on a page: its readings and the
// GT rows it may pair with (candidates without their record index).
type nameMatch struct {
	readings []nameForm
	cands    []candidate
}

// matchKey names a model's name on a page.
type matchKey struct {
	page *tabularread.GTPage
	name string
}

// match returns the readings of a model's name and its candidates on a
// page. They depend on nothing else (the rules, the gate and the page are
// the scorer's), so they are computed once per distinct name and page:
// models repeat their readings from run to run, and the similarity search
// is most of the scoring. It returns nil when the scoring must stop.
func (sc *scorer) match(pp *preparedPage, name string) *nameMatch {
	key := matchKey{pp.page, name}
	if m, ok := sc.matches[key]; ok {
		return m
	}
	if m, ok := sc.older[key]; ok {
		delete(sc.older, key)
		sc.matches[key] = m
		return m
	}
	if sc.maxMatches > 0 {
		// A memo that outlives its image must not pin the image's line,
		// which name and its tokens share.
		name = strings.Clone(name)
		key.name = name
	}
	m := &nameMatch{}
	readings := Readings(text.NameTokens(name), sc.compiled.Key)
	m.readings = make([]nameForm, len(readings))
	chars := 0 // of every reading: a long name counts more (cellsPerPair)
	for k, r := range readings {
		m.readings[k] = sc.nameForm(r)
		chars += len(m.readings[k].runes)
	}
	for gi := range pp.names {
		if len(pp.names[gi].runes) == 0 {
			continue
		}
		if !sc.work.spend(1 + int64(len(pp.names[gi].runes))*int64(chars)/cellsPerPair) {
			return nil
		}
		if c, ok := sc.similarity(&pp.names[gi], m.readings); ok {
			c.gt = gi
			m.cands = append(m.cands, c)
		}
	}
	sc.matches[key] = m
	return m
}

// ImageScorer scores one image at a time against prepared ground truth:
// the per-image half of a scoring, which a streamed scoring
// (tabularstream) runs on each of its workers, with memos of its own.
type ImageScorer struct{ sc *scorer }

// NewImageScorer returns a scorer of images against pages with the
// compiled rule rows c and the name gate; ctx (nil: never) stops it, and
// maxMatches bounds its memo of name matches.
func NewImageScorer(ctx Canceler, s *schema.Schema, c *rules.Compiled, gate float64, pages *PageIndex, maxMatches int) *ImageScorer {
	sc := newScorer(s, c, gate, pages, newBudget(ctx, Limits{}))
	sc.maxMatches = maxMatches
	return &ImageScorer{sc: sc}
}

// Score scores im; the error is why the scoring stopped (ctx's), before
// or while im was scored.
func (x *ImageScorer) Score(im *tabularread.Image) (*tabularreport.ImageScore, error) {
	sc := x.sc
	if !sc.work.alive() {
		return nil, sc.work.err
	}
	sc.trim()
	res := sc.scoreImage(im)
	if sc.work.err != nil {
		return nil, sc.work.err
	}
	return res, nil
}

// ScoreTransient is Score for a caller that is done with the result's
// pairs and unmatched names (Pairs, UnmatchedModel, UnmatchedGT) before
// it scores the next image, writing them out at once: they live in
// storage the next call reuses, rather than in new memory for every
// image.
func (x *ImageScorer) ScoreTransient(im *tabularread.Image) (*tabularreport.ImageScore, error) {
	x.sc.transient = true
	defer func() { x.sc.transient = false }()
	return x.Score(im)
}

// WarningText is a rule file's warning as reports give it: one line,
// "file:line: message", without the column the command line shows (so
// that reports stay as they were).
func WarningText(w *inputerr.Error) string {
	c := *w
	c.Column = 0
	return c.Head()
}
