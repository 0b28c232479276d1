package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/atomicfile"
	"github.com/docscore/docscore/cmd/docscore/internal/termline"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
)

// ExitInterrupted is the exit code of a command stopped by Ctrl-C
// (SIGINT): 128 + 2, as a shell reports it.
const ExitInterrupted = 130

// streamTabular scores req with the runs file read from runs as it is
// read (api.StreamTabular) on jobs cores: see streamReport.
func streamTabular(env *Env, req *api.TabularRequest, runs io.Reader, size int64, outPath string, jobs int, check func(*tabularreport.Report) error) (*tabularreport.Report, error) {
	var rep *tabularreport.Report
	err := streamReport(env, runs, size, outPath, "images", func(runs io.Reader, out io.Writer, s streamParts) error {
		var err error
		rep, err = api.StreamTabular(env.Context, req, runs, out, tabularstream.StreamOptions{
			Jobs: jobs, Progress: s.progress, Check: check, Spool: s.spool,
		})
		return err
	})
	return rep, err
}

// streamParts are what streamReport hands a streamed scoring: its
// progress callback (the count of what it took so far) and its spool.
type streamParts struct {
	progress func(n int)
	spool    func() (tabularstream.Spool, error)
}

// streamReport runs a streamed scoring (score: its input read from runs,
// its report written to out) and writes the report to outPath (or
// standard output) as it goes, with progress on standard error counted
// in unit. A file is written under a temporary name and renamed at the
// end: an error or an interruption leaves no file. size is the input's
// size for the time left (0 when unknown).
func streamReport(env *Env, runs io.Reader, size int64, outPath, unit string, score func(runs io.Reader, out io.Writer, s streamParts) error) error {
	counted := &countingReader{r: runs}
	out := &lazyOutput{env: env, path: outPath}
	bw := flushingWriter{bufio.NewWriterSize(out, 1<<20)}
	prog := newProgress(env, size, counted)
	prog.unit = unit
	spoolDir := os.TempDir()
	err := score(counted, bw, streamParts{
		progress: prog.update,
		spool:    func() (tabularstream.Spool, error) { return newFileSpool(env.Context, spoolDir) },
	})
	prog.done(err == nil)
	if err == nil {
		if err = bw.Flush(); err == nil {
			// The last moment Ctrl-C keeps the previous file.
			if err = env.Context.Err(); err == nil {
				err = out.commit()
			}
		}
	}
	if err != nil {
		out.abort()
		return err
	}
	return nil
}

// flushingWriter is the report's buffer, which empties itself before it
// hands a reader on to the destination's ReadFrom (a bufio.Writer first
// fills itself from the reader when it holds some bytes).
type flushingWriter struct{ *bufio.Writer }

func (f flushingWriter) ReadFrom(r io.Reader) (int64, error) {
	if err := f.Flush(); err != nil {
		return 0, err
	}
	return f.Writer.ReadFrom(r)
}

// lazyOutput is the report's destination, opened at its first byte, so
// that an input error found before anything is written reports as the
// in-memory path does: a file (atomicfile.Create), or standard output.
type lazyOutput struct {
	env  *Env
	path string
	f    *atomicfile.File
	err  error
	used bool
}

func (o *lazyOutput) toStdout() bool { return o.path == "" || o.path == "-" }

func (o *lazyOutput) Write(p []byte) (int, error) {
	w, err := o.dest()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(p)
	return n, o.failed(n, err)
}

// ReadFrom writes what r gives, handing r to the destination's ReadFrom
// where it has one: a report's rows copied from the spool file within
// the kernel.
func (o *lazyOutput) ReadFrom(r io.Reader) (int64, error) {
	w, err := o.dest()
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(w, r)
	return n, o.failed(0, err)
}

// dest is where the bytes go, the file created at the first call.
func (o *lazyOutput) dest() (io.Writer, error) {
	if o.err != nil {
		return nil, o.err
	}
	o.used = true
	if o.toStdout() {
		return o.env.Stdout, nil
	}
	if o.f == nil {
		if o.f, o.err = atomicfile.Create(o.path); o.err != nil {
			o.err = outputError("--out", o.path, o.err)
			return nil, o.err
		}
	}
	return o.f, nil
}

// failed keeps a write's error to the file, named after --out.
func (o *lazyOutput) failed(n int, err error) error {
	if err != nil && !o.toStdout() {
		o.err = outputError("--out", o.path, err)
		return o.err
	}
	return err
}

// commit puts the file in place; a report of no bytes still creates it.
func (o *lazyOutput) commit() error {
	if o.toStdout() {
		return nil
	}
	if o.f == nil {
		if _, err := o.Write(nil); err != nil {
			return err
		}
	}
	if err := o.f.Commit(); err != nil {
		return outputError("--out", o.path, err)
	}
	return nil
}

