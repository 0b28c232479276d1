package receipts

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/receipts/donut"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
	"github.com/docscore/docscore/scoring/stats"
)

// PrimaryPhase is the phase whose scores are the primary quality
// observation: concurrency one.
const PrimaryPhase = "c1"

// Structured says when the Donut-style structured metrics are computed.
type Structured int

const (
	// StructuredAuto computes them for a phase when at least one of its
	// scored predictions is a JSON parse and its reference has a gt_parse.
	StructuredAuto Structured = iota
	// StructuredOff never computes them.
	StructuredOff
	// StructuredOn computes them for every phase with gt_parse references.
	StructuredOn
)

// Options tune Score.
type Options struct {
	// AllowIncomplete scores a run whose planned pairs are not each
	// recorded exactly once, and labels the report incomplete. Without it
	// such a run is refused with an *IncompleteError.
	AllowIncomplete bool
	// Order is recorded in the report: the protocol the references were
	// built with (the parsers apply it).
	Order receiptsread.Order
	// Structured says when to compute TED accuracy and field F1.
	Structured Structured
	// Bootstrap is the number of bootstrap replicates of each phase's
	// confidence intervals (SPEC F.4); 0, the zero value, computes none.
	// Hosts default it to stats.DefaultReplicates.
	Bootstrap int
	// CILevel is the intervals' level, in (0, 1); 0 means
	// stats.DefaultLevel.
	CILevel float64
	// MaxLCSCells caps the token pairs (prediction tokens × reference
	// tokens, summed over the pages) that the ROUGE-L of one scoring
	// compares; over it the scoring fails with a *WorkLimitError. Zero
	// means no cap (the command line's); the HTTP API sets one.
	MaxLCSCells int64
	// Seed is xored into each phase's random stream (--seed).
	Seed uint64
	// Stop, when set, is asked between bootstrap replicates
	// (stats.Options.Stop); the scorings set it to their context's Err
	// when it is nil.
	Stop func() error
}

// IncompleteError refuses the summary of a run whose planned pairs are not
// each recorded exactly once (SPEC B.3 step 7). It is an input error: the
// command line exits 2.
type IncompleteError struct {
	File    string
	RunID   string
	Planned int
	// MissingCount counts the planned pairs not recorded; Missing lists
	// the first of them (at most MaxListedPairs).
	MissingCount int
	Missing      []receiptsreport.Pair
	Duplicated   []receiptsreport.Duplicate
	// Allow is the host's way to score the run anyway, named in the
	// message: "--allow-incomplete" on the command line,
	// "allow_incomplete: true" in the HTTP API. Score leaves it empty, and
	// the message then names none.
	Allow string
}

