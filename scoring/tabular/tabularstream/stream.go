package tabularstream

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/internal/linepipe"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// Spool holds what a streamed scoring writes aside until the end of the
// report (the JSON's image rows): a temporary file on the command line.
type Spool = linepipe.Spool

// StreamOptions tune Stream.
type StreamOptions struct {
	// Format is the report's format: json (also ""), csv or md.
	Format string
	// Jobs is the number of images scored at once; less than 1 means 1.
	Jobs int
	// Spool returns the storage of the rows written aside; nil keeps them
	// in memory.
	Spool func() (Spool, error)
	// Progress, when set, is called with the number of images taken so
	// far, after each batch of lines, from the goroutine that called
	// Stream.
	Progress func(images int)
	// MaxMatches bounds each worker's memo of name matches; 0 means
	// DefaultMaxMatches.
	MaxMatches int
	// Check, when set, looks at the scored report (without its images)
	// before the report is written: an error it returns is Stream's, and
	// nothing more is written.
	Check func(*tabularreport.Report) error
	// Image, when set, is called with each image the report holds, in
	// input order, its pairs dropped (it must not keep im past the call
	// if it changes it): the page's table of images is built from them.
	Image func(im *tabularreport.ImageScore)
}

// DefaultMaxMatches is the memo bound of a streamed scoring's workers: a
// few megabytes each.
const DefaultMaxMatches = 1 << 12

// Stream scores the runs file read from runs (req.Runs.Name names it;
// req.Runs.Data is not read) against req's ground truth and rule file and
// writes the report to out in o.Format: the bytes ScoreRequest's report
// writes, for every input, and the same errors. The report it returns
// holds everything but the images (for thresholds and warnings). A
// preview is refused: score it with ScoreRequest. Nothing is written to
// out before the whole file is scored, except CSV image rows.
//
// It is built of the two halves a host with workers of its own (the
// page's pool of Web Workers) uses apart: BatchScorer, which scores a
// batch of lines, and Merger, which takes the batches in input order.
func Stream(ctx tabular.Canceler, req tabular.Request, runs io.Reader, out io.Writer, o StreamOptions) (*tabularreport.Report, error) {
	if ctx == nil {
		ctx = neverStop{}
	}
	req.Intervals = req.Intervals.StoppedBy(ctx)
	if f := o.Format; f != "" && f != "json" && f != "csv" && f != "md" {
		return nil, fmt.Errorf("tabular: format %q: expected json, csv or md", f)
	}
	jobs := max(o.Jobs, 1)
	m, err := NewMerger(req, out, o)
	if err != nil {
		return nil, err
	}
	st := m.st

	// The pipeline: a reader, jobs workers, and this goroutine in order.
	runErr := linepipe.Run(ctx, ingest.NewReaderLines(st.name, runs), linepipe.Options[*Batch]{
		Jobs: jobs,
		Worker: func() func(*linepipe.Batch[*Batch]) {
			bs := m.cfg.newBatchScorer(ctx, &st.validateOnly, o.MaxMatches)
			return func(bt *linepipe.Batch[*Batch]) {
				bt.Out = bs.score(bt.Len(), bt.Lines)
				bt.Drop()
			}
		},
		Take:    func(bt *linepipe.Batch[*Batch]) error { return m.Take(bt.Out) },
		Stopped: func(err error) error { return fmt.Errorf("tabular: scoring stopped: %w", err) },
		Progress: func() {
			if o.Progress != nil {
				o.Progress(st.images)
			}
		},
	})
	if runErr != nil {
		return nil, runErr
	}
	if o.Progress != nil {
		o.Progress(st.images)
	}
	return m.Finish(nil)
}

