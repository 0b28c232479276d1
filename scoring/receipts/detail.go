package receipts

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
)

// PageDetail is the drill-down of one scored page: the page's scores as
// the report gives them, the raw output, and both texts as they were
// scored (cleaned, case-folded) cut into segments that mark the tokens of
// a longest common subsequence and the reference numbers the prediction
// lacks.
type PageDetail struct {
	receiptsreport.Page
	// Output is the record's raw output; nil when it is null.
	Output *string `json:"output"`
	// Prediction is the cleaned, case-folded output as scored: empty when
	// the page is scored as an empty prediction (ScoredText false).
	Prediction []Segment `json:"prediction"`
	// Reference is the case-folded reference text.
	Reference []Segment `json:"reference"`
	// Aligned is false when the texts were too long to align: no token
	// is then marked as part of the common subsequence.
	Aligned bool `json:"aligned"`
}

// Segment is a stretch of a scored text: a token (Kind "word" or
// "number") or the text between tokens (Kind ""). LCS marks a token of
// the longest common subsequence (one of them, when there are several);
// Missing a reference number the prediction does not have (the report's
// missing_numbers, in order).
type Segment struct {
	Text    string `json:"text"`
	Kind    string `json:"kind,omitempty"`
	LCS     bool   `json:"lcs,omitempty"`
	Missing bool   `json:"missing,omitempty"`
}

// maxAlignWords bounds the bit rows the alignment keeps (8 bytes each):
// 2^21 words is 16 MiB, two texts of some 11,000 tokens each.
const maxAlignWords = 1 << 21

// Detail returns the drill-down of the page of a phase and sample: the
// pair's first record in the run (the one the report scores), warmup
// excluded, against its reference. Its scores and flags are the report's
// page's; an unknown pair or a sample without a reference is an input
// error.
func Detail(refs receiptsread.References, run *runfile.Run, phase, sampleID string) (*PageDetail, error) {
	return DetailLimited(nil, 0, refs, run, phase, sampleID)
}

// DetailLimited is Detail with a bound on the page's tokens, prediction
// and reference together (none when maxTokens is 0): a page over it is a
// *WorkLimitError, found before any LCS is computed, and the drill-down's
// segments (one per token) stay within it. Once ctx is done (nil never
// is) the LCS stops early and the error is ctx's.
func DetailLimited(ctx Canceler, maxTokens int, refs receiptsread.References, run *runfile.Run, phase, sampleID string) (*PageDetail, error) {
	var rec *runfile.Record
	count := 0
	for i := range run.Requests {
		r := &run.Requests[i]
		if r.Phase == runfile.WarmupPhase || r.Phase != phase || r.SampleID != sampleID {
			continue
		}
		if rec == nil {
			rec = r
		}
		count++
	}
	if rec == nil {
		return nil, inputerr.New(run.Name, 0, "no record of phase %q and sample %q: expected a measured request for the pair", phase, sampleID)
	}
	var ref *receiptsread.Reference
	for i := range refs {
		if refs[i].SampleID == sampleID {
			ref = &refs[i]
			break
		}
	}
	if ref == nil {
		return nil, inputerr.New(run.Name, rec.Line, "no reference for sample_id %q: expected it among the %d references given", sampleID, len(refs))
	}
	refToks := Tokenize(ref.Text)
	if maxTokens > 0 {
		n := len(refToks)
		if rec.Stopped() {
			n += len(Tokenize(Clean(rec.OutputString())))
		}
		if n > maxTokens {
			return nil, &WorkLimitError{MaxTokens: maxTokens, Page: phase + "/" + sampleID, Tokens: n}
		}
	}
	page, _ := scorePage(ctx, nil, rec, refToks) // no budget: it never fails
	if ctx != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("receipts: drill-down stopped: %w", ctx.Err())
	}
	if count > 1 {
		page.Flags = append(page.Flags, receiptsreport.FlagDuplicated)
	}
	if !plannedPair(run, phase, sampleID) {
		page.Flags = append(page.Flags, receiptsreport.FlagUnplanned)
	}
	d := &PageDetail{Page: page, Output: rec.Output}
	predText := ""
	if page.ScoredText {
		predText = Fold(Clean(rec.OutputString()))
	}
	d.setTexts(predText, Fold(ref.Text))
	return d, nil
}

// setTexts cuts the case-folded prediction and reference into their
// segments, marked.
func (d *PageDetail) setTexts(pred, ref string) {
	predToks, refToks := tokensOf(pred), tokensOf(ref)
	inPred, inRef, ok := lcsMarks(Words(predToks), Words(refToks))
	d.Aligned = ok
	d.Prediction = segments(pred, predToks, inPred, nil)
	d.Reference = segments(ref, refToks, inRef, missingMarks(predToks, refToks))
}