// Error counts the missing pairs and names the first of them, and names
// every duplicated phase/sample pair.
func (e *IncompleteError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: run %q is incomplete: ", e.File, e.RunID)
	var parts []string
	if n := max(e.MissingCount, len(e.Missing)); n > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d planned phase/sample pairs missing", n, e.Planned))
	}
	if n := len(e.Duplicated); n > 0 {
		parts = append(parts, fmt.Sprintf("%d pair%s recorded more than once", n, plural(n)))
	}
	b.WriteString(strings.Join(parts, ", "))
	b.WriteString("; refusing a complete-run summary")
	if e.Allow != "" {
		fmt.Fprintf(&b, " (%s scores what is there and labels the report incomplete)", e.Allow)
	}
	for _, m := range e.Missing {
		fmt.Fprintf(&b, "\n  missing:    %s/%s", m.Phase, m.SampleID)
	}
	if more := max(e.MissingCount, len(e.Missing)) - len(e.Missing); more > 0 {
		fmt.Fprintf(&b, "\n  missing:    … and %d more", more)
	}
	for _, d := range e.Duplicated {
		lines := make([]string, len(d.Lines))
		for i, l := range d.Lines {
			lines[i] = fmt.Sprint(l)
		}
		fmt.Fprintf(&b, "\n  duplicated: %s/%s recorded %d times (lines %s)", d.Phase, d.SampleID, d.Count, strings.Join(lines, ", "))
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Score scores the measured requests of a run against the references
// (SPEC B.3). Warmups are never scored. A request contributes its cleaned
// text only when its status is ok and its finish reason stop; every other
// request is scored as an empty prediction and stays in every
// denominator. Each distinct (phase, sample) pair is scored once, from
// its first record; pairs the header did not plan are listed and scored.
//
// Errors: a scored sample without a reference, two references for one
// sample, or a run record whose image hash contradicts the reference image
// are *inputerr.Error values; an incomplete run without AllowIncomplete is
// an *IncompleteError.
func Score(refs receiptsread.References, run *runfile.Run, opts Options) (*receiptsreport.Report, error) {
	return ScoreContext(context.Background(), refs, run, opts)
}

// ScoreContext is Score that stops when ctx is done: it looks at the
// context before each page, and the error wraps ctx.Err(). A scoring that
// finishes gives exactly the report Score gives.
func ScoreContext(ctx context.Context, refs receiptsread.References, run *runfile.Run, opts Options) (*receiptsreport.Report, error) {
	if run == nil {
		return nil, errors.New("receipts: no run")
	}
	if _, err := stats.IntervalOptions(opts.Bootstrap, opts.CILevel, opts.Seed); err != nil {
		return nil, err
	}
	index := make(map[string]*receiptsread.Reference, len(refs))
	for i := range refs {
		r := &refs[i]
		if prev, dup := index[r.SampleID]; dup {
			return nil, inputerr.New(r.Source, 0, "sample %q already has a reference from %s: expected one reference per sample", r.SampleID, prev.Source)
		}
		index[r.SampleID] = r
	}

	// The plan: measured phases × samples, warmups excluded.
	var phases []string
	planned := map[string]bool{}
	for _, p := range run.Header.Planned.Phases {
		if p == runfile.WarmupPhase || planned[p] {
			continue
		}
		planned[p] = true
		phases = append(phases, p)
	}
	plannedSample := map[string]bool{}
	var samples []string
	for _, s := range run.Header.Planned.SampleIDs {
		if !plannedSample[s] {
			plannedSample[s] = true
			samples = append(samples, s)
		}
	}

	rep := &receiptsreport.Report{
		Kind:           "receipts",
		RunID:          run.Header.RunID,
		Planned:        len(phases) * len(samples),
		Missing:        []receiptsreport.Pair{},
		Duplicated:     []receiptsreport.Duplicate{},
		Unplanned:      []receiptsreport.Unplanned{},
		ReferenceOrder: opts.Order.String(),
		Phases:         []receiptsreport.Phase{},
		Pages:          []receiptsreport.Page{},
	}
	if run.Header.Model != nil {
		rep.Model = run.Header.Model.Name
	}
	if run.End != nil {
		s := run.End.Status
		rep.EndStatus = &s
	}
	for _, e := range run.Skipped {
		rep.SkippedLines = append(rep.SkippedLines, receiptsreport.SkippedLine{Line: e.Line, Error: e.Msg})
	}

	// Group the measured records by pair, in file order.
	byPair := map[receiptsreport.Pair]*pairRecords{}
	var order []receiptsreport.Pair
	for i := range run.Requests {
		rec := &run.Requests[i]
		if rec.Phase == runfile.WarmupPhase {
			continue
		}
		rep.CompletedRecords++
		key := receiptsreport.Pair{Phase: rec.Phase, SampleID: rec.SampleID}
		pr, ok := byPair[key]
		if !ok {
			pr = &pairRecords{}
			byPair[key] = pr
			order = append(order, key)
			if _, known := planned[key.Phase]; !known {
				planned[key.Phase] = false // remember the phase, unplanned
				phases = append(phases, key.Phase)
			}
		}
		pr.records = append(pr.records, rec)
	}

	// Every scored sample needs a reference; a known image must match.
	for _, key := range order {
		rec := byPair[key].records[0]
		ref, ok := index[key.SampleID]
		if !ok {
			return nil, inputerr.New(run.Name, rec.Line, "no reference for sample_id %q: expected it among the %d references given", key.SampleID, len(refs))
		}
		if ref.ImageSHA256 != "" && rec.ImageSHA256 != "" && !strings.EqualFold(ref.ImageSHA256, rec.ImageSHA256) {
			return nil, inputerr.New(run.Name, rec.Line, "image_sha256 %s of sample %q differs from the reference image's %s (%s): the run was made on another image", rec.ImageSHA256, key.SampleID, ref.ImageSHA256, ref.Source)
		}
	}

	// Completeness: count the planned pairs recorded, list a few missing.
	var plannedPhases []string
	for _, p := range phases {
		if planned[p] {
			plannedPhases = append(plannedPhases, p)
		}
	}
	recorded := 0
	for _, key := range order {
		if planned[key.Phase] && plannedSample[key.SampleID] {
			recorded++
		}
	}
	rep.MissingCount, rep.Missing = MissingPairs(plannedPhases, samples, recorded, func(pi, si int) bool {
		_, ok := byPair[receiptsreport.Pair{Phase: plannedPhases[pi], SampleID: samples[si]}]
		return ok
	})
	for _, key := range order {
		recs := byPair[key].records
		if len(recs) > 1 {
			d := receiptsreport.Duplicate{Phase: key.Phase, SampleID: key.SampleID, Count: len(recs), ScoredLine: recs[0].Line}
			for _, r := range recs {
				d.Lines = append(d.Lines, r.Line)
			}
			rep.Duplicated = append(rep.Duplicated, d)
		}
		if !planned[key.Phase] || !plannedSample[key.SampleID] {
			rep.Unplanned = append(rep.Unplanned, receiptsreport.Unplanned{Phase: key.Phase, SampleID: key.SampleID, Line: recs[0].Line})
		}
	}
	rep.Complete = rep.MissingCount == 0 && len(rep.Duplicated) == 0
	rep.Incomplete = !rep.Complete
	if !rep.Complete && !opts.AllowIncomplete {
		return nil, &IncompleteError{File: run.Name, RunID: rep.RunID, Planned: rep.Planned,
			MissingCount: rep.MissingCount, Missing: rep.Missing, Duplicated: rep.Duplicated}
	}

	// Score each pair's first record.
	refTokens := map[string][]Token{}
	scored := make([]*runfile.Record, 0, len(order))
	budget := &cellBudget{max: opts.MaxLCSCells}
	for _, key := range order {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("receipts: scoring stopped: %w", err)
		}
		recs := byPair[key].records
		rec := recs[0]
		ref := index[key.SampleID]
		rt, ok := refTokens[key.SampleID]
		if !ok {
			rt = Tokenize(ref.Text)
			refTokens[key.SampleID] = rt
		}
		page, err := scorePage(ctx, budget, rec, rt)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil { // the LCS may have stopped early
			return nil, fmt.Errorf("receipts: scoring stopped: %w", err)
		}
		if len(recs) > 1 {
			page.Flags = append(page.Flags, receiptsreport.FlagDuplicated)
		}
		if !planned[key.Phase] || !plannedSample[key.SampleID] {
			page.Flags = append(page.Flags, receiptsreport.FlagUnplanned)
		}
		rep.Pages = append(rep.Pages, page)
		scored = append(scored, rec)
	}
	rep.ScoredRecords = len(rep.Pages)

	for _, p := range phases {
		rep.Phases = append(rep.Phases, aggregate(p, rep.Pages))
	}
	if err := scoreStructured(rep, run.Name, scored, index, opts.Structured); err != nil {
		return nil, err
	}
	if opts.Stop == nil {
		opts.Stop = ctx.Err
	}
	if err := addIntervals(rep, opts); err != nil {
		return nil, err
	}
	return rep, nil
}

