package tabular

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// Limits bounds the work of one scoring, for hosts that serve other
// people's requests (the HTTP API, the Worker). The zero value bounds
// nothing: the command line is the place for big jobs.
//
// Work is counted in name pairs compared: a model record's name against a
// ground-truth row's name, each distinct name once per page and rule set
// (a preview scores twice, so counts twice). It is most of a scoring's
// time, and what grows quadratically with a page's rows. A comparison of
// long texts counts more, one pair more for every cellsPerPair character
// cells its dynamic programme fills (the lengths multiplied): a name
// against a name, over all its readings, and a text field of a matched
// pair (its character accuracy). Names and values of up to 32 characters
// cost nothing extra, so for real registers the count is the number of
// pairs; a 30,000-character field counts 880,000 pairs, and is refused
// before it is compared when that is over the cap.
type Limits struct {
	// MaxPairs caps the name pairs one scoring compares; past it the
	// scoring stops with a *WorkLimitError. Zero or less: no cap.
	MaxPairs int64
	// Work, when set, has the pairs compared added to it as the scoring
	// goes (every checkInterval pairs, and the rest at the end), so that
	// a caller or a test can watch the work grow and stop.
	Work *atomic.Int64
}

// checkInterval is how many name pairs are compared between two looks at
// the context and the cap: about 0.1–0.3 ms of the worst case (names that
// all clear the prefilter), a negligible cost per pair.
const checkInterval = 1024

// cellsPerPair is the number of character cells a long comparison fills
// per pair it counts: about what one comparison of two 32-character names
// costs.
const cellsPerPair = 1024

// WorkLimitError refuses a scoring that compares more name pairs than
// Limits.MaxPairs. Hosts say where such a job can run (the command line
// has no cap).
type WorkLimitError struct {
	MaxPairs int64
}

// Error says what the limit is and what it counts.
func (e *WorkLimitError) Error() string {
	return fmt.Sprintf("the scoring compares more than %d name pairs (ground-truth rows × distinct model names, per page), this host's limit", e.MaxPairs)
}

// Canceler is what scoring reads of its caller's context: Err turns
// non-nil once the caller has gone away. A context.Context is one (its
// deadline is read too, when it has one); nil never cancels. Scoring does
// not take a context.Context itself: that interface links the time
// package's formatting into the page's core for nothing.
type Canceler interface {
	Err() error
}

type never struct{}

func (never) Err() error { return nil }

// ErrDeadline is the error a scoring stopped at its context's deadline
// wraps when the deadline's timer has not fired yet (under WebAssembly it
// waits for the scoring goroutine to yield): context.DeadlineExceeded.
var ErrDeadline = context.DeadlineExceeded

// budget is the work of one scoring, shared by its scorers (settled and
// preview): the pairs compared, the context and the cap.
type budget struct {
	ctx   Canceler
	end   time.Time // the context's deadline; zero without one
	lim   Limits
	total int64 // pairs compared, up to the last checkpoint
	tick  int64 // pairs left until the next checkpoint
	err   error // why the scoring stopped; nil while it runs
}

func newBudget(ctx Canceler, lim Limits) *budget {
	if ctx == nil {
		ctx = never{}
	}
	b := &budget{ctx: ctx, lim: lim}
	if d, ok := ctx.(interface{ Deadline() (time.Time, bool) }); ok {
		b.end, _ = d.Deadline()
	}
	b.tick = b.next()
	return b
}

// next is the number of pairs to compare before the next checkpoint: the
// interval, or fewer when the cap is nearer, so that comparing pair
// MaxPairs+1 is where the cap is found.
func (b *budget) next() int64 {
	n := int64(checkInterval)
	if b.lim.MaxPairs > 0 {
		n = min(n, b.lim.MaxPairs-b.total+1)
	}
	return n
}

// spend is called before a comparison that counts n pairs; it reports
// whether the scoring may go on. Its fast path is a subtraction and a
// test.
func (b *budget) spend(n int64) bool {
	b.tick -= n
	if b.tick > 0 {
		return true
	}
	return b.checkpoint()
}

// checkpoint records the pairs compared since the last one, publishes
// them to Limits.Work, and looks at the context and the cap.
func (b *budget) checkpoint() bool {
	done := b.next() - b.tick
	b.total += done
	if b.lim.Work != nil {
		b.lim.Work.Add(done)
	}
	switch {
	case b.lim.MaxPairs > 0 && b.total > b.lim.MaxPairs:
		b.err = &WorkLimitError{MaxPairs: b.lim.MaxPairs}
	case b.ctx.Err() != nil:
		b.err = b.stopped()
	case !b.end.IsZero() && !time.Now().Before(b.end):
		// The deadline has passed but its timer has not fired: under
		// WebAssembly the timer waits for this goroutine to yield.
		b.err = fmt.Errorf("tabular: scoring stopped: %w", ErrDeadline)
	}
	b.tick = b.next()
	return b.err == nil
}

// alive reports whether the scoring may go on, looking at the context:
// the check between images, which holds no pair to count.
func (b *budget) alive() bool {
	if b.err == nil && b.ctx.Err() != nil {
		b.err = b.stopped()
	}
	return b.err == nil
}

// stopped is the error of a scoring whose context is done.
func (b *budget) stopped() error {
	return fmt.Errorf("tabular: scoring stopped: %w", b.ctx.Err())
}

// flush publishes the pairs compared since the last checkpoint.
func (b *budget) flush() {
	if b.err != nil {
		return
	}
	done := b.next() - b.tick
	b.total += done
	if b.lim.Work != nil {
		b.lim.Work.Add(done)
	}
	b.tick = b.next()
}
