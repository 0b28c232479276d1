package tabular_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// anagramRequest is n ground-truth rows against n records whose names are
// anagrams: n×n pairs compared the slow way.
func anagramRequest(n int) tabular.Request {
	gt, runs := tabulartest.Anagrams(n)
	return tabular.Request{GT: []tabular.File{gt}, Runs: runs}
}

// TestScoreContextLimits: the work counter counts exactly the pairs
// compared, the cap refuses the first pair over it with a
// *WorkLimitError, and a scoring within limits gives Score's bytes.
func TestScoreContextLimits(t *testing.T) {
	const n = 300 // 90,000 pairs
	req := anagramRequest(n)
	plain, err := tabular.ScoreRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := plain.JSON()
	tests := []struct {
		name     string
		maxPairs int64
		wantErr  bool
		maxWork  int64 // the counter's bound
	}{
		{"no cap", 0, false, n * n},
		{"cap exactly the work", n * n, false, n * n},
		{"cap far above", 1 << 40, false, n * n},
		{"cap one under", n*n - 1, true, n * n},
		{"small cap", 1000, true, 1001},
		{"cap of one", 1, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var work atomic.Int64
			rep, err := tabular.ScoreRequestContext(context.Background(), req, tabular.Limits{MaxPairs: tt.maxPairs, Work: &work})
			if tt.wantErr {
				var wl *tabular.WorkLimitError
				if !errors.As(err, &wl) || wl.MaxPairs != tt.maxPairs {
					t.Fatalf("err = %v, want a *WorkLimitError of %d", err, tt.maxPairs)
				}
				if got := work.Load(); got != tt.maxWork {
					t.Errorf("work = %d, want %d (the cap and the pair that broke it)", got, tt.maxWork)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := work.Load(); got != tt.maxWork {
				t.Errorf("work = %d, want %d", got, tt.maxWork)
			}
			if got, _ := rep.JSON(); !bytes.Equal(got, want) {
				t.Error("the report within limits differs from ScoreRequest's")
			}
		})
	}
}

// cancelAfter is a context that is cancelled once the work counter
// reaches a number of pairs: cancellation at a known point of the work,
// without timing.
type cancelAfter struct {
	context.Context
	work  *atomic.Int64
	after int64
}

func (c cancelAfter) Err() error {
	if c.work.Load() >= c.after {
		return context.Canceled
	}
	return nil
}

func (c cancelAfter) Done() <-chan struct{} { return nil }

func (c cancelAfter) Deadline() (time.Time, bool) { return time.Time{}, false }

// pastDeadline is a context whose deadline has passed but whose Err is
// still nil: what a WebAssembly scoring sees, its deadline timer waiting
// for the scoring goroutine to yield.
type pastDeadline struct{ context.Context }

func (pastDeadline) Deadline() (time.Time, bool) { return time.Unix(1, 0), true }

// TestScoreContextStops: a cancelled context, or a deadline passed, stops
// the pairing within two check intervals of pairs, however many pairs are
// left.
func TestScoreContextStops(t *testing.T) {
	req := anagramRequest(1000) // 10⁶ pairs
	tests := []struct {
		name  string
		ctx   func(work *atomic.Int64) context.Context
		after int64 // pairs compared before the context ends
		want  error
	}{
		{"cancelled before", func(w *atomic.Int64) context.Context {
			return cancelAfter{Context: context.Background(), work: w, after: 0}
		}, 0, context.Canceled},
		{"cancelled early", func(w *atomic.Int64) context.Context {
			return cancelAfter{Context: context.Background(), work: w, after: 5000}
		}, 5000, context.Canceled},
		{"cancelled midway", func(w *atomic.Int64) context.Context {
			return cancelAfter{Context: context.Background(), work: w, after: 500_000}
		}, 500_000, context.Canceled},
		{"deadline passed, timer not fired", func(w *atomic.Int64) context.Context {
			return pastDeadline{context.Background()}
		}, 0, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var work atomic.Int64
			_, err := tabular.ScoreRequestContext(tt.ctx(&work), req, tabular.Limits{Work: &work})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if got := work.Load(); got > tt.after+2*1024 {
				t.Errorf("work = %d pairs, stopped at %d: the scoring went on", got, tt.after)
			}
		})
	}
}

// longRequest is a one-page request whose names (nameLen characters) or
// place_of_stay values (fieldLen characters) are long: few pairs, each
// costly to compare.
func longRequest(rows, nameLen, fieldLen int) tabular.Request {
	text := func(seed string, n int) string {
		return strings.Repeat(seed, n/len(seed)+1)[:n]
	}
	var gt, runs strings.Builder
	gt.WriteString("name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n")
	runs.WriteString(`{"model": "m", "phase": "G", "run": 1, "page": "1", "records": [`)
	for i := range rows {
		name := fmt.Sprintf("Karl Muller %d ", i) + text("abcdefghij", nameLen)
		fmt.Fprintf(&gt, "%s,,,,%s,,,,\n", name, text("abcdefghij", fieldLen))
		if i > 0 {
			runs.WriteString(", ")
		}
		fmt.Fprintf(&runs, `{"name": %q, "place_of_stay": %q}`, name, text("jihgfedcba", fieldLen))
	}
	runs.WriteString("]}\n")
	return tabular.Request{GT: []tabular.File{{Name: "gt_page_1.csv", Data: []byte(gt.String())}},
		Runs: tabular.File{Name: "runs.jsonl", Data: []byte(runs.String())}}
}

// TestLongTextsCount: a comparison of long texts counts one pair more per
// 1024 character cells, so that a few long names or one long field value
// meet the cap before they are compared (a 30,000-character field took
// 9 s to compare and counted as one pair).
func TestLongTextsCount(t *testing.T) {
	tests := []struct {
		name     string
		req      tabular.Request
		maxPairs int64
		wantErr  bool
		minWork  int64
	}{
		{"short texts count one a pair", longRequest(3, 0, 20), 0, false, 9},
		{"a 30,000-character field", longRequest(1, 0, 30_000), 100_000, true, 30_000 * 30_000 / 1024},
		{"5,000-character names", longRequest(10, 5_000, 0), 1_000_000, true, 1_000_000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var work atomic.Int64
			_, err := tabular.ScoreRequestContext(context.Background(), tt.req, tabular.Limits{MaxPairs: tt.maxPairs, Work: &work})
			var wl *tabular.WorkLimitError
			if tt.wantErr != errors.As(err, &wl) {
				t.Fatalf("err = %v, want a *WorkLimitError: %v", err, tt.wantErr)
			}
			if !tt.wantErr && err != nil {
				t.Fatal(err)
			}
			if got := work.Load(); got < tt.minWork || !tt.wantErr && got != tt.minWork {
				t.Errorf("work = %d, want %d", got, tt.minWork)
			}
		})
	}
}