// scorePage scores one record against its reference tokens, its LCS
// counted against budget. Once ctx is done the LCS stops early and the
// page's numbers mean nothing: the caller checks ctx after.
func scorePage(ctx Canceler, budget *cellBudget, rec *runfile.Record, refToks []Token) (receiptsreport.Page, error) {
	page := receiptsreport.Page{
		Phase:        rec.Phase,
		SampleID:     rec.SampleID,
		Line:         rec.Line,
		Status:       string(rec.Status),
		FinishReason: rec.FinishReason,
		ScoredText:   rec.Stopped(),
		EmptyOutput:  strings.TrimSpace(rec.OutputString()) == "",
		Truncated:    rec.FinishReasonString() == runfile.FinishLength,
		Flags:        []string{},
	}
	if rec.Error != nil {
		page.Error = *rec.Error
	}
	var pred []Token
	if page.ScoredText {
		pred = Tokenize(Clean(rec.OutputString()))
	}
	if page.EmptyOutput {
		page.Flags = append(page.Flags, receiptsreport.FlagEmptyOutput)
	}
	if page.Truncated {
		page.Flags = append(page.Flags, receiptsreport.FlagTruncated)
	}
	if !page.ScoredText {
		page.Flags = append(page.Flags, receiptsreport.FlagNotScored)
	} else if !page.EmptyOutput && len(pred) == 0 {
		page.Flags = append(page.Flags, receiptsreport.FlagEmptyAfterCleaning)
	}
	if err := budget.take(rec.Phase+"/"+rec.SampleID, len(pred), len(refToks)); err != nil {
		return receiptsreport.Page{}, err
	}
	r := rougeL(ctx, Words(pred), Words(refToks))
	page.PredTokens, page.RefTokens, page.LCS = r.PredTokens, r.RefTokens, r.LCS
	page.Precision, page.Recall, page.F1 = r.Precision, r.Recall, r.F1
	n := NumericRecall(pred, refToks)
	page.NumericRef, page.NumericMatched, page.NumericRecall = n.Ref, n.Matched, n.Recall
	page.MissingNumbers = n.Missing
	return page, nil
}

