package linepipe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// gotLine is what the pipeline handed over of a line: ingest.Line with
// its text copied, and the bad line's message.
type gotLine struct {
	No, Indent int
	Text       string
	Unended    bool
	Bad        string
}

// wantLines are the lines ingest.Lines gives for data read at once: what
// the pipeline must hand over, in this order.
func wantLines(data []byte) []gotLine {
	var out []gotLine
	ls := ingest.NewLines("in.jsonl", data)
	for ls.Next() {
		l := ls.Line()
		g := gotLine{No: l.No, Indent: l.Indent, Text: string(l.Text), Unended: l.Unended}
		if b := ls.BadLine(); b != nil {
			g.Bad = b.Error()
		}
		out = append(out, g)
	}
	return out
}

// collect is a Batch's Out in these tests: the lines a worker saw.
type collect struct {
	lines  []gotLine
	worker int // which worker handled the batch
	bytes  int // the lines' text
}

// recorder runs the pipeline over data and records what Take saw.
type recorder struct {
	lines    []gotLine
	sizes    []int // lines per batch, in Take's order
	batchLen []int // bytes of text per batch
	seqs     []int
	last     int // batches with Last set
	workers  atomic.Int32
	progress int
}

// run runs the pipeline over r with jobs workers; slow makes the workers
// of some batches yield and sleep, so that batches finish out of order.
func (rec *recorder) run(ctx Canceler, r io.Reader, jobs int, slow bool) error {
	return Run(ctx, ingest.NewReaderLines("in.jsonl", r), Options[collect]{
		Jobs: jobs,
		Worker: func() func(*Batch[collect]) {
			id := int(rec.workers.Add(1))
			return func(b *Batch[collect]) {
				if slow && b.Seq%3 == 0 {
					time.Sleep(time.Millisecond)
				}
				b.Out.worker = id
				b.Lines(func(i int, l ingest.Line, bad *inputerr.Error) {
					g := gotLine{No: l.No, Indent: l.Indent, Text: string(l.Text), Unended: l.Unended}
					if bad != nil {
						g.Bad = bad.Error()
					}
					b.Out.lines = append(b.Out.lines, g)
					b.Out.bytes += len(l.Text)
				})
				b.Drop()
				if b.Len() != 0 {
					panic("Len after Drop")
				}
			}
		},
		Take: func(b *Batch[collect]) error {
			rec.lines = append(rec.lines, b.Out.lines...)
			rec.sizes = append(rec.sizes, len(b.Out.lines))
			rec.batchLen = append(rec.batchLen, b.Out.bytes)
			rec.seqs = append(rec.seqs, b.Seq)
			if b.Last {
				rec.last++
			}
			return nil
		},
		Stopped:  func(err error) error { return fmt.Errorf("stopped: %w", err) },
		Progress: func() { rec.progress++ },
	})
}

// never is a Canceler that never cancels.
type never struct{}

func (never) Err() error { return nil }