// streamConfig is what both halves of a streamed scoring derive from its
// request: the loaded ground truth, the checks made before the first
// line (early) and after the last (late), the settled rule rows the
// scorers compile, and the report's frame.
type streamConfig struct {
	name         string
	in           tabular.Input
	pages        *tabular.PageIndex // nil after an early error
	format       string
	gate         float64
	skip         bool
	leaveOut     bool // SkipBadInputs: bad lines and lines without ground truth are left out
	early, late  error
	settledRows  []rules.Row
	rep          *tabularreport.Report
	intervals    tabular.Intervals
	csvHeader    []string
	ciCols       int
	rowsRendered bool // workers render each image's row (JSON, CSV)
	// rowBufs holds the buffers of batches' JSON rows that the Merger
	// has written out, for the next batches: a few buffers go round
	// (a batch's rows are about 1 MB, 64 images of the register),
	// rather than new memory for every batch.
	rowBufs chan []byte
}

// freeRowBufs is how many buffers of rows a stream keeps for reuse: the
// batches out at once with two jobs, and a few more.
const freeRowBufs = 12

// newStreamConfig loads req's ground truth and makes the checks of the
// in-memory path that need no runs line. format is json (also ""), csv,
// md, or "summary": the report's summary only, no rows written.
func newStreamConfig(req tabular.Request, format string) (*streamConfig, error) {
	switch format {
	case "":
		format = "json"
	case "json", "csv", "md", "summary":
	default:
		return nil, fmt.Errorf("tabular: format %q: expected json, csv or md", format)
	}
	if req.Preview != "" {
		return nil, fmt.Errorf("tabular: a preview is not streamed")
	}
	cfg := &streamConfig{rowBufs: make(chan []byte, freeRowBufs), name: req.Runs.Name, format: format, skip: req.SkipBadLines || req.SkipBadInputs, leaveOut: req.SkipBadInputs, intervals: req.Intervals,
		rowsRendered: format == "json" || format == "csv"}
	if err := tabular.LoadGT(req, &cfg.in); err != nil {
		return nil, err
	}
	in := &cfg.in
	s := in.Schema
	// The checks the in-memory path makes after reading the runs file:
	// early ones come before a page without ground truth, late ones after.
	early := tabular.LoadRules(req, in)
	if early == nil {
		cfg.gate, early = tabular.GateOf(req.Gate)
	}
	if early == nil {
		_, early = stats.IntervalOptions(req.Intervals.Bootstrap, req.Intervals.CILevel, req.Intervals.Seed)
	}
	if early == nil {
		cfg.pages, early = tabular.IndexPages(in.Pages)
	}
	rep := &tabularreport.Report{Kind: "tabular", Gate: cfg.gate, Key: s.Key, Warnings: []string{}, LeftOut: in.LeftOut}
	for _, c := range s.Columns {
		rep.Fields = append(rep.Fields, c.Name)
	}
	if early == nil && in.Rules != nil {
		if errs := rules.Check(in.Rules, s, nil); len(errs) > 0 {
			cfg.late = errs
		} else {
			sum := in.Rules.SHA256
			rep.Rules = tabularreport.RulesSummary{File: in.Rules.Name, Settled: in.Rules.Count(rules.Settled), Open: in.Rules.Count(rules.Open), SHA256: &sum}
			for _, w := range in.Rules.Warnings {
				rep.Warnings = append(rep.Warnings, tabular.WarningText(w))
			}
			cfg.settledRows, _, cfg.late = in.Rules.Active(rules.Selection{})
		}
	}
	var ciCols []string
	if req.Intervals.Bootstrap > 0 {
		if _, err := tabular.NewIntervalAcc(rep.Fields, req.Intervals); err != nil && early == nil {
			early = err
		}
		sch := stats.TabularSchema(rep.Fields)
		ivs := make([]stats.StatInterval, len(sch.Stats))
		for i, x := range sch.Stats {
			ivs[i] = stats.StatInterval{Name: x.Name, Group: x.Group}
		}
		ciCols = tabularreport.CIColumnNames(ivs)
	}
	cfg.csvHeader = tabularreport.CSVHeader(rep.Fields, ciCols)
	cfg.ciCols = len(ciCols)
	cfg.early, cfg.rep = early, rep
	return cfg, nil
}

// Merger is the in-order half of a streamed scoring: it takes the
// batches BatchScorers scored, in input order, checks each line as
// ReadRuns does, pools each image into its cell, its page's interval
// contribution and the Markdown's counts, writes its row (to out for the
// CSV, to the spool for the JSON and the Markdown), and at the end
// writes the rest of the report. Stream is a Merger fed by goroutines.
type Merger struct {
	cfg *streamConfig
	st  *streamer
	o   StreamOptions
	out io.Writer
}