// aggregate pools the pages of one phase.
func aggregate(phase string, pages []receiptsreport.Page) receiptsreport.Phase {
	a := newPhaseAcc(phase)
	for i := range pages {
		if pages[i].Phase == phase {
			a.add(&pages[i])
		}
	}
	return a.result()
}

// phaseAcc pools the pages of one phase, in page order.
type phaseAcc struct {
	p   receiptsreport.Phase
	sum float64 // of the page F1s
}

func newPhaseAcc(phase string) *phaseAcc {
	return &phaseAcc{p: receiptsreport.Phase{
		Phase:              phase,
		Primary:            phase == PrimaryPhase,
		StatusCounts:       map[string]int{},
		FinishReasonCounts: map[string]int{},
	}}
}

func (a *phaseAcc) add(p *receiptsreport.Page) {
	a.p.Pages++
	if p.F1 != nil {
		a.p.PagesWithF1++
		a.sum += *p.F1
	}
	a.p.NumericMatched += p.NumericMatched
	a.p.NumericRef += p.NumericRef
	if p.ScoredText {
		a.p.ScoredText++
	}
	if p.EmptyOutput {
		a.p.EmptyOutputs++
	}
	if p.Truncated {
		a.p.Truncated++
	}
	a.p.StatusCounts[p.Status]++
	fr := "null"
	if p.FinishReason != nil {
		fr = *p.FinishReason
	}
	a.p.FinishReasonCounts[fr]++
}

func (a *phaseAcc) result() receiptsreport.Phase {
	r := a.p
	if r.PagesWithF1 > 0 {
		r.RougeLF1Mean = ptr(a.sum / float64(r.PagesWithF1))
	}
	if r.NumericRef > 0 {
		r.NumericRecall = ptr(float64(r.NumericMatched) / float64(r.NumericRef))
	}
	return r
}

// predictionParse returns the JSON parse of a prediction: the whole output,
// or the body of a ``` fence around it, as a JSON object or array.
func predictionParse(output string) (any, bool) {
	s := strings.TrimSpace(output)
	if strings.HasPrefix(s, "```") {
		_, body, ok := strings.Cut(s, "\n") // after the fence's info line
		if !ok || !strings.HasSuffix(body, "```") {
			return nil, false
		}
		s = strings.TrimSpace(body[:len(body)-3])
	}
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return nil, false
	}
	v, err := donut.Parse([]byte(s))
	if err != nil {
		return nil, false
	}
	return v, true
}

