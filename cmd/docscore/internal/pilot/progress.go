package pilot

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/termline"
	"github.com/docscore/docscore/scoring/runfile"
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

// NewProgress returns a progress line per phase on a terminal, plain log
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

// barProgress draws a progress line per phase on a terminal, redrawn at
// most every barEvery: the phase and its concurrency, a bar, done and
// total, failures, requests per second and the time left; the phase's
// end leaves it drawn, with the time the phase took.
type barProgress struct {
	mu    sync.Mutex
	w     io.Writer
	c     *phaseCounts
	drawn time.Time // when the line was last drawn
}

// barEvery is the least time between two draws of the line.
const barEvery = 100 * time.Millisecond

// line is the progress line of the phase.
func (p *barProgress) line() string {
	c := p.c
	frac := 1.0
	if c.total > 0 {
		frac = min(float64(c.done)/float64(c.total), 1)
	}
	return fmt.Sprintf("%-7s c=%d %s %d/%d · %d failed · %.2f req/s", c.name, c.concurrency, termline.Bar(frac, 30), c.done, c.total, c.failed, c.rate())
}

func (p *barProgress) draw(now time.Time) {
	p.drawn = now
	fmt.Fprint(p.w, termline.Erase+p.line()+" · eta "+p.c.eta())
}

func (p *barProgress) PhaseStart(phase string, total, recorded, conc int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.c = &phaseCounts{name: phase, total: total, concurrency: conc, started: time.Now()}
	if recorded > 0 {
		fmt.Fprintf(p.w, "pilot: phase %s: %d already recorded, %d to do\n", phase, recorded, total)
	}
	p.draw(p.c.started)
}

func (p *barProgress) Recorded(rec *runfile.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.c == nil {
		return
	}
	p.c.add(rec)
	if now := time.Now(); now.Sub(p.drawn) >= barEvery {
		p.draw(now)
	}
}

func (p *barProgress) PhaseEnd(phase string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.c == nil {
		return
	}
	fmt.Fprint(p.w, termline.Erase+p.line()+" · "+time.Since(p.c.started).Round(time.Millisecond).String()+"\n")
	p.c = nil
}

func (p *barProgress) Note(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.c != nil {
		fmt.Fprint(p.w, termline.Erase)
	}
	fmt.Fprintf(p.w, "pilot: "+format+"\n", args...)
	if p.c != nil {
		p.draw(time.Now())
	}
}

// plural writes n and the word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return itoa(n) + " " + word + "s"
}
