package receipts

// A streamed scoring (Stream) gives the bytes of Score's report writers
// (WriteJSON, WriteCSV, WriteMarkdown) for any run file, in memory that
// does not grow with the run's records:
//
//   - The run header (the first line) is read first; then the shared
//     pipeline of the streamed scorings (scoring/internal/linepipe) reads
//     the rest in batches of lines, Jobs workers parse each line
//     (runfile's Run.ParseLine), score each measured request against its
//     reference and encode its page row, and this goroutine takes the
//     lines back in input order.
//   - In input order: the bad-line checks of runfile.Read, the pairing
//     (the first record of a (phase, sample) pair is its page; a later one
//     is a duplicate), the reference checks, the phase sums (phaseAcc,
//     structAcc), the Markdown's lowest pages (ten), and the page's row,
//     written to a Spool and dropped. What is kept besides is one bit per
//     planned pair (seen) and the duplicated and unplanned pairs the
//     report lists.
//   - Each page also writes a fixed-size frame to a second Spool, the
//     page spool: its line, phase and planned sample and, with intervals,
//     its contribution (unit). The page spool gives the first line of a
//     duplicated pair (one pass, only when a pair is duplicated) and the
//     phases' intervals: each pass reads the units of a group of phases of
//     at most unitBudget units into memory, computes their intervals and
//     spools the frames of the phases left for the next pass.
//   - Two things about a page are known only at the end: whether a later
//     record duplicates its pair (the "duplicated" flag) and whether its
//     phase has structured metrics (StructuredAuto: some page of the phase
//     parsed as JSON). Every page's structured scores are computed when
//     its reference has a gt_parse, and its row is spooled with the places
//     of its flags and of its structured part; the rows are spliced into
//     the report at the end with the flags of a duplicated page rewritten
//     and the structured part left out where its phase has none. Nothing
//     of the structured metrics needs every record at once: TED accuracy
//     and field counts are per page, the phase's means and micro F1 are
//     sums.
//   - Every format lists its pages after summaries known at the end (the
//     CSV has no summary, but a run found incomplete or with a missing
//     reference at the end writes nothing): nothing is written to out
//     before the whole file is scored.
//   - Errors are those of runfile.Read then Score, in their order: a bad
//     line (not skipped) or a read error stops the scoring at once; a
//     reference error (a sample without a reference, an image hash that
//     differs, two references for a sample) or bad interval options are
//     held while the rest of the file is still read and checked (not
//     scored), since a bad line anywhere in the file comes first.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/internal/linepipe"
	"github.com/docscore/docscore/scoring/internal/workpool"
	"github.com/docscore/docscore/scoring/receipts/donut"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
	"github.com/docscore/docscore/scoring/stats"
)

// Canceler stops a streamed scoring: a context.Context or api.Cancel.
type Canceler = linepipe.Canceler

// Spool holds the page rows of a streamed scoring until the end of the
// report: a temporary file on the command line.
type Spool = linepipe.Spool

// StreamOptions tune Stream.
type StreamOptions struct {
	// Format is the report's format: json (also ""), csv or md.
	Format string
	// Jobs is the number of records scored at once, and of phase
	// intervals computed at once at the end; less than 1 means 1.
	Jobs int
	// SkipBadLines skips malformed run lines, as runfile.ReadOptions.
	SkipBadLines bool
	// Spool returns the storage of the page rows; nil keeps them in
	// memory.
	Spool func() (Spool, error)
	// Progress, when set, is called with the number of run lines taken so
	// far, after each batch of lines, from the goroutine that called
	// Stream.
	Progress func(lines int)
}

type never struct{}

func (never) Err() error { return nil }