// pairRecords holds the records of one (phase, sample) pair in file order.
type pairRecords struct {
	records []*runfile.Record
}

// scoreStructured adds the Donut-style metrics to the phases that have
// them (see Structured); scored[i] is the record of rep.Pages[i].
func scoreStructured(rep *receiptsreport.Report, runName string, scored []*runfile.Record, index map[string]*receiptsread.Reference, mode Structured) error {
	if mode == StructuredOff {
		return nil
	}
	type pagePred struct {
		pred   any
		parsed bool
	}
	preds := make([]pagePred, len(rep.Pages))
	enabled := map[string]bool{}
	for i := range rep.Pages {
		p := &rep.Pages[i]
		if index[p.SampleID].GTParse == nil {
			continue
		}
		if mode == StructuredOn {
			enabled[p.Phase] = true
		}
		if p.ScoredText {
			if v, ok := predictionParse(scored[i].OutputString()); ok {
				preds[i] = pagePred{pred: v, parsed: true}
				enabled[p.Phase] = true
			}
		}
	}
	if len(enabled) == 0 {
		return nil
	}
	gts := map[string]any{}
	for pi := range rep.Phases {
		ph := &rep.Phases[pi]
		if !enabled[ph.Phase] {
			continue
		}
		var agg structAcc
		for i := range rep.Pages {
			p := &rep.Pages[i]
			ref := index[p.SampleID]
			if p.Phase != ph.Phase || ref.GTParse == nil {
				continue
			}
			gt, ok := gts[p.SampleID]
			if !ok {
				v, err := donut.Parse(ref.GTParse)
				if err != nil {
					return inputerr.New(ref.Source, 0, "gt_parse: %v: expected a JSON value", err)
				}
				gt = v
				gts[p.SampleID] = v
			}
			ps, err := pageStructured(preds[i].pred, preds[i].parsed, gt)
			if err != nil {
				return inputerr.New(runName, p.Line, "structured prediction of sample %q: %v", p.SampleID, err)
			}
			p.Structured = ps
			agg.add(ps)
		}
		ph.Structured = agg.result()
	}
	return nil
}

// pageStructured is the structured score of a page: pred is its parse
// (parsed true) or nothing (an unparsed or unscored prediction is an
// empty parse). A ground truth that normalizes to nothing has no TED
// accuracy; any other error of donut.Accuracy is returned.
func pageStructured(pred any, parsed bool, gt any) (*receiptsreport.PageStructured, error) {
	if !parsed {
		pred = map[string]any{}
	}
	ps := &receiptsreport.PageStructured{Parsed: parsed}
	acc, err := donut.Accuracy(pred, gt)
	switch {
	case err == nil:
		ps.TEDAccuracy = ptr(acc)
	case errors.Is(err, donut.ErrEmptyGroundTruth):
	default:
		return nil, err
	}
	ps.FieldsMatched, ps.FieldsPred, ps.FieldsRef = donut.FieldCounts(pred, gt)
	return ps, nil
}

// structAcc pools the structured scores of a phase's pages, in page
// order.
type structAcc struct {
	p      receiptsreport.PhaseStructured
	accSum float64
	accN   int
}

func (a *structAcc) add(ps *receiptsreport.PageStructured) {
	if ps.TEDAccuracy != nil {
		a.accSum += *ps.TEDAccuracy
		a.accN++
	}
	a.p.Pages++
	if ps.Parsed {
		a.p.Parsed++
	}
	a.p.FieldsMatched += ps.FieldsMatched
	a.p.FieldsPred += ps.FieldsPred
	a.p.FieldsRef += ps.FieldsRef
}

func (a *structAcc) result() *receiptsreport.PhaseStructured {
	r := a.p
	if a.accN > 0 {
		r.TEDAccuracyMean = ptr(a.accSum / float64(a.accN))
	}
	if f1, ok := donut.F1(r.FieldsMatched, r.FieldsPred, r.FieldsRef); ok {
		r.FieldF1 = ptr(f1)
	}
	return &r
}