// plannedPair reports whether the run's header plans the phase and the
// sample.
func plannedPair(run *runfile.Run, phase, sampleID string) bool {
	in := func(list []string, s string) bool {
		for _, x := range list {
			if x == s {
				return true
			}
		}
		return false
	}
	return in(run.Header.Planned.Phases, phase) && in(run.Header.Planned.SampleIDs, sampleID)
}

// missingMarks marks the reference numbers NumericRecall counts as
// missing, matching them the same way (a multiset, in reference order).
func missingMarks(pred, ref []Token) []bool {
	have := map[string]int{}
	for _, t := range pred {
		if t.Numeric {
			have[t.Text]++
		}
	}
	out := make([]bool, len(ref))
	for i, t := range ref {
		if !t.Numeric {
			continue
		}
		if have[t.Text] > 0 {
			have[t.Text]--
		} else {
			out[i] = true
		}
	}
	return out
}

// segments cuts text (the case-folded text toks was read from) into its
// tokens and the text between them. A token's text is found as the next
// occurrence after the previous token: the text between two tokens holds
// no letter or digit, so the search cannot stop early.
func segments(text string, toks []Token, lcs, missing []bool) []Segment {
	out := make([]Segment, 0, 2*len(toks)+1)
	pos := 0
	for i, t := range toks {
		k := pos + strings.Index(text[pos:], t.Text)
		if k > pos {
			out = append(out, Segment{Text: text[pos:k]})
		}
		s := Segment{Text: t.Text, Kind: "word"}
		if t.Numeric {
			s.Kind = "number"
		}
		s.LCS = lcs != nil && lcs[i]
		s.Missing = missing != nil && missing[i]
		out = append(out, s)
		pos = k + len(t.Text)
	}
	if pos < len(text) {
		out = append(out, Segment{Text: text[pos:]})
	}
	return out
}

// lcsMarks finds a longest common subsequence of pred and ref and marks
// its tokens on each side; ok is false (and nothing is marked) when the
// alignment would need more than maxAlignWords of memory. The rows are
// those of LCS's bit-parallel recurrence, kept for the backtrace: bit j
// of row i is 0 where the LCS of pred[:i] and ref[:j+1] is one longer
// than that of pred[:i] and ref[:j].
func lcsMarks(pred, ref []string) (inPred, inRef []bool, ok bool) {
	inPred, inRef = make([]bool, len(pred)), make([]bool, len(ref))
	if len(pred) == 0 || len(ref) == 0 {
		return inPred, inRef, true
	}
	w := (len(ref) + 63) / 64
	if (len(pred)+1)*w > maxAlignWords {
		return inPred, inRef, false
	}
	positions := map[string][]int{}
	for j, t := range ref {
		positions[t] = append(positions[t], j)
	}
	rows := make([]uint64, (len(pred)+1)*w)
	for k := 0; k < w; k++ {
		rows[k] = ^uint64(0)
	}
	mask := make([]uint64, w)
	for i, t := range pred {
		prev, cur := rows[i*w:(i+1)*w], rows[(i+1)*w:(i+2)*w]
		pos := positions[t]
		if len(pos) == 0 {
			copy(cur, prev)
			continue
		}
		for _, j := range pos {
			mask[j>>6] |= 1 << uint(j&63)
		}
		var carry uint64
		for k := 0; k < w; k++ {
			u := prev[k] & mask[k]
			var s uint64
			s, carry = bits.Add64(prev[k], u, carry)
			cur[k] = s | (prev[k] &^ u)
		}
		for _, j := range pos {
			mask[j>>6] = 0
		}
	}
	// length(i, j) is the LCS length of pred[:i] and ref[:j]: the zero
	// bits among the first j of row i.
	length := func(i, j int) int {
		row := rows[i*w : (i+1)*w]
		n := 0
		for k := 0; k < j>>6; k++ {
			n += 64 - bits.OnesCount64(row[k])
		}
		if r := j & 63; r > 0 {
			n += r - bits.OnesCount64(row[j>>6]&(1<<uint(r)-1))
		}
		return n
	}
	i, j := len(pred), len(ref)
	for i > 0 && j > 0 {
		switch {
		case pred[i-1] == ref[j-1]:
			inPred[i-1], inRef[j-1] = true, true
			i, j = i-1, j-1
		case length(i-1, j) == length(i, j):
			i--
		default:
			j--
		}
	}
	return inPred, inRef, true
}