// Stream scores the run file read from run (named name in errors)
// against refs and writes the report to out in o.Format: the bytes Score's
// report writes for runfile.Read's run, for every input, and the same
// errors. It returns the report without its pages (for thresholds and
// warnings) and the lines SkipBadLines left out, also with an
// *IncompleteError.
func Stream(ctx Canceler, refs receiptsread.References, name string, run io.Reader, out io.Writer, opts Options, o StreamOptions) (*receiptsreport.Report, []*inputerr.Error, error) {
	if ctx == nil {
		ctx = never{}
	}
	if opts.Stop == nil {
		opts.Stop = ctx.Err
	}
	format := o.Format
	switch format {
	case "":
		format = "json"
	case "json", "csv", "md":
	default:
		return nil, nil, fmt.Errorf("receipts: format %q: expected json, csv or md", format)
	}
	st := &streamer{ctx: ctx, budget: &cellBudget{max: opts.MaxLCSCells}, name: name, format: format, opts: opts, skip: o.SkipBadLines, jobs: max(o.Jobs, 1), refs: refs,
		index: make(map[string]int32, len(refs)), refState: make([]refState, len(refs))}

	// The header, alone: every later line is parsed against it.
	ls := ingest.NewReaderLines(name, run)
	st.hdr = &runfile.Run{Name: name}
	for st.hdr.HeaderLine == 0 && ls.Next() {
		perr := ls.BadLine()
		var it runfile.Item
		if perr == nil {
			it, perr = st.hdr.ParseLine(ls.Line())
		}
		if perr != nil {
			return nil, nil, perr
		}
		st.hdr.Apply(it, ls.Line().No)
	}
	if err := ls.Err(); err != nil {
		return nil, nil, err
	}
	if st.hdr.HeaderLine == 0 {
		return nil, nil, inputerr.New(name, 0, "empty run file: expected a first line {\"type\": \"run\", …}")
	}

	// The checks Score makes before the pairs: held while the file is read.
	if _, err := stats.IntervalOptions(opts.Bootstrap, opts.CILevel, opts.Seed); err != nil {
		st.early = err
	}
	for i := range refs {
		r := &refs[i]
		if prev, dup := st.index[r.SampleID]; dup && st.early == nil {
			st.early = inputerr.New(r.Source, 0, "sample %q already has a reference from %s: expected one reference per sample", r.SampleID, refs[prev].Source)
		}
		if _, dup := st.index[r.SampleID]; !dup {
			st.index[r.SampleID] = int32(i)
		}
	}
	st.validateOnly.Store(st.early != nil)
	st.plan()
	st.newSpool = o.Spool
	var err error
	if st.pageSpool, err = linepipe.NewSpool(o.Spool); err != nil {
		return nil, nil, err
	}

	if format != "md" {
		if st.spool, err = linepipe.NewSpool(o.Spool); err != nil {
			return nil, nil, err
		}
		st.spoolw = bufio.NewWriterSize(st.spool, 1<<16)
	}
	err = linepipe.Run(ctx, ls, linepipe.Options[*batchOut]{
		Jobs:    o.Jobs,
		Worker:  st.worker,
		Take:    st.take,
		Stopped: func(err error) error { return fmt.Errorf("receipts: scoring stopped: %w", err) },
		Progress: func() {
			if o.Progress != nil {
				o.Progress(st.lines)
			}
		},
	})
	if err != nil {
		return nil, nil, err
	}
	if o.Progress != nil {
		o.Progress(st.lines)
	}
	switch {
	case st.early != nil:
		return nil, nil, st.early
	case st.refErr != nil:
		return nil, nil, st.refErr
	}
	rep, err := st.report()
	if err != nil {
		return nil, st.skipped, err
	}
	if err := st.write(rep, out); err != nil {
		return nil, nil, err
	}
	rep.Pages = nil
	return rep, st.skipped, nil
}

// streamer is a streamed scoring's state.
type streamer struct {
	ctx          Canceler    // the LCS of a long page looks at it too
	budget       *cellBudget // the token pairs compared, against MaxLCSCells
	name         string
	format       string
	opts         Options
	skip         bool
	jobs         int
	refs         receiptsread.References
	index        map[string]int32 // sample → its (first) reference
	refState     []refState
	hdr          *runfile.Run // the header only: read by the workers
	validateOnly atomic.Bool  // score no more records: an error is waiting

	// The plan, read by the workers.
	phases        []string         // planned phases, then unplanned in order of appearance
	phaseIndex    map[string]int32 // also unplanned phases, added by take (not read by workers)
	planned       map[string]int32 // planned phase → index
	samples       []string
	plannedSample map[string]int32

	// Kept by the goroutine that called Stream.
	early, refErr error
	skipped       []*inputerr.Error
	lines         int
	endStatus     *string
	completed     int
	pages         int
	seen          *bitset // per planned pair (phase × sample): a bit, set by its first record
	unplanned     map[receiptsreport.Pair]int32
	unplannedList []receiptsreport.Unplanned
	dups          map[receiptsreport.Pair]*receiptsreport.Duplicate
	unresolved    map[int]*receiptsreport.Duplicate // planned pair → its duplicate, first line not yet known
	dupLines      map[int]bool                      // the first lines of the duplicated pairs
	pageSpool     Spool                             // a frame per page (see pageFrame)
	newSpool      func() (Spool, error)
	frameBuf      []byte
	accs          []*streamPhase
	enabled       []bool    // per phase: it has structured metrics (known at the end)
	lowest        []lowPage // md: the lowest pages, lowest first
	spool         Spool
	spoolw        *bufio.Writer
	frame         []byte
}

// streamPhase is what is kept of a phase.
type streamPhase struct {
	acc      *phaseAcc
	sacc     structAcc
	anyGT    bool  // a page has a reference with a gt_parse
	parsed   bool  // a scored prediction of such a page parsed as JSON
	firstErr error // the first page's structured error
}

// refState is what the workers compute once per reference.
type refState struct {
	tokOnce sync.Once
	tokens  []Token
	gtOnce  sync.Once
	gt      any
	gtErr   error
	empty   *receiptsreport.PageStructured // the score of an empty parse
	emptyE  error
}

func (st *streamer) tokens(ri int32) []Token {
	rs := &st.refState[ri]
	rs.tokOnce.Do(func() { rs.tokens = Tokenize(st.refs[ri].Text) })
	return rs.tokens
}