// lines returns n lines "{"i": i}" each ended by end.
func lines(n int, end string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"i": %d}%s`, i, end)
	}
	return b.String()
}

// settled fails unless the number of goroutines comes back to base (the
// pipeline's goroutines have all ended) within a few seconds.
func settled(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left running, %d before the pipeline:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRunOrderAndBatches: every line ingest.Lines reads is handed to Take
// once, in input order, with its number, indent, end and bad-line error,
// for 1, 2 and 8 workers; batches are numbered in order, hold at most
// batchLines lines (4, 16, then linesPerBatch) and close once
// bytesPerBatch is reached; exactly the
// last has Last; Progress follows each batch but the last; Worker is
// called once per worker.
func TestRunOrderAndBatches(t *testing.T) {
	long := strings.Repeat("x", bytesPerBatch+100)
	half := strings.Repeat("y", bytesPerBatch/2+1)
	cases := []struct {
		name    string
		in      string
		batches int // batches taken, the last one's included
	}{
		{"empty", "", 1},
		{"blank lines only", "\n  \n\r\n\t\n", 1},
		{"one line, no final newline", `{"a": 1}`, 1},
		{"no final newline", lines(3, "\n") + `{"a": 1}`, 2},
		{"CRLF", lines(100, "\r\n"), 4},
		{"CRLF, no final newline", lines(5, "\r\n") + "{}", 2},
		{"BOM, indents, blank lines", "\ufeff  {\"a\": 1}\n\n\t{}\r\n   \n{}", 1},
		{"not UTF-8", "{}\n{\"a\": \"\xff\"}\n{}\n", 1},
		{"the first three batches exactly", lines(4+16+64, "\n"), 4},
		{"one more than the first three", lines(4+16+64+1, "\n"), 4},
		{"many batches", lines(10*linesPerBatch+7, "\n"), 12},
		{"lines longer than a batch's bytes", long + "\n" + long + "\n{}\n", 3},
		{"a long line closes a batch", "{}\n{}\n" + long + "\n{}\n", 2},
		// The bound is looked at before each line: a batch that reaches
		// it at its last line closes, and the next one is empty.
		{"half batches", half + "\n" + half + "\n" + half + "\n" + half, 3},
	}
	for _, c := range cases {
		want := wantLines([]byte(c.in))
		for _, jobs := range []int{0, 1, 2, 8} {
			t.Run(fmt.Sprintf("%s/jobs=%d", c.name, jobs), func(t *testing.T) {
				var rec recorder
				if err := rec.run(never{}, strings.NewReader(c.in), jobs, true); err != nil {
					t.Fatal(err)
				}
				if len(rec.lines) != len(want) {
					t.Fatalf("%d lines taken, want %d", len(rec.lines), len(want))
				}
				for i := range want {
					if rec.lines[i] != want[i] {
						g, w := rec.lines[i], want[i]
						g.Text, w.Text = short(g.Text), short(w.Text)
						t.Fatalf("line %d: got %+v, want %+v", i, g, w)
					}
				}
				if len(rec.sizes) != c.batches {
					t.Errorf("%d batches %v, want %d", len(rec.sizes), rec.sizes, c.batches)
				}
				for i, s := range rec.seqs {
					if s != i {
						t.Fatalf("batch %d taken as the %dth", s, i)
					}
				}
				for i, n := range rec.sizes {
					if n > batchLines(i) {
						t.Errorf("batch %d has %d lines, more than %d", i, n, batchLines(i))
					}
					// A batch closes once its text reaches the bound: only
					// the full ones and the last may be short of lines.
					if n < batchLines(i) && i < len(rec.sizes)-1 && rec.batchLen[i] < bytesPerBatch {
						t.Errorf("batch %d: %d lines, %d bytes, closed before either bound", i, n, rec.batchLen[i])
					}
				}
				if rec.last != 1 {
					t.Errorf("%d batches marked Last, want 1", rec.last)
				}
				if rec.progress != len(rec.sizes)-1 {
					t.Errorf("Progress called %d times for %d batches, want one per batch but the last", rec.progress, len(rec.sizes))
				}
				if want := int32(max(jobs, 1)); rec.workers.Load() != want {
					t.Errorf("Worker called %d times, want %d", rec.workers.Load(), want)
				}
			})
		}
	}
}

func short(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%s… (%d bytes)", s[:40], len(s))
	}
	return s
}

// failAfter is a reader that gives data, then err.
type failAfter struct {
	r   io.Reader
	err error
}

func (f *failAfter) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// TestRunErrors: Take's error (as a worker's failure recorded in a batch
// reaches it) is Run's, and no batch is taken after it; a read error is
// Run's after every line read before it was taken, wrapped with the
// input's name; a canceler without Done stops the pipeline after the
// batch during which it turned, with Stopped's error. Each leaves no
// goroutine behind.
func TestRunErrors(t *testing.T) {
	errWorker := errors.New("worker failed")
	errRead := errors.New("disk gone")
	errCancel := errors.New("cancelled")
	in := lines(20*linesPerBatch, "\n")
	cases := []struct {
		name   string
		r      func() io.Reader
		failAt int // the batch whose worker fails (its Take returns the error)
		stopAt int // the batch after whose Take the canceler turns
		want   error
		taken  int // batches taken
		lines  int // lines taken
		prefix string
	}{
		{name: "worker error, first batch", failAt: 0, stopAt: -1, want: errWorker, taken: 1},
		{name: "worker error, later batch", failAt: 7, stopAt: -1, want: errWorker, taken: 8},
		{name: "read error", r: func() io.Reader { return &failAfter{strings.NewReader(lines(3*linesPerBatch+5, "\n")), errRead} },
			failAt: -1, stopAt: -1, want: errRead, taken: 5, lines: 3*linesPerBatch + 5, prefix: "in.jsonl: "},
		{name: "read error at once", r: func() io.Reader { return &failAfter{strings.NewReader(""), errRead} },
			failAt: -1, stopAt: -1, want: errRead, taken: 1, lines: 0, prefix: "in.jsonl: "},
		{name: "read error in an unended line", r: func() io.Reader { return &failAfter{strings.NewReader("{}\n{\"a\": "), errRead} },
			failAt: -1, stopAt: -1, want: errRead, taken: 1, lines: 1, prefix: "in.jsonl: "},
		{name: "canceled", failAt: -1, stopAt: 2, want: errCancel, taken: 3, prefix: "stopped: "},
		{name: "canceled at the first batch", failAt: -1, stopAt: 0, want: errCancel, taken: 1, prefix: "stopped: "},
	}
	for _, c := range cases {
		for _, jobs := range []int{1, 2, 8} {
			t.Run(fmt.Sprintf("%s/jobs=%d", c.name, jobs), func(t *testing.T) {
				base := runtime.NumGoroutine()
				r := io.Reader(strings.NewReader(in))
				if c.r != nil {
					r = c.r()
				}
				ctx := &flagCanceler{err: errCancel}
				taken, nlines := 0, 0
				err := Run(ctx, ingest.NewReaderLines("in.jsonl", r), Options[workerOut]{
					Jobs: jobs,
					Worker: func() func(*Batch[workerOut]) {
						return func(b *Batch[workerOut]) {
							b.Out.lines = b.Len()
							if b.Seq == c.failAt {
								b.Out.err = errWorker
							}
							b.Drop()
						}
					},
					Take: func(b *Batch[workerOut]) error {
						if b.Seq != taken {
							t.Errorf("batch %d taken as the %dth", b.Seq, taken)
						}
						taken++
						nlines += b.Out.lines
						if b.Seq == c.stopAt {
							ctx.stop.Store(true)
						}
						return b.Out.err
					},
					Stopped: func(err error) error { return fmt.Errorf("stopped: %w", err) },
				})
				if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), c.prefix) {
					t.Fatalf("Run: %v, want %q%v", err, c.prefix, c.want)
				}
				if taken != c.taken {
					t.Errorf("%d batches taken, want %d", taken, c.taken)
				}
				if c.r != nil && nlines != c.lines {
					t.Errorf("%d lines taken before the read error, want %d", nlines, c.lines)
				}
				settled(t, base)
			})
		}
	}
}

// workerOut is what a worker made of a batch in TestRunErrors.
type workerOut struct {
	lines int
	err   error // the worker's failure, for Take to return
}

// flagCanceler is a Canceler without Done: Err turns once stop is set.
type flagCanceler struct {
	stop atomic.Bool
	err  error
}

func (c *flagCanceler) Err() error {
	if c.stop.Load() {
		return c.err
	}
	return nil
}

// TestRunCancelStalledRead: a context's Done stops Run while the reading
// is stalled (a pipe with no writer) and while a worker is busy: Run
// returns Stopped's error promptly, and the pipeline's goroutines end
// once the read and the worker come back.
func TestRunCancelStalledRead(t *testing.T) {
	for _, jobs := range []int{1, 2, 8} {
		for _, stall := range []string{"read", "worker"} {
			t.Run(fmt.Sprintf("%s/jobs=%d", stall, jobs), func(t *testing.T) {
				base := runtime.NumGoroutine()
				pr, pw := io.Pipe()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				release := make(chan struct{})
				took := make(chan struct{}, 100)
				done := make(chan error, 1)
				go func() {
					done <- Run(ctx, ingest.NewReaderLines("in.jsonl", pr), Options[int]{
						Jobs: jobs,
						Worker: func() func(*Batch[int]) {
							return func(b *Batch[int]) {
								if stall == "worker" && b.Seq == 1 {
									<-release
								}
							}
						},
						Take: func(b *Batch[int]) error {
							took <- struct{}{}
							return nil
						},
						Stopped: func(err error) error { return fmt.Errorf("stopped: %w", err) },
					})
				}()
				// A first batch (cut by its byte bound), then nothing: the
				// reader waits on the pipe, or the worker of batch 1 waits.
				big := strings.Repeat("z", bytesPerBatch) + "\n"
				if stall == "worker" {
					big += big
				}
				go pw.Write([]byte(big + "{}\n"))
				select {
				case <-took:
				case <-time.After(10 * time.Second):
					t.Fatal("the first batch was never taken")
				}
				cancel()
				select {
				case err := <-done:
					if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "stopped: ") {
						t.Fatalf("Run: %v, want stopped: %v", err, context.Canceled)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("Run did not return after the cancel")
				}
				close(release)
				pw.Close()
				settled(t, base)
			})
		}
	}
}

// TestRunBoundsBatchesOut: while Take holds the first batch, the reader
// makes at most 4×Jobs batches (counting the one being taken: the token
// of a batch goes back as it is taken), and does make that many; once
// Take lets go, the rest follows. Counted, not timed: each worker checks
// that its batch is within the bound of the batches taken so far.
func TestRunBoundsBatchesOut(t *testing.T) {
	for _, jobs := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("jobs=%d", jobs), func(t *testing.T) {
			bound := 4 * jobs
			total := bound + 20
			var taken atomic.Int32 // Takes begun
			var mu sync.Mutex
			maxSeq := -1
			reached := make(chan struct{})
			var overflow atomic.Int32
			err := Run(never{}, ingest.NewReaderLines("in.jsonl", strings.NewReader(lines(linesOfBatches(total), "\n"))), Options[int]{
				Jobs: jobs,
				Worker: func() func(*Batch[int]) {
					return func(b *Batch[int]) {
						// The reader took a token for batches 0..Seq;
						// Take hands one back before each batch it takes.
						if t := int(taken.Load()); b.Seq > t+bound {
							overflow.Store(int32(b.Seq))
						}
						mu.Lock()
						maxSeq = max(maxSeq, b.Seq)
						if b.Seq == bound {
							close(reached)
						}
						mu.Unlock()
					}
				},
				Take: func(b *Batch[int]) error {
					taken.Add(1)
					if b.Seq != 0 {
						return nil
					}
					// Hold the first batch until the reader is as far
					// ahead as it may be: batches 1..bound.
					select {
					case <-reached:
					case <-time.After(10 * time.Second):
						mu.Lock()
						defer mu.Unlock()
						return fmt.Errorf("the reader stopped at batch %d while the first was taken; want %d batches out", maxSeq, bound)
					}
					// Give a reader that ignores the bound the time to
					// show it, then look.
					for range 50 {
						runtime.Gosched()
						time.Sleep(100 * time.Microsecond)
					}
					mu.Lock()
					defer mu.Unlock()
					if maxSeq != bound {
						return fmt.Errorf("while the first batch was taken the reader made batches up to %d, want %d (4×%d jobs)", maxSeq, bound, jobs)
					}
					return nil
				},
				Stopped: func(err error) error { return err },
			})
			if err != nil {
				t.Fatal(err)
			}
			if o := overflow.Load(); o != 0 {
				t.Errorf("batch %d was handled beyond the bound of %d batches out", o, bound)
			}
			if maxSeq != total {
				t.Errorf("last batch %d, want %d", maxSeq, total)
			}
		})
	}
}

// linesOfBatches is the lines that fill batches 0 to n-1.
func linesOfBatches(n int) int {
	total := 0
	for seq := range n {
		total += batchLines(seq)
	}
	return total
}

// TestSpool: NewSpool(nil) keeps what is written in memory and gives it
// all back from the start; a function's spool, or its error, is
// NewSpool's.
func TestSpool(t *testing.T) {
	s, err := NewSpool(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*BufferSpool); !ok {
		t.Fatalf("NewSpool(nil) = %T, want *BufferSpool", s)
	}
	var want bytes.Buffer
	for i := range 1000 {
		fmt.Fprintf(s, "row %d\n", i)
		fmt.Fprintf(&want, "row %d\n", i)
	}
	r, err := s.Contents()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("Contents: %d bytes (%v), want the %d written", len(got), err, want.Len())
	}

	mine := &BufferSpool{}
	if s, err := NewSpool(func() (Spool, error) { return mine, nil }); s != mine || err != nil {
		t.Errorf("NewSpool(f) = %v, %v; want f's spool", s, err)
	}
	errFull := errors.New("no space")
	if _, err := NewSpool(func() (Spool, error) { return nil, errFull }); !errors.Is(err, errFull) {
		t.Errorf("NewSpool(f) error %v, want f's %v", err, errFull)
	}
}
