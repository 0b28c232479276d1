// Package linepipe is the pipeline of the streamed scorings (tabular's
// Stream, receipts' Stream): one goroutine reads a JSON Lines input into
// batches of lines, Jobs workers each handle whole batches, and the
// calling goroutine takes the batches back in input order. At most 4×Jobs
// batches are out at once, so that a slow batch holds the reading back
// instead of piling results up. What a worker makes of a batch (its
// results, the rows it encoded) lives in the batch's Out.
package linepipe

import (
	"bytes"
	"io"
	"sync"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// linesPerBatch and bytesPerBatch bound a batch of lines. The first
// batches are smaller (firstBatchLines, four times more each time), so
// that the workers start as soon as a few lines are read.
const (
	linesPerBatch   = 64
	bytesPerBatch   = 1 << 20
	firstBatchLines = 4
)

// Canceler is what the scorings take to stop early: a context.Context,
// or api.Cancel. Err is looked at between batches; a Done channel, when
// the value has one, also stops the wait for a batch.
type Canceler interface {
	Err() error
}

// Batch is a run of lines of the input, and what a worker made of them
// (Out).
type Batch[T any] struct {
	Seq     int
	lines   []batchLine
	Last    bool  // the input ends after this batch
	ReadErr error // why the reading stopped, on the last batch
	Out     T
}

type batchLine struct {
	no, indent int
	unended    bool
	bad        *inputerr.Error
	text       []byte // where ingest.Lines read it: never written again
}

// Len is the number of lines in the batch (0 after Drop).
func (b *Batch[T]) Len() int { return len(b.lines) }

// Lines calls f with each line of the batch and the problem ingest.Lines
// found in it (not UTF-8), or nil. The line's text is valid until Drop.
func (b *Batch[T]) Lines(f func(i int, l ingest.Line, bad *inputerr.Error)) {
	for i, bl := range b.lines {
		f(i, ingest.Line{No: bl.no, Text: bl.text, Indent: bl.indent, Unended: bl.unended}, bl.bad)
	}
}

// Drop lets the lines' text go, once the worker is done with it.
func (b *Batch[T]) Drop() { b.lines = nil }

// Options tune Run.
type Options[T any] struct {
	// Jobs is the number of workers; less than 1 means 1.
	Jobs int
	// Worker returns the function that handles a batch for one worker
	// (called once per worker, on the calling goroutine): it fills the
	// batch's Out from its lines.
	Worker func() func(*Batch[T])
	// Take handles a batch in input order, on the calling goroutine; an
	// error stops the pipeline and is Run's.
	Take func(*Batch[T]) error
	// Stopped wraps the canceler's error when it stops the pipeline.
	Stopped func(error) error
	// Progress, when set, is called after each batch taken but the last.
	Progress func()
}

// Run reads the lines of ls (from where it stands) through the pipeline
// until the input ends, Take returns an error, ctx is done or the input
// cannot be read: the error is the first of these, nil at a clean end.
func Run[T any](ctx Canceler, ls *ingest.Lines, o Options[T]) error {
	jobs := max(o.Jobs, 1)
	quit := make(chan struct{})
	defer close(quit)
	tokens := make(chan struct{}, 4*jobs)
	work := make(chan *Batch[T], 4*jobs)
	done := make(chan *Batch[T], 4*jobs)
	go read(ls, quit, tokens, work)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		handle := o.Worker()
		go func() {
			defer wg.Done()
			for b := range work {
				handle(b)
				select {
				case done <- b:
				case <-quit:
					return
				}
			}
		}()
	}
	pending := map[int]*Batch[T]{}
	next := 0
	// A context's Done stops the wait for a batch, even one whose
	// reading is stalled (a pipe with no writer).
	var cancelled <-chan struct{}
	if d, ok := ctx.(interface{ Done() <-chan struct{} }); ok {
		cancelled = d.Done()
	}
	for {
		var b *Batch[T]
		select {
		case b = <-done:
		case <-cancelled:
			return o.Stopped(ctx.Err())
		}
		pending[b.Seq] = b
		for b = pending[next]; b != nil; b = pending[next] {
			delete(pending, next)
			next++
			<-tokens
			if err := o.Take(b); err != nil {
				return err
			}
			if b.Last {
				return b.ReadErr
			}
			if err := ctx.Err(); err != nil {
				return o.Stopped(err)
			}
			if o.Progress != nil {
				o.Progress()
			}
		}
	}
}

// batchLines is the most lines batch seq holds.
func batchLines(seq int) int {
	n := firstBatchLines
	for ; seq > 0 && n < linesPerBatch; seq-- {
		n *= 4
	}
	return min(n, linesPerBatch)
}

// read splits the input into batches. A line's text stays where
// ingest.Lines read it (a reader's lines are never written again, a
// []byte input's are the caller's): a batch holds no copy.
func read[T any](ls *ingest.Lines, quit <-chan struct{}, tokens chan<- struct{}, work chan<- *Batch[T]) {
	defer close(work)
	seq := 0
	for {
		select {
		case tokens <- struct{}{}:
		case <-quit:
			return
		}
		maxLines := batchLines(seq)
		b := &Batch[T]{Seq: seq, lines: make([]batchLine, 0, maxLines)}
		seq++
		for size := 0; len(b.lines) < maxLines && size < bytesPerBatch; {
			if !ls.Next() {
				b.Last, b.ReadErr = true, ls.Err()
				break
			}
			l := ls.Line()
			size += len(l.Text)
			b.lines = append(b.lines, batchLine{no: l.No, indent: l.Indent, unended: l.Unended, bad: ls.BadLine(), text: l.Text})
		}
		select {
		case work <- b:
		case <-quit:
			return
		}
		if b.Last {
			return
		}
	}
}

// Spool holds what a streamed scoring writes aside until the end of the
// report (rows listed after summaries known only at the end): a
// temporary file on the command line.
type Spool interface {
	io.Writer
	// Contents returns everything written, from the start; it is called
	// once, after the last Write.
	Contents() (io.Reader, error)
}

// BufferSpool is a Spool in memory.
type BufferSpool struct{ bytes.Buffer }

// Contents returns the buffer.
func (b *BufferSpool) Contents() (io.Reader, error) { return &b.Buffer, nil }

// NewSpool returns newSpool's spool, or a BufferSpool when newSpool is
// nil.
func NewSpool(newSpool func() (Spool, error)) (Spool, error) {
	if newSpool == nil {
		return &BufferSpool{}, nil
	}
	return newSpool()
}