func (st *streamer) gt(ri int32) *refState {
	rs := &st.refState[ri]
	rs.gtOnce.Do(func() {
		ref := &st.refs[ri]
		v, err := donut.Parse(ref.GTParse)
		if err != nil {
			rs.gtErr = inputerr.New(ref.Source, 0, "gt_parse: %v: expected a JSON value", err)
			return
		}
		rs.gt = v
		rs.empty, rs.emptyE = pageStructured(nil, false, v)
	})
	return rs
}

// plan reads the header's plan as Score does.
func (st *streamer) plan() {
	h := &st.hdr.Header
	st.planned, st.phaseIndex, st.plannedSample = map[string]int32{}, map[string]int32{}, map[string]int32{}
	for _, p := range h.Planned.Phases {
		if _, dup := st.planned[p]; p == runfile.WarmupPhase || dup {
			continue
		}
		st.planned[p] = int32(len(st.phases))
		st.phaseIndex[p] = int32(len(st.phases))
		st.phases = append(st.phases, p)
		st.accs = append(st.accs, newStreamPhase(p))
	}
	for _, s := range h.Planned.SampleIDs {
		if _, dup := st.plannedSample[s]; !dup {
			st.plannedSample[s] = int32(len(st.samples))
			st.samples = append(st.samples, s)
		}
	}
	st.seen = newBitset()
	st.unplanned, st.dups, st.dupLines = map[receiptsreport.Pair]int32{}, map[receiptsreport.Pair]*receiptsreport.Duplicate{}, map[int]bool{}
	st.unresolved = map[int]*receiptsreport.Duplicate{}
}

func newStreamPhase(p string) *streamPhase { return &streamPhase{acc: newPhaseAcc(p)} }

// batchOut is what a worker made of a batch of lines.
type batchOut struct {
	results []lineResult
	rows    bytes.Buffer // the pages' rows (JSON or CSV), see lineResult.row
}

// lineResult is what became of a line.
type lineResult struct {
	err     *inputerr.Error
	typ     string
	end     *runfile.End
	line    int
	phase   string
	sample  string
	ref     int32                // -1: none
	hashErr bool                 // the record's image hash differs from its reference's
	hash    string               // the record's image hash, when it differs
	parsed  bool                 // the page's scored prediction parsed as JSON
	page    *receiptsreport.Page // nil when not scored
	structE error                // the page's structured error
	hasGT   bool                 // its reference has a gt_parse
	row     rowMarks
	work    error // over Options.MaxLCSCells: stops the scoring, never skipped
}

// rowMarks place a page row in batchOut.rows: rows[start:end], its flags
// between flagsAt and flagsEnd, its structured part (JSON) or columns
// (CSV) between structAt and structEnd.
type rowMarks struct {
	start, flagsAt, flagsEnd, structAt, structEnd, end int
	flags                                              uint8 // its flags but duplicated, as bits of flagOrder
}

// flagOrder is the order of a page's flags (bit i: flagOrder[i]).
var flagOrder = []string{receiptsreport.FlagEmptyOutput, receiptsreport.FlagTruncated, receiptsreport.FlagNotScored, receiptsreport.FlagEmptyAfterCleaning, receiptsreport.FlagDuplicated, receiptsreport.FlagUnplanned}

const dupBit = 1 << 4

func flagBits(flags []string) uint8 {
	var b uint8
	for _, f := range flags {
		for i, g := range flagOrder {
			if f == g {
				b |= 1 << i
			}
		}
	}
	return b
}

func flagList(b uint8) []string {
	out := []string{}
	for i, f := range flagOrder {
		if b&(1<<i) != 0 {
			out = append(out, f)
		}
	}
	return out
}