// NewMerger starts the in-order half of a streamed scoring of req
// (req.Runs.Data is not read) in o.Format, writing to out; o.Jobs and
// o.Progress are not used. o.Format "summary" writes nothing: Finish
// returns the report's summary.
func NewMerger(req tabular.Request, out io.Writer, o StreamOptions) (*Merger, error) {
	if o.MaxMatches <= 0 {
		o.MaxMatches = DefaultMaxMatches
	}
	cfg, err := newStreamConfig(req, o.Format)
	if err != nil {
		return nil, err
	}
	st := &streamer{
		name: cfg.name, in: cfg.in, pages: cfg.pages, format: cfg.format, skip: cfg.skip, leaveOut: cfg.leaveOut,
		pool: tabularreport.NewCellPool(cfg.in.Schema), csvHeader: cfg.csvHeader, ciCols: cfg.ciCols,
		image: o.Image, rowBufs: cfg.rowBufs,
	}
	st.validateOnly.Store(cfg.early != nil || cfg.late != nil)
	if req.Intervals.Bootstrap > 0 {
		st.acc, _ = tabular.NewIntervalAcc(cfg.rep.Fields, req.Intervals)
	}
	if cfg.format == "json" || cfg.format == "md" {
		if st.spool, err = linepipe.NewSpool(o.Spool); err != nil {
			return nil, err
		}
	}
	switch cfg.format {
	case "json":
		st.rows = jsonout.NewWriter(1 << 16)
		st.rows.Open('{')
		st.rows.Open('[')
		st.rows.Reset()
	case "csv":
		st.outw = bufio.NewWriterSize(out, 1<<16)
		st.out = csv.NewWriter(st.outw)
	case "md":
		st.md = tabularreport.NewMDSummary(st.spool)
	}
	return &Merger{cfg: cfg, st: st, o: o, out: out}, nil
}

// Images is the number of images taken so far (scored or failed).
func (m *Merger) Images() int { return m.st.images }

// Take handles a batch's lines, which come after those of the batches
// taken before it; an error (a bad line not skipped, a repeated image)
// stops the scoring: it is the scoring's error.
func (m *Merger) Take(b *Batch) error { return m.st.take(b) }

// Flush writes what Take holds in buffers: the CSV's rows to out, the
// JSON's to the spool. A host that hands the report on in parts calls it
// after each Take.
func (m *Merger) Flush() error {
	st := m.st
	switch st.format {
	case "json":
		return st.rows.Flush(st.spool)
	case "csv":
		st.out.Flush()
		if err := st.out.Error(); err != nil {
			return err
		}
		return st.outw.Flush()
	}
	return nil
}

// Finish ends the scoring once the last batch is taken: it returns the
// scoring's error, or writes the rest of the report to out and returns
// the report without its images. splice writes the spool's contents
// where they go in the report (the JSON's images, the Markdown's failed
// images); nil copies the spool's Contents. A host that keeps the spool
// itself passes a splice that notes the place and writes nothing.
func (m *Merger) Finish(splice func(io.Writer) error) (*tabularreport.Report, error) {
	st, cfg, rep := m.st, m.cfg, m.cfg.rep
	switch {
	case cfg.early != nil:
		return nil, cfg.early
	case st.missing != nil:
		return nil, st.missing
	case cfg.late != nil:
		return nil, cfg.late
	}
	for _, sk := range st.skipped {
		rep.Warnings = append(rep.Warnings, "skipped: "+sk.Head())
	}
	if len(st.left) > 0 {
		rep.LeftOut = append(append([]tabularreport.LeftOut(nil), rep.LeftOut...), st.left...)
	}
	if st.images == 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: no images to score: expected one JSON object per model reading of a page", cfg.name))
	}
	rep.Cells = st.pool.Cells()
	if st.acc != nil {
		if err := st.acc.Finish(rep.Cells); err != nil {
			return nil, err
		}
	}
	if m.o.Check != nil {
		if err := m.o.Check(rep); err != nil {
			return nil, err
		}
	}
	if cfg.format == "summary" {
		return rep, nil
	}
	if splice == nil {
		splice = func(w io.Writer) error {
			r, err := st.spool.Contents()
			if err != nil {
				return err
			}
			_, err = io.Copy(w, r)
			return err
		}
	}
	return rep, st.finish(rep, m.out, splice)
}

