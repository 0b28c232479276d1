package pilot

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/docscore/docscore/scoring/runfile"
	"github.com/schollz/progressbar/v3"
)

// Progress receives the run's events. Its methods may be called from
// several goroutines at once.
type Progress interface {
	// PhaseStart opens a phase of total requests still to do (recorded
	// ones skipped) at the given concurrency.
	PhaseStart(phase string, total, recorded, concurrency int)
	// Recorded reports a request whose record is durable.
	Recorded(rec *runfile.Request)
	// PhaseEnd closes the phase.
	PhaseEnd(phase string)
	// Note prints a message for the user.
	Note(format string, args ...any)
}

// NewProgress returns a progress bar per phase on a terminal, plain log
// lines (one per recorded request) otherwise, and only notes when quiet.
func NewProgress(w io.Writer, terminal, quiet bool) Progress {
	switch {
	case quiet:
		return &quietProgress{w: w}
	case terminal:
		return &barProgress{w: w}
	}
	return &lineProgress{w: w}
}

// phaseCounts tracks one phase for the reporters.
type phaseCounts struct {
	name                string
	total, done, failed int
	empty, truncated    int
	concurrency         int
	started             time.Time
}

func (c *phaseCounts) add(rec *runfile.Request) {
	c.done++
	if rec.Status != runfile.StatusOK {
		c.failed++
	}
	if rec.EmptyOutput {
		c.empty++
	}
	if rec.Truncated {
		c.truncated++
	}
}

func (c *phaseCounts) rate() float64 {
	el := time.Since(c.started).Seconds()
	if el <= 0 {
		return 0
	}
	return float64(c.done) / el
}

func (c *phaseCounts) eta() string {
	r := c.rate()
	if r <= 0 || c.done >= c.total {
		return "0s"
	}
	return (time.Duration(float64(c.total-c.done) / r * float64(time.Second))).Round(time.Second).String()
}

// quietProgress prints notes only.
type quietProgress struct {
	mu sync.Mutex
	w  io.Writer
}

func (p *quietProgress) PhaseStart(string, int, int, int) {}
func (p *quietProgress) Recorded(*runfile.Request)        {}
func (p *quietProgress) PhaseEnd(string)                  {}
func (p *quietProgress) Note(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "pilot: "+format+"\n", args...)
}

// lineProgress prints one line per event, for logs.
type lineProgress struct {
	mu sync.Mutex
	w  io.Writer
	c  *phaseCounts
}

func (p *lineProgress) PhaseStart(phase string, total, recorded, conc int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.c = &phaseCounts{name: phase, total: total, concurrency: conc, started: time.Now()}
	fmt.Fprintf(p.w, "pilot: phase %s: %s at concurrency %d (%d already recorded)\n", phase, plural(total, "request"), conc, recorded)
}

func (p *lineProgress) Recorded(rec *runfile.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.c == nil {
		return
	}
	p.c.add(rec)
	what := string(rec.Status)
	if rec.FinishReason != nil {
		what += " " + *rec.FinishReason
	}
	if rec.EmptyOutput {
		what += " (empty output)"
	}
	fmt.Fprintf(p.w, "pilot: %s %d/%d %s %s %.2fs · %d failed · %.2f req/s · eta %s\n",
		rec.Phase, p.c.done, p.c.total, rec.SampleID, what, rec.LatencyS, p.c.failed, p.c.rate(), p.c.eta())
}

func (p *lineProgress) PhaseEnd(phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.c == nil {
		return
	}
	fmt.Fprintf(p.w, "pilot: phase %s: %d/%d done in %s, %d failed, %d empty, %d truncated, %.2f req/s\n",
		phase, p.c.done, p.c.total, time.Since(p.c.started).Round(time.Millisecond), p.c.failed, p.c.empty, p.c.truncated, p.c.rate())
	p.c = nil
}

func (p *lineProgress) Note(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "pilot: "+format+"\n", args...)
}

// barProgress draws a progress bar per phase (schollz/progressbar): done
// and total, failures, requests per second and the time left.
type barProgress struct {
	mu  sync.Mutex
	w   io.Writer
	c   *phaseCounts
	bar *progressbar.ProgressBar
}

func (p *barProgress) describe() string {
	return fmt.Sprintf("%-7s c=%d · %d failed", p.c.name, p.c.concurrency, p.c.failed)
}

func (p *barProgress) PhaseStart(phase string, total, recorded, conc int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.c = &phaseCounts{name: phase, total: total, concurrency: conc, started: time.Now()}
	if recorded > 0 {
		fmt.Fprintf(p.w, "pilot: phase %s: %d already recorded, %d to do\n", phase, recorded, total)
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(p.describe()),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("req"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
	)
}

func (p *barProgress) Recorded(rec *runfile.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.c == nil {
		return
	}
	failed := p.c.failed
	p.c.add(rec)
	if p.c.failed != failed {
		p.bar.Describe(p.describe())
	}
	_ = p.bar.Add(1)
}

func (p *barProgress) PhaseEnd(phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.c == nil {
		return
	}
	if !p.bar.IsFinished() {
		_ = p.bar.Exit()
		fmt.Fprintln(p.w)
	}
	p.c, p.bar = nil, nil
}

func (p *barProgress) Note(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	fmt.Fprintf(p.w, "pilot: "+format+"\n", args...)
	if p.bar != nil {
		_ = p.bar.RenderBlank()
	}
}

// plural writes n and the word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return itoa(n) + " " + word + "s"
}