// worker returns one worker's function: it parses, scores and encodes a
// batch.
func (st *streamer) worker() func(*linepipe.Batch[*batchOut]) {
	var jw *jsonout.Writer
	rowsHint := 0 // the previous batch's rows: a batch's buffer is sized once
	return func(bt *linepipe.Batch[*batchOut]) {
		b := &batchOut{results: make([]lineResult, bt.Len())}
		bt.Out = b
		b.rows.Grow(rowsHint + rowsHint/8)
		defer func() { rowsHint = b.rows.Len() }()
		if st.format == "json" && jw == nil {
			jw = jsonout.NewWriter(1 << 14)
			jw.Open('{')
			jw.Open('[')
			jw.Reset()
		}
		bt.Lines(func(i int, l ingest.Line, bad *inputerr.Error) {
			r := &b.results[i]
			r.line = l.No
			if bad != nil {
				r.err = bad
				return
			}
			it, err := st.hdr.ParseLine(l)
			if err != nil {
				r.err = err
				return
			}
			r.typ, r.end = it.Type, it.End
			if it.Type != runfile.TypeRequest || it.Record.Phase == runfile.WarmupPhase {
				return
			}
			rec := &it.Record
			r.phase, r.sample, r.ref = rec.Phase, rec.SampleID, -1
			ri, ok := st.index[rec.SampleID]
			if !ok {
				return
			}
			r.ref = ri
			ref := &st.refs[ri]
			if ref.ImageSHA256 != "" && rec.ImageSHA256 != "" && !strings.EqualFold(ref.ImageSHA256, rec.ImageSHA256) {
				r.hashErr, r.hash = true, rec.ImageSHA256
				return
			}
			if st.validateOnly.Load() {
				return
			}
			page, werr := scorePage(st.ctx, st.budget, rec, st.tokens(ri))
			if werr != nil {
				r.work = werr
				return
			}
			_, pp := st.planned[rec.Phase]
			_, ps := st.plannedSample[rec.SampleID]
			if !pp || !ps {
				page.Flags = append(page.Flags, receiptsreport.FlagUnplanned)
			}
			if st.opts.Structured != StructuredOff && ref.GTParse != nil {
				r.hasGT = true
				var pred any
				parsed := false
				if page.ScoredText {
					pred, parsed = predictionParse(rec.OutputString())
				}
				r.parsed = parsed
				rs := st.gt(ri)
				switch {
				case rs.gtErr != nil:
					r.structE = rs.gtErr
				default:
					s, err := rs.empty, rs.emptyE
					if parsed {
						s, err = pageStructured(pred, true, rs.gt)
					}
					if err != nil {
						r.structE = inputerr.New(st.name, page.Line, "structured prediction of sample %q: %v", page.SampleID, err)
					} else {
						page.Structured = s
					}
				}
			}
			r.page = &page
			switch st.format {
			case "json":
				r.row = writePageJSON(jw, &page, &b.rows)
			case "csv":
				r.row = writePageCSV(&page, &b.rows)
			}
		})
		bt.Drop()
	}
}

// take handles a batch's lines in input order; an error stops the
// scoring.
func (st *streamer) take(bt *linepipe.Batch[*batchOut]) error {
	b := bt.Out
	rows := b.rows.Bytes()
	for i := range b.results {
		r := &b.results[i]
		st.lines++
		if r.work != nil {
			return r.work
		}
		if r.err != nil {
			if !st.skip {
				return r.err
			}
			st.skipped = append(st.skipped, r.err)
			continue
		}
		switch r.typ {
		case runfile.TypeEnd:
			s := r.end.Status
			st.endStatus = &s
			continue
		case runfile.TypeRequest:
		default:
			continue
		}
		if r.phase == "" {
			continue // a warmup
		}
		st.completed++
		key := receiptsreport.Pair{Phase: r.phase, SampleID: r.sample}
		pi, pp := st.planned[key.Phase]
		si, ps := st.plannedSample[key.SampleID]
		pair := -1 // the planned pair's index
		var first int32
		if pp && ps {
			pair = int(pi)*len(st.samples) + int(si)
			if st.seen.has(pair) {
				first = -1 // known later: resolveDuplicates
			}
			st.seen.set(pair)
		} else {
			first = st.unplanned[key]
			if first == 0 {
				st.unplanned[key] = int32(r.line)
			}
		}
		if first != 0 {
			d := st.dups[key]
			if d == nil {
				d = &receiptsreport.Duplicate{Phase: key.Phase, SampleID: key.SampleID, Count: 1, Lines: []int{int(first)}, ScoredLine: int(first)}
				st.dups[key] = d
				if first > 0 {
					st.dupLines[int(first)] = true
				} else {
					st.unresolved[pair] = d
				}
			}
			d.Count++
			d.Lines = append(d.Lines, r.line)
			continue
		}
		// A new pair: a page.
		st.pages++
		if _, ok := st.phaseIndex[key.Phase]; !ok {
			st.phaseIndex[key.Phase] = int32(len(st.phases))
			st.phases = append(st.phases, key.Phase)
			st.accs = append(st.accs, newStreamPhase(key.Phase))
		}
		if !pp || !ps {
			st.unplannedList = append(st.unplannedList, receiptsreport.Unplanned{Phase: key.Phase, SampleID: key.SampleID, Line: r.line})
		}
		if st.refErr == nil && st.early == nil {
			switch {
			case r.ref < 0:
				st.refErr = inputerr.New(st.name, r.line, "no reference for sample_id %q: expected it among the %d references given", key.SampleID, len(st.refs))
			case r.hashErr:
				ref := &st.refs[r.ref]
				st.refErr = inputerr.New(st.name, r.line, "image_sha256 %s of sample %q differs from the reference image's %s (%s): the run was made on another image", r.hash, key.SampleID, ref.ImageSHA256, ref.Source)
			}
			if st.refErr != nil {
				st.validateOnly.Store(true)
			}
		}
		if st.validateOnly.Load() {
			continue
		}
		pa := st.accs[st.phaseIndex[key.Phase]]
		page := r.page
		pa.acc.add(page)
		if r.hasGT {
			pa.anyGT = true
			pa.parsed = pa.parsed || r.parsed
			if r.structE != nil {
				if pa.firstErr == nil {
					pa.firstErr = r.structE
				}
			} else if pa.firstErr == nil {
				pa.sacc.add(page.Structured)
			}
		}
		sample := -1
		if ps {
			sample = int(si)
		}
		if err := st.spoolPage(r.line, int(st.phaseIndex[key.Phase]), sample, r.ref, page); err != nil {
			return err
		}
		switch st.format {
		case "md":
			st.keepLowest(page, st.pages-1)
		default:
			if err := st.spoolRow(rows, r.row, r.line, st.phaseIndex[key.Phase]); err != nil {
				return err
			}
		}
	}
	return nil
}