func (o *lazyOutput) abort() {
	if o.f != nil {
		o.f.Abort()
	}
}

// countingReader counts the bytes read, for the progress.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// fileSpool is a tabular.Spool (receipts.Spool: the same interface) in a temporary file, removed once read
// (or at the latest when the process ends its command).
type fileSpool struct {
	ctx context.Context
	f   *os.File
	bw  *bufio.Writer
}

// newFileSpool creates the spool; ctx stops the copy of its contents
// into the report (Ctrl-C during the last phase of a large report).
func newFileSpool(ctx context.Context, dir string) (*fileSpool, error) {
	f, err := os.CreateTemp(dir, "docscore-spool-*")
	if err != nil {
		return nil, fmt.Errorf("a temporary file for the report's rows: %w", err)
	}
	// Removed at once: the open file stays readable, and nothing is left
	// behind however the process ends.
	os.Remove(f.Name())
	return &fileSpool{ctx: ctx, f: f, bw: bufio.NewWriterSize(f, 1<<20)}, nil
}

func (s *fileSpool) Write(p []byte) (int, error) { return s.bw.Write(p) }

func (s *fileSpool) Contents() (io.Reader, error) {
	if err := s.bw.Flush(); err != nil {
		return nil, err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return &closingReader{s.ctx, s.f}, nil
}

// closingReader closes its file at the end, and stops (with the
// context's error) when its context ends.
type closingReader struct {
	ctx context.Context
	f   *os.File
}

// spoolChunk is how much of the spool WriteTo hands on between two looks
// at the context: tens of milliseconds of copying.
var spoolChunk int64 = 64 << 20

// WriteTo copies the rest of the file to w in chunks of spoolChunk, each
// a LimitedReader of the file, so that a destination file's ReadFrom
// copies within the kernel (copy_file_range), and stops between chunks
// when the context ends.
func (c *closingReader) WriteTo(w io.Writer) (int64, error) {
	defer c.f.Close()
	var total int64
	for {
		if err := c.ctx.Err(); err != nil {
			return total, err
		}
		n, err := io.Copy(w, &io.LimitedReader{R: c.f, N: spoolChunk})
		total += n
		if err != nil || n < spoolChunk {
			return total, err
		}
	}
}

func (c *closingReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		c.f.Close()
		return 0, err
	}
	n, err := c.f.Read(p)
	if err == io.EOF {
		c.f.Close()
	}
	return n, err
}

// progress shows a streamed scoring's progress on standard error: a bar
// redrawn in place on a terminal, a log line every few seconds otherwise
// (nothing for a run shorter than that).
type progress struct {
	env      *Env
	size     int64
	read     *countingReader
	start    time.Time
	last     time.Time
	every    time.Duration
	drawn    bool
	images   int
	unit     string // what images counts: "images", "lines"
	lastText string
}

func newProgress(env *Env, size int64, read *countingReader) *progress {
	p := &progress{env: env, size: size, read: read, start: time.Now(), every: 5 * time.Second, unit: "images"}
	if env.IsTerminal {
		p.every = 200 * time.Millisecond
	}
	p.last = p.start
	return p
}

func (p *progress) update(images int) {
	p.images = images
	now := time.Now()
	if now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	text := p.text(now)
	if p.env.IsTerminal {
		fmt.Fprintf(p.env.Stderr, termline.Erase+"%s", text)
		p.drawn = true
		return
	}
	fmt.Fprintln(p.env.Stderr, "docscore: "+text)
}

// text is "12,345 images, 1,234 images/s, 45% read, about 1m20s left",
// with a bar on a terminal.
func (p *progress) text(now time.Time) string {
	el := now.Sub(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(p.images) / el
	}
	s := fmt.Sprintf("%s %s, %s %s/s", thousands(int64(p.images)), p.unit, thousands(int64(rate)), p.unit)
	if p.size > 0 {
		frac := min(float64(p.read.n.Load())/float64(p.size), 1)
		if p.env.IsTerminal {
			s = termline.Bar(frac, 24) + " " + s
		}
		s += fmt.Sprintf(", %.0f%% read", 100*frac)
		if frac > 0.01 {
			left := time.Duration(el*(1-frac)/frac) * time.Second
			s += ", about " + left.Round(time.Second).String() + " left"
		}
	}
	return s
}

// done ends the bar's line.
func (p *progress) done(ok bool) {
	if p.drawn {
		if ok {
			fmt.Fprintf(p.env.Stderr, termline.Erase+"%s\n", p.text(time.Now()))
		} else {
			fmt.Fprint(p.env.Stderr, termline.Erase)
		}
	}
}

// thousands writes n with commas: 1,234,567.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// interrupted is the error of a command the user stopped (Ctrl-C): exit
// 130.
func interrupted(err error) error {
	if errors.Is(err, context.Canceled) {
		return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("interrupted: no report written (%w)", err)}
	}
	return err
}