// BatchScorer is the parallel half of a streamed scoring: it parses and
// scores batches of runs lines, each on its own, with a scorer of its
// own (its memos bounded), and renders each image's row. A batch's
// results go to a Merger, in input order: through Stream's channels, or
// encoded (Batch.Encode, DecodeBatch) between the page's Web Workers.
type BatchScorer struct {
	cfg          *streamConfig
	validateOnly *atomic.Bool         // shared with the Merger in Stream
	sc           *tabular.ImageScorer // nil after an early error
	scan         tabularread.LineScratch
	jw           *jsonout.Writer
	rowsPerLine  int // the bytes of the previous batch's rows a line
}

// NewBatchScorer returns a scorer of batches of req's runs lines for a
// report in format (that of the Merger they go to; "summary" renders no
// rows); maxMatches bounds its memo (0: DefaultMaxMatches). An error in
// the ground truth or the rule file is not its own: its batches are then
// only parsed, and the Merger reports the error.
func NewBatchScorer(req tabular.Request, format string, maxMatches int) (*BatchScorer, error) {
	cfg, err := newStreamConfig(req, format)
	if err != nil {
		return nil, err
	}
	v := &atomic.Bool{}
	v.Store(cfg.early != nil || cfg.late != nil)
	return cfg.newBatchScorer(neverStop{}, v, maxMatches), nil
}

func (cfg *streamConfig) newBatchScorer(ctx tabular.Canceler, validateOnly *atomic.Bool, maxMatches int) *BatchScorer {
	if maxMatches <= 0 {
		maxMatches = DefaultMaxMatches
	}
	bs := &BatchScorer{cfg: cfg, validateOnly: validateOnly}
	if cfg.pages != nil {
		c := rules.Compile(cfg.settledRows, cfg.in.Schema)
		bs.sc = tabular.NewImageScorer(ctx, cfg.in.Schema, c, cfg.gate, cfg.pages, maxMatches)
	}
	return bs
}

// ScoreLines scores the lines of data, whose first line is line first of
// the runs file (1 for the file's start, whose byte order mark is then
// dropped). data holds whole lines: each but the file's last ends with
// "\n". The batch's lines are not kept.
func (bs *BatchScorer) ScoreLines(first int, data []byte) *Batch {
	var lines []ingest.Line
	var bad []*inputerr.Error
	ls := ingest.NewLinesAt(bs.cfg.name, data, first)
	for ls.Next() {
		l := ls.Line()
		l.Text = append([]byte(nil), l.Text...)
		lines, bad = append(lines, l), append(bad, ls.BadLine())
	}
	return bs.score(len(lines), func(f func(int, ingest.Line, *inputerr.Error)) {
		for i, l := range lines {
			f(i, l, bad[i])
		}
	})
}

// Batch is what a worker made of a run of lines of the runs file: each
// line's result and the images' encoded rows.
type Batch struct {
	results []lineResult
	rows    bytes.Buffer // the images' encoded rows (JSON or CSV)
}

// lineResult is what became of a line: an error, or an image (its
// records dropped) and, unless only checked, its score and its row,
// rows[row[0]:row[1]].
type lineResult struct {
	err     *inputerr.Error
	im      *tabularread.Image
	missing bool // the image's page has no ground truth
	score   *tabularreport.ImageScore
	row     [2]int
	stopped error // the scoring was cancelled
}