// lowPage is a page the Markdown may list, with its place in the report.
type lowPage struct {
	page receiptsreport.Page
	at   int
}

// keepLowest keeps the MarkdownLowest pages Report.lowest would list:
// by ascending F1 (null last), ties in report order.
func (st *streamer) keepLowest(p *receiptsreport.Page, at int) {
	less := func(a, b *float64) bool { // a strictly before b
		switch {
		case a == nil:
			return false
		case b == nil:
			return true
		}
		return *a < *b
	}
	n := len(st.lowest)
	if n == receiptsreport.MarkdownLowest && !less(p.F1, st.lowest[n-1].page.F1) {
		return
	}
	pos := n
	for pos > 0 && less(p.F1, st.lowest[pos-1].page.F1) {
		pos--
	}
	st.lowest = append(st.lowest, lowPage{})
	copy(st.lowest[pos+1:], st.lowest[pos:])
	st.lowest[pos] = lowPage{page: *p, at: at}
	if len(st.lowest) > receiptsreport.MarkdownLowest {
		st.lowest = st.lowest[:receiptsreport.MarkdownLowest]
	}
}

// spoolRow writes a page's row to the spool, framed: its line, its
// phase, its flags bits, the row's marks and the row.
func (st *streamer) spoolRow(rows []byte, m rowMarks, line int, phase int32) error {
	row := rows[m.start:m.end]
	f := st.frame[:0]
	for _, v := range []int{line, int(phase), int(m.flags), m.flagsAt - m.start, m.flagsEnd - m.start, m.structAt - m.start, m.structEnd - m.start, len(row)} {
		f = binary.AppendUvarint(f, uint64(v))
	}
	st.frame = f
	if _, err := st.spoolw.Write(f); err != nil {
		return err
	}
	_, err := st.spoolw.Write(row)
	return err
}

