package tabular

// A streamed scoring (Stream) gives the bytes of ScoreRequest and the
// report writers for any input, in memory that does not grow with the
// number of images:
//
//   - One goroutine reads the runs file line by line (ingest.Lines over an
//     io.Reader) into batches of lines; Jobs workers each parse and score
//     whole batches with a scorer of their own (its memos bounded by
//     maxMatches) and encode each image's row (JSON or CSV) as they go;
//     the calling goroutine takes the batches back in input order. At
//     most 4×Jobs batches are out at once, so a slow batch holds the
//     reading back instead of piling results up.
//   - In input order, the caller runs the checks ReadRuns makes (bad
//     lines, repeated images: runKeys) and that of a page without ground
//     truth, pools the image into its cell (cellPool), its page's
//     interval contribution (intervalAcc) and the Markdown's page counts
//     (mdSummary), writes its row and drops it. What is kept is a cell
//     per (model, phase), a sum per page and cell, and about four bytes
//     per image for the repeated-image check.
//   - The JSON lists "cells" (known at the end) before "images", so the
//     image rows go to a Spool (the command line's is a temporary file)
//     and are spliced between the head and the end of the report once the
//     cells are pooled: one scoring pass, the rows written twice. The CSV
//     lists its images first: its rows go straight to the output and the
//     cells follow. The Markdown needs the summaries only; its failed
//     images' rows, rendered as they come, wait in the spool.
//   - Errors are those of the in-memory path, in its order: a bad line
//     (not skipped) or a read error stops the scoring at once; a page
//     without ground truth, or an error of the rule file, is held while
//     the rest of the file is still read and checked (not scored), since
//     a bad line anywhere in the file comes first.
//
// A preview (two scorings compared) is not streamed: hosts score it with
// ScoreRequest.

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/internal/jsonscan"
	"github.com/docscore/docscore/scoring/internal/linepipe"
	"github.com/docscore/docscore/scoring/stats"
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
	Check func(*Report) error
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
func Stream(ctx Canceler, req Request, runs io.Reader, out io.Writer, o StreamOptions) (*Report, error) {
	if ctx == nil {
		ctx = never{}
	}
	format := o.Format
	switch format {
	case "":
		format = "json"
	case "json", "csv", "md":
	default:
		return nil, fmt.Errorf("tabular: format %q: expected json, csv or md", format)
	}
	if req.Preview != "" {
		return nil, fmt.Errorf("tabular: a preview is not streamed")
	}
	jobs := max(o.Jobs, 1)
	if o.MaxMatches <= 0 {
		o.MaxMatches = DefaultMaxMatches
	}
	var in Input
	if err := loadGT(req, &in); err != nil {
		return nil, err
	}
	s := in.Schema
	name := req.Runs.Name

	// The checks the in-memory path makes after reading the runs file:
	// early ones come before a page without ground truth, late ones after.
	var early, late error
	var gate float64
	var pages *pageIndex
	early = loadRules(req, &in)
	if early == nil {
		gate, early = gateOf(req.Gate)
	}
	if early == nil {
		_, early = stats.IntervalOptions(req.Intervals.Bootstrap, req.Intervals.CILevel, req.Intervals.Seed)
	}
	if early == nil {
		pages, early = indexPages(in.Pages)
	}
	rep := &Report{Kind: "tabular", Gate: gate, Key: s.Key, Warnings: []string{}}
	for _, c := range s.Columns {
		rep.Fields = append(rep.Fields, c.Name)
	}
	var settledRows []rules.Row
	if early == nil && in.Rules != nil {
		if errs := rules.Check(in.Rules, s, nil); len(errs) > 0 {
			late = errs
		} else {
			sum := in.Rules.SHA256
			rep.Rules = RulesSummary{File: in.Rules.Name, Settled: in.Rules.Count(rules.Settled), Open: in.Rules.Count(rules.Open), SHA256: &sum}
			for _, w := range in.Rules.Warnings {
				rep.Warnings = append(rep.Warnings, w.Error())
			}
			settledRows, _, late = in.Rules.Active(rules.Selection{})
		}
	}

	st := &streamer{
		ctx: ctx, name: name, in: in, pages: pages, format: format, skip: req.SkipBadLines,
		pool: newCellPool(s),
	}
	st.validateOnly.Store(early != nil || late != nil)
	var ciCols []string
	if req.Intervals.Bootstrap > 0 {
		var err error
		if st.acc, err = newIntervalAcc(rep.Fields, req.Intervals); err != nil && early == nil {
			early = err
		}
		sch := stats.TabularSchema(rep.Fields)
		ivs := make([]stats.StatInterval, len(sch.Stats))
		for i, x := range sch.Stats {
			ivs[i] = stats.StatInterval{Name: x.Name, Group: x.Group}
		}
		ciCols = ciColumnNames(ivs)
	}
	st.csvHeader = csvHeader(rep.Fields, ciCols)
	st.ciCols = len(ciCols)
	if format != "csv" {
		var err error
		if st.spool, err = linepipe.NewSpool(o.Spool); err != nil {
			return nil, err
		}
	}
	switch format {
	case "json":
		st.rows = jsonout.NewWriter(1 << 16)
		st.rows.Open('{')
		st.rows.Open('[')
		st.rows.Reset()
	case "csv":
		st.outw = bufio.NewWriterSize(out, 1<<16)
		st.out = csv.NewWriter(st.outw)
	case "md":
		st.md = newMDSummary(st.spool)
	}
	// The pipeline: a reader, jobs workers, and this goroutine in order.
	runErr := linepipe.Run(ctx, ingest.NewReaderLines(name, runs), linepipe.Options[*batchOut]{
		Jobs: jobs,
		Worker: func() func(*linepipe.Batch[*batchOut]) {
			c := rules.Compile(settledRows, s)
			return st.worker(c, gate, o.MaxMatches)
		},
		Take:    st.take,
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
	switch {
	case early != nil:
		return nil, early
	case st.missing != nil:
		return nil, st.missing
	case late != nil:
		return nil, late
	}
	for _, sk := range st.skipped {
		rep.Warnings = append(rep.Warnings, "skipped: "+sk.Error())
	}
	if st.images == 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: no images to score: expected one JSON object per model reading of a page", name))
	}
	rep.Cells = st.pool.cells()
	if st.acc != nil {
		if err := st.acc.finish(rep.Cells); err != nil {
			return nil, err
		}
	}
	if o.Check != nil {
		if err := o.Check(rep); err != nil {
			return nil, err
		}
	}
	return rep, st.finish(rep, out)
}

// batchOut is what a worker made of a batch of lines of the runs file.
type batchOut struct {
	results []lineResult
	rows    bytes.Buffer // the images' encoded rows (JSON or CSV)
}

// lineResult is what became of a line: an error, or an image (its
// records dropped) and, unless only checked, its score and its row,
// rows[row[0]:row[1]].
type lineResult struct {
	err     *inputerr.Error
	im      *Image
	missing bool // the image's page has no ground truth
	score   *ImageScore
	row     [2]int
	stopped error // the scoring was cancelled
}

// streamer is a streamed scoring's state.
type streamer struct {
	ctx          Canceler
	name         string
	in           Input
	pages        *pageIndex // nil after an early error
	format       string
	skip         bool
	validateOnly atomic.Bool // score no more images: an error is waiting

	// Kept by the goroutine that called Stream.
	keys      runKeys
	skipped   []*inputerr.Error
	missing   error
	images    int // images taken (ok or failed)
	pool      *cellPool
	acc       *intervalAcc // nil without intervals
	md        *mdSummary
	spool     Spool
	rows      *jsonout.Writer // the JSON's image rows, before the spool
	out       *csv.Writer     // the CSV's header and cells, through outw
	outw      *bufio.Writer
	csvHeader []string
	ciCols    int
	headerOut bool
}

// worker returns a worker's function: it parses, scores and encodes a
// batch.
func (st *streamer) worker(c *rules.Compiled, gate float64, maxMatches int) func(*linepipe.Batch[*batchOut]) {
	s := st.in.Schema
	var sc *scorer
	if st.pages != nil {
		sc = newScorer(s, c, gate, st.pages, newBudget(st.ctx, Limits{}))
		sc.maxMatches = maxMatches
	}
	var scan jsonscan.Nested
	var jw *jsonout.Writer
	var cw *csv.Writer
	return func(bt *linepipe.Batch[*batchOut]) {
		b := &batchOut{results: make([]lineResult, bt.Len())}
		bt.Out = b
		switch st.format {
		case "json":
			if jw == nil {
				jw = jsonout.NewWriter(1 << 14)
				jw.Open('{')
				jw.Open('[')
				jw.Reset()
			}
		case "csv":
			cw = csv.NewWriter(&b.rows)
		}
		bt.Lines(func(i int, line ingest.Line, bad *inputerr.Error) {
			r := &b.results[i]
			if bad != nil {
				r.err = bad
				return
			}
			im, err := parseLine(st.name, line, s, &scan)
			if err != nil {
				r.err = err
				return
			}
			r.im = im
			if st.pages != nil && st.pages.find(im.Page) == nil {
				r.missing = true
			}
			if r.missing || st.pages == nil || st.validateOnly.Load() {
				im.Records = nil
				return
			}
			if !sc.work.alive() {
				r.stopped = sc.work.err
				return
			}
			sc.trim()
			res := sc.scoreImage(im)
			if sc.work.err != nil {
				r.stopped = sc.work.err
				return
			}
			im.Records = nil
			r.row[0] = b.rows.Len()
			switch st.format {
			case "json":
				writeImage(jw, res, false)
				if err := jw.Flush(&b.rows); err != nil {
					r.stopped = err
				}
			case "csv":
				cw.Write(imageCSVRow(res, len(st.csvHeader), st.ciCols))
				cw.Flush()
			}
			r.row[1] = b.rows.Len()
			res.Pairs, res.UnmatchedModel, res.UnmatchedGT = nil, nil, nil
			r.score = res
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
		if r.stopped != nil {
			return r.stopped
		}
		err := r.err
		if err == nil {
			err = st.keys.check(st.name, r.im)
		}
		if err != nil {
			if !st.skip {
				return err
			}
			st.skipped = append(st.skipped, err)
			continue
		}
		if r.missing {
			if st.missing == nil {
				st.missing = missingPageError(st.name, r.im, st.pages)
				st.validateOnly.Store(true)
			}
			continue
		}
		st.images++
		if st.validateOnly.Load() {
			continue
		}
		im := r.score
		st.pool.add(im)
		if st.acc != nil {
			if err := st.acc.add(im); err != nil {
				return err
			}
		}
		row := rows[r.row[0]:r.row[1]]
		switch st.format {
		case "json":
			st.rows.Elem()
			st.rows.Splice(row)
			if st.rows.Len() > 1<<16 {
				if err := st.rows.Flush(st.spool); err != nil {
					return err
				}
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
			if err := st.md.add(im); err != nil {
				return err
			}
		}
	}
	return nil
}

// finish writes the report around the rows written so far.
func (st *streamer) finish(rep *Report, out io.Writer) error {
	spliced := func(w io.Writer) error {
		r, err := st.spool.Contents()
		if err != nil {
			return err
		}
		_, err = io.Copy(w, r)
		return err
	}
	switch st.format {
	case "json":
		if err := st.rows.Flush(st.spool); err != nil {
			return err
		}
		jw := jsonout.NewWriter(4096 + 1024*len(rep.Cells))
		err := rep.writeJSON(jw, func(jw *jsonout.Writer) error {
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
		if err := writeCellRows(st.out, rep.Cells, ciCols); err != nil {
			return err
		}
		st.out.Flush()
		if err := st.out.Error(); err != nil {
			return err
		}
		return st.outw.Flush()
	default:
		return rep.writeMarkdown(out, st.md, spliced)
	}
}

// missingPageError is the error of an image whose page has no ground
// truth.
func missingPageError(file string, im *Image, pages *pageIndex) *inputerr.Error {
	return inputerr.New(file, im.Line, "page %s has no ground-truth file (expected gt_page_%s.csv or a row with page %s; pages given: %s)",
		im.Page, im.Page, im.Page, strings.Join(pages.ids(), ", "))
}