// streamer is a streamed scoring's state.
type streamer struct {
	rowBufs      chan []byte // streamConfig's
	name         string
	in           tabular.Input
	pages        *tabular.PageIndex // nil after an early error
	format       string
	skip         bool
	leaveOut     bool        // SkipBadInputs: bad lines and lines without ground truth go to left
	validateOnly atomic.Bool // score no more images: an error is waiting

	// Kept by the goroutine that called Stream.
	keys      tabularread.RunKeys
	skipped   []*inputerr.Error
	left      []tabularreport.LeftOut // the runs lines left out (leaveOut)
	leftGT    map[string]string
	missing   error
	images    int // images taken (ok or failed)
	pool      *tabularreport.CellPool
	acc       *tabular.IntervalAcc // nil without intervals
	md        *tabularreport.MDSummary
	spool     Spool
	rows      *jsonout.Writer // the JSON's image rows, before the spool
	out       *csv.Writer     // the CSV's header and cells, through outw
	outw      *bufio.Writer
	csvHeader []string
	ciCols    int
	headerOut bool
	image     func(*tabularreport.ImageScore) // StreamOptions.Image
}

// score parses, scores and encodes a batch of n lines, which lines
// gives with the problem ingest found in each (or nil), into a Batch.
func (bs *BatchScorer) score(n int, lines func(func(i int, l ingest.Line, bad *inputerr.Error))) *Batch {
	cfg := bs.cfg
	s := cfg.in.Schema
	sc := bs.sc
	var cw *csv.Writer
	b := &Batch{results: make([]lineResult, n)}
	switch cfg.format {
	case "json":
		if bs.jw == nil {
			bs.jw = jsonout.NewWriter(1 << 14)
			bs.jw.Open('{')
			bs.jw.Open('[')
			bs.jw.Reset()
		}
	case "csv":
		cw = csv.NewWriter(&b.rows)
	}
	jw := bs.jw
	if jw != nil {
		// The batch's rows are written where they stay: the writer's
		// buffer becomes the batch's (no copy into a growing one), drawn
		// from those the Merger has finished with.
		var buf []byte
		select {
		case buf = <-cfg.rowBufs:
		default:
		}
		// Sized once from the previous batch's rows a line (batches grow
		// from 4 lines to 64), rather than grown by doubling (1.1 MB on
		// the benchmark corpus: five copies, and pages touched afresh);
		// a smaller one is let go. The room to spare is never touched.
		if need := bs.rowsPerLine * n; cap(buf) < need || buf == nil {
			buf = make([]byte, 0, need+need/2)
		}
		jw.Detach(buf)
	}
	lines(func(i int, line ingest.Line, bad *inputerr.Error) {
		r := &b.results[i]
		if bad != nil {
			r.err = bad
			return
		}
		// The records live in bs.scan until the next line: they are
		// scored, and let go, before it.
		im, err := tabularread.ParseLineTransient(cfg.name, line, s, &bs.scan)
		if err != nil {
			r.err = err
			return
		}
		r.im = im
		if cfg.pages != nil && cfg.pages.Find(im.Page) == nil {
			r.missing = true
		}
		if r.missing || cfg.pages == nil || bs.validateOnly.Load() {
			im.Records = nil
			return
		}
		res, stopped := sc.ScoreTransient(im)
		if stopped != nil {
			im.Records = nil
			r.stopped = stopped
			return
		}
		im.Records = nil
		switch cfg.format {
		case "json":
			r.row[0] = jw.Len()
			tabularreport.WriteImage(jw, res, false)
			r.row[1] = jw.Len()
		case "csv":
			r.row[0] = b.rows.Len()
			cw.Write(tabularreport.ImageCSVRow(res, len(cfg.csvHeader), cfg.ciCols))
			cw.Flush()
			r.row[1] = b.rows.Len()
		}
		res.Pairs, res.UnmatchedModel, res.UnmatchedGT = nil, nil, nil
		r.score = res
	})
	if jw != nil {
		rows, err := jw.Detach(nil)
		bs.rowsPerLine = len(rows) / max(n, 1)
		b.rows = *bytes.NewBuffer(rows)
		if err != nil {
			// The writer's first error stops the scoring at the batch's
			// first image.
			for i := range b.results {
				if r := &b.results[i]; r.score != nil {
					r.stopped = err
					break
				}
			}
		}
	}
	return b
}