// report is the report without its pages, from what was kept.
func (st *streamer) report() (*receiptsreport.Report, error) {
	h := &st.hdr.Header
	rep := &receiptsreport.Report{
		Kind:             "receipts",
		RunID:            h.RunID,
		Planned:          len(st.planned) * len(st.samples),
		CompletedRecords: st.completed,
		ScoredRecords:    st.pages,
		Missing:          []receiptsreport.Pair{},
		Duplicated:       []receiptsreport.Duplicate{},
		Unplanned:        st.unplannedList,
		ReferenceOrder:   st.opts.Order.String(),
		Phases:           []receiptsreport.Phase{},
		Pages:            []receiptsreport.Page{},
		EndStatus:        st.endStatus,
	}
	if rep.Unplanned == nil {
		rep.Unplanned = []receiptsreport.Unplanned{}
	}
	if h.Model != nil {
		rep.Model = h.Model.Name
	}
	for _, e := range st.skipped {
		rep.SkippedLines = append(rep.SkippedLines, receiptsreport.SkippedLine{Line: e.Line, Error: e.Msg})
	}
	rep.MissingCount, rep.Missing = MissingPairs(st.phases[:len(st.planned)], st.samples, st.seen.n, func(pi, si int) bool {
		return st.seen.has(pi*len(st.samples) + si)
	})
	if err := st.resolveDuplicates(); err != nil {
		return nil, err
	}
	for _, d := range st.dups {
		rep.Duplicated = append(rep.Duplicated, *d)
	}
	sortDuplicates(rep.Duplicated)
	rep.Complete = rep.MissingCount == 0 && len(rep.Duplicated) == 0
	rep.Incomplete = !rep.Complete
	if !rep.Complete && !st.opts.AllowIncomplete {
		return nil, &IncompleteError{File: st.name, RunID: rep.RunID, Planned: rep.Planned, MissingCount: rep.MissingCount, Missing: rep.Missing, Duplicated: rep.Duplicated}
	}
	structured := false
	st.enabled = make([]bool, len(st.phases))
	for i, pa := range st.accs {
		rep.Phases = append(rep.Phases, pa.acc.result())
		switch st.opts.Structured {
		case StructuredOn:
			st.enabled[i] = pa.anyGT
		case StructuredAuto:
			st.enabled[i] = pa.parsed
		}
		structured = structured || st.enabled[i]
	}
	for i, pa := range st.accs {
		if !st.enabled[i] {
			continue
		}
		if pa.firstErr != nil {
			return nil, pa.firstErr
		}
		rep.Phases[i].Structured = pa.sacc.result()
	}
	if st.opts.Bootstrap > 0 {
		if err := st.intervals(rep, structured); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// unitBudget is the most units (page contributions) one pass of
// intervals holds, unless one phase alone has more.
var unitBudget = 1 << 16

// pageFrame is a page's frame in the page spool, little-endian: its line,
// its phase (index in st.phases), its planned sample plus one (0: not
// planned) and, with intervals, its reference's index and its unit:
// flags (bit 0 F1, bit 1 TED, bit 2 structured), F1 and TED accuracy as
// float64 bits, and the numeric and field counts.
const (
	frameHead = 12
	frameUnit = 4 + 1 + 8 + 8 + 5*4
)

func (st *streamer) frameSize() int {
	if st.opts.Bootstrap > 0 {
		return frameHead + frameUnit
	}
	return frameHead
}

// spoolPage writes a page's frame to the page spool.
func (st *streamer) spoolPage(line, phase, sample int, ref int32, p *receiptsreport.Page) error {
	f := binary.LittleEndian.AppendUint32(st.frameBuf[:0], uint32(line))
	f = binary.LittleEndian.AppendUint32(f, uint32(phase))
	f = binary.LittleEndian.AppendUint32(f, uint32(sample+1))
	if st.opts.Bootstrap > 0 {
		u := unitOf(p)
		var bits byte
		for i, b := range []bool{u.hasF1, u.hasTED, u.hasStructured} {
			if b {
				bits |= 1 << i
			}
		}
		f = binary.LittleEndian.AppendUint32(f, uint32(ref))
		f = append(f, bits)
		f = binary.LittleEndian.AppendUint64(f, math.Float64bits(u.f1))
		f = binary.LittleEndian.AppendUint64(f, math.Float64bits(u.ted))
		for _, n := range []int32{u.matched, u.ref, u.fMatched, u.fPred, u.fRef} {
			f = binary.LittleEndian.AppendUint32(f, uint32(n))
		}
	}
	st.frameBuf = f
	_, err := st.pageSpool.Write(f)
	return err
}

// frame is a page's frame, read back.
type frame struct {
	line, phase, sample int // sample: -1 when not planned
	ref                 int32
	u                   unit
}

// readFrames calls fn with each frame of the page spool, then gives the
// spool up; fn's error stops the reading.
func (st *streamer) readFrames(fn func(f *frame, raw []byte) error) error {
	src, err := st.pageSpool.Contents()
	if err != nil {
		return err
	}
	st.pageSpool = nil
	r := bufio.NewReaderSize(src, 1<<16)
	raw := make([]byte, st.frameSize())
	var f frame
	for {
		if _, err := io.ReadFull(r, raw); err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("receipts: the spooled pages: %w", err)
		}
		le := binary.LittleEndian
		f.line, f.phase, f.sample = int(le.Uint32(raw)), int(le.Uint32(raw[4:])), int(le.Uint32(raw[8:]))-1
		if len(raw) > frameHead {
			u := raw[frameHead:]
			bits := u[4]
			f.ref = int32(le.Uint32(u))
			f.u = unit{
				hasF1: bits&1 != 0, hasTED: bits&2 != 0, hasStructured: bits&4 != 0,
				f1: math.Float64frombits(le.Uint64(u[5:])), ted: math.Float64frombits(le.Uint64(u[13:])),
				matched: int32(le.Uint32(u[21:])), ref: int32(le.Uint32(u[25:])),
				fMatched: int32(le.Uint32(u[29:])), fPred: int32(le.Uint32(u[33:])), fRef: int32(le.Uint32(u[37:])),
			}
		}
		if err := fn(&f, raw); err != nil {
			return err
		}
	}
}

// copyFrames returns a new page spool and a function that writes a frame
// to it.
func (st *streamer) copyFrames() (Spool, func(raw []byte) error, error) {
	next, err := linepipe.NewSpool(st.newSpool)
	if err != nil {
		return nil, nil, err
	}
	return next, func(raw []byte) error {
		_, err := next.Write(raw)
		return err
	}, nil
}

// resolveDuplicates finds the first line of each duplicated planned pair
// in the page spool: the line of its page.
func (st *streamer) resolveDuplicates() error {
	if len(st.unresolved) == 0 {
		return nil
	}
	var next Spool
	keep := func([]byte) error { return nil }
	if st.opts.Bootstrap > 0 { // the intervals read the frames again
		var err error
		if next, keep, err = st.copyFrames(); err != nil {
			return err
		}
	}
	err := st.readFrames(func(f *frame, raw []byte) error {
		if f.phase < len(st.planned) && f.sample >= 0 {
			if d := st.unresolved[f.phase*len(st.samples)+f.sample]; d != nil {
				d.Lines[0], d.ScoredLine = f.line, f.line
				st.dupLines[f.line] = true
			}
		}
		return keep(raw)
	})
	st.pageSpool, st.unresolved = next, nil
	return err
}

// intervals sets each phase's CI from the units in the page spool, a
// group of phases of at most unitBudget units a pass.
func (st *streamer) intervals(rep *receiptsreport.Report, structured bool) error {
	o, err := stats.IntervalOptions(st.opts.Bootstrap, st.opts.CILevel, st.opts.Seed)
	if err != nil {
		return err
	}
	o.Stop = st.opts.Stop
	schema := stats.ReceiptsSchema(structured)
	for start := 0; start < len(st.accs); {
		end, n := start, 0
		for end < len(st.accs) && (end == start || n+st.accs[end].acc.p.Pages <= unitBudget) {
			n += st.accs[end].acc.p.Pages
			end++
		}
		units, refs := make([][]unit, end-start), make([][]int32, end-start)
		var next Spool
		keep := func([]byte) error { return nil }
		if end < len(st.accs) {
			if next, keep, err = st.copyFrames(); err != nil {
				return err
			}
		}
		err := st.readFrames(func(f *frame, raw []byte) error {
			if f.phase >= start && f.phase < end {
				units[f.phase-start] = append(units[f.phase-start], f.u)
				refs[f.phase-start] = append(refs[f.phase-start], f.ref)
				return nil
			}
			return keep(raw)
		})
		if err != nil {
			return err
		}
		st.pageSpool = next
		// Each phase draws from its own streams: the phases of a pass
		// run on the scoring's jobs with the bits of one after another.
		err = workpool.Run(end-start, st.jobs, func(k int) error {
			i := start + k
			v := make([]float64, schema.Width)
			b := stats.NewBuilder(stats.ReceiptsID(st.phases[i]), schema)
			for j, u := range units[k] {
				u.hasStructured = u.hasStructured && st.enabled[i]
				if err := b.Add(st.refs[refs[k][j]].SampleID, u.fill(v, structured)); err != nil {
					return err
				}
			}
			ci, err := stats.Interval(b.Build(), o)
			rep.Phases[i].CI = ci
			return err
		})
		if err != nil {
			return err
		}
		start = end
	}
	return nil
}

// write writes the report: its summaries, then the spooled rows.
func (st *streamer) write(rep *receiptsreport.Report, out io.Writer) error {
	switch st.format {
	case "md":
		rep.Pages = make([]receiptsreport.Page, len(st.lowest))
		for i := range st.lowest {
			p := &st.lowest[i].page
			if st.dupLines[p.Line] {
				p.Flags = flagList(flagBits(p.Flags) | dupBit)
			}
		}
		// In report order: Report.lowest sorts them again.
		sortLowest(st.lowest)
		for i := range st.lowest {
			rep.Pages[i] = st.lowest[i].page
		}
		return rep.WriteMarkdown(out)
	case "csv":
		cw := csv.NewWriter(out)
		if err := cw.Write(receiptsreport.CSVHeader); err != nil {
			return err
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return st.splice(out, "")
	}
	head, err := jsonout.Marshal(rep)
	if err != nil {
		return err
	}
	const empty = "[]\n}\n"
	if !bytes.HasSuffix(head, []byte(empty)) {
		return errors.New("receipts: the report does not end with its pages")
	}
	if _, err := out.Write(head[:len(head)-len(empty)+1]); err != nil {
		return err
	}
	if err := st.splice(out, "\n    "); err != nil {
		return err
	}
	end := "]\n}\n"
	if st.pages > 0 {
		end = "\n  ]\n}\n"
	}
	_, err = io.WriteString(out, end)
	return err
}

// splice copies the spooled rows to out, each after sep (JSON: a comma
// before all but the first), with a duplicated page's flags written again
// and the structured part of a page whose phase has none left out.
func (st *streamer) splice(out io.Writer, sep string) error {
	if err := st.spoolw.Flush(); err != nil {
		return err
	}
	src, err := st.spool.Contents()
	if err != nil {
		return err
	}
	r := bufio.NewReaderSize(src, 1<<16)
	w := bufio.NewWriterSize(out, 1<<16)
	var row []byte
	var v [8]int
	for n := 0; ; n++ {
		for i := range v {
			x, err := binary.ReadUvarint(r)
			if err != nil {
				if i == 0 && err == io.EOF {
					return w.Flush()
				}
				return fmt.Errorf("receipts: the spooled rows: %w", err)
			}
			v[i] = int(x)
		}
		line, phase, bits, flagsAt, flagsEnd, structAt, structEnd, size := v[0], v[1], uint8(v[2]), v[3], v[4], v[5], v[6], v[7]
		if cap(row) < size {
			row = make([]byte, size)
		}
		row = row[:size]
		if _, err := io.ReadFull(r, row); err != nil {
			return fmt.Errorf("receipts: the spooled rows: %w", err)
		}
		if sep != "" {
			if n > 0 {
				w.WriteByte(',')
			}
			w.WriteString(sep)
		}
		w.Write(row[:flagsAt])
		if st.dupLines[line] {
			st.writeFlags(w, bits|dupBit)
		} else {
			w.Write(row[flagsAt:flagsEnd])
		}
		w.Write(row[flagsEnd:structAt])
		switch {
		case st.enabled[phase]:
			w.Write(row[structAt:structEnd])
		case st.format == "csv":
			w.WriteString(",,,,")
		}
		if _, err := w.Write(row[structEnd:]); err != nil {
			return err
		}
	}
}

// writeFlags writes a page's flags as its row has them.
func (st *streamer) writeFlags(w *bufio.Writer, bits uint8) {
	flags := flagList(bits)
	if st.format == "csv" {
		w.WriteString(strings.Join(flags, ";"))
		return
	}
	jw := jsonout.NewWriter(128)
	jw.Open('{')
	jw.Open('[')
	jw.Open('{')
	jw.Reset()
	writeStrings(jw, flags)
	jw.Flush(w)
}

// writeStrings writes a list of strings (null when nil).
func writeStrings(jw *jsonout.Writer, list []string) {
	if list == nil {
		jw.Null()
		return
	}
	jw.Open('[')
	for _, s := range list {
		jw.Elem()
		jw.String(s)
	}
	jw.Close(']')
}

// writePageJSON writes a page as the report's JSON lays it out (at the
// depth of the pages), and places it in rows.
func writePageJSON(jw *jsonout.Writer, p *receiptsreport.Page, rows *bytes.Buffer) rowMarks {
	jw.Reset()
	var m rowMarks
	jw.Open('{')
	jw.Key("phase")
	jw.String(p.Phase)
	jw.Key("sample_id")
	jw.String(p.SampleID)
	jw.Key("line")
	jw.Int(p.Line)
	jw.Key("status")
	jw.String(p.Status)
	jw.Key("finish_reason")
	jw.OptString(p.FinishReason)
	jw.Key("scored_text")
	jw.Bool(p.ScoredText)
	jw.Key("empty_output")
	jw.Bool(p.EmptyOutput)
	jw.Key("truncated")
	jw.Bool(p.Truncated)
	jw.Key("flags")
	m.flagsAt = jw.Len()
	writeStrings(jw, p.Flags)
	m.flagsEnd = jw.Len()
	m.flags = flagBits(p.Flags)
	if p.Error != "" {
		jw.Key("error")
		jw.String(p.Error)
	}
	jw.Key("pred_tokens")
	jw.Int(p.PredTokens)
	jw.Key("ref_tokens")
	jw.Int(p.RefTokens)
	jw.Key("lcs")
	jw.Int(p.LCS)
	jw.Key("precision")
	jw.OptFloat(p.Precision)
	jw.Key("recall")
	jw.OptFloat(p.Recall)
	jw.Key("f1")
	jw.OptFloat(p.F1)
	jw.Key("numeric_ref")
	jw.Int(p.NumericRef)
	jw.Key("numeric_matched")
	jw.Int(p.NumericMatched)
	jw.Key("numeric_recall")
	jw.OptFloat(p.NumericRecall)
	jw.Key("missing_numbers")
	writeStrings(jw, p.MissingNumbers)
	m.structAt = jw.Len()
	if s := p.Structured; s != nil {
		jw.Key("structured")
		jw.Open('{')
		jw.Key("parsed")
		jw.Bool(s.Parsed)
		jw.Key("ted_accuracy")
		jw.OptFloat(s.TEDAccuracy)
		jw.Key("fields_matched")
		jw.Int(s.FieldsMatched)
		jw.Key("fields_pred")
		jw.Int(s.FieldsPred)
		jw.Key("fields_ref")
		jw.Int(s.FieldsRef)
		jw.Close('}')
	}
	m.structEnd = jw.Len()
	jw.Close('}')
	base := rows.Len()
	jw.Flush(rows) // a page has no float that is not finite
	m.start, m.end = base, rows.Len()
	m.flagsAt += base
	m.flagsEnd += base
	m.structAt += base
	m.structEnd += base
	return m
}

// writePageCSV writes a page's CSV row (WriteCSV's) into rows.
func writePageCSV(p *receiptsreport.Page, rows *bytes.Buffer) rowMarks {
	var m rowMarks
	m.start = rows.Len()
	row := receiptsreport.CSVPageRow(p)
	cw := csv.NewWriter(rows)
	field := func(fields []string) {
		cw.Write(fields)
		cw.Flush()
		rows.Truncate(rows.Len() - 1) // the record's "\n"
	}
	field(row[:8])
	rows.WriteByte(',')
	m.flagsAt = rows.Len()
	field(row[8:9])
	m.flagsEnd = rows.Len()
	m.flags = flagBits(p.Flags)
	rows.WriteByte(',')
	field(row[9:19])
	m.structAt = rows.Len()
	rows.WriteByte(',')
	field(row[19:])
	m.structEnd = rows.Len()
	rows.WriteByte('\n')
	m.end = rows.Len()
	return m
}

// sortDuplicates puts duplicated pairs in the order of their first
// records.
func sortDuplicates(d []receiptsreport.Duplicate) {
	slices.SortFunc(d, func(a, b receiptsreport.Duplicate) int { return a.ScoredLine - b.ScoredLine })
}

// sortLowest puts the kept pages back in report order.
func sortLowest(l []lowPage) {
	slices.SortFunc(l, func(a, b lowPage) int { return a.at - b.at })
}