// recycleRows hands a taken batch's row buffer back to the stream's
// free ones (let go when they are all there).
func (st *streamer) recycleRows(b *Batch) {
	buf := b.rows.Bytes()[:0]
	b.rows = bytes.Buffer{}
	select {
	case st.rowBufs <- buf:
	default:
	}
}

// take handles a batch's lines in input order; an error stops the
// scoring.
func (st *streamer) take(b *Batch) error {
	if st.format == "json" {
		defer st.recycleRows(b) // its rows are in the spool by then
	}
	rows := b.rows.Bytes()
	for i := range b.results {
		r := &b.results[i]
		if r.stopped != nil {
			return r.stopped
		}
		err := r.err
		if err == nil {
			err = st.keys.Check(st.name, r.im)
		}
		if err != nil {
			if !st.skip {
				return err
			}
			if st.leaveOut {
				st.left = append(st.left, tabularreport.NewLeftOut(tabularreport.LeftRunsLine, err))
			} else {
				st.skipped = append(st.skipped, err)
			}
			continue
		}
		if r.missing && st.leaveOut {
			if st.leftGT == nil {
				st.leftGT = tabular.LeftGTFiles(st.in.LeftOut)
			}
			st.left = append(st.left, tabular.NoGroundTruth(st.name, r.im, st.pages, st.leftGT))
			continue
		}
		if r.missing {
			if st.missing == nil {
				st.missing = tabular.MissingPageError(st.name, r.im, st.pages)
				st.validateOnly.Store(true)
			}
			continue
		}
		st.images++
		if st.validateOnly.Load() {
			continue
		}
		im := r.score
		if st.image != nil {
			st.image(im)
		}
		st.pool.Add(im)
		if st.acc != nil {
			if err := st.acc.Add(im); err != nil {
				return err
			}
		}
		row := rows[r.row[0]:r.row[1]]
		switch st.format {
		case "json":
			// The separator, then the row from the batch's buffer
			// straight into the spool.
			st.rows.Elem()
			if err := st.rows.Flush(st.spool); err != nil {
				return err
			}
			if _, err := st.spool.Write(row); err != nil {
				return err
			}
		case "csv":
			if !st.headerOut {
				st.headerOut = true
				if err := st.out.Write(st.csvHeader); err != nil {
					return err
				}
				st.out.Flush()
			}
			if _, err := st.outw.Write(row); err != nil {
				return err
			}
		case "md":
			if err := st.md.Add(im); err != nil {
				return err
			}
		}
	}
	return nil
}

// finish writes the report around the rows written so far.
func (st *streamer) finish(rep *tabularreport.Report, out io.Writer, spliced func(io.Writer) error) error {
	switch st.format {
	case "json":
		if err := st.rows.Flush(st.spool); err != nil {
			return err
		}
		jw := jsonout.NewWriter(4096 + 1024*len(rep.Cells))
		err := rep.WriteJSONAround(jw, func(jw *jsonout.Writer) error {
			jw.Open('[')
			if err := jw.Flush(out); err != nil {
				return err
			}
			if err := spliced(out); err != nil {
				return err
			}
			if st.images > 0 {
				jw.Filled()
			}
			jw.Close(']')
			return nil
		})
		if err != nil {
			return err
		}
		b, err := jw.Bytes()
		if err != nil {
			return err
		}
		_, err = out.Write(b)
		return err
	case "csv":
		ciCols := st.ciCols
		if !st.headerOut {
			// No image: no cell, and no interval columns.
			ciCols = 0
			if err := st.out.Write(st.csvHeader[:len(st.csvHeader)-st.ciCols]); err != nil {
				return err
			}
		}
		if err := tabularreport.WriteCellRows(st.out, rep.Cells, ciCols); err != nil {
			return err
		}
		st.out.Flush()
		if err := st.out.Error(); err != nil {
			return err
		}
		return st.outw.Flush()
	default:
		return rep.WriteMarkdownWith(out, st.md, spliced)
	}
}

// neverStop is the Canceler of a scoring no one stops.
type neverStop struct{}

func (neverStop) Err() error { return nil }
