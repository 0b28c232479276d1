package receipts

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/runfile"
)

// cancelAfter is a Canceler that turns done after n looks.
type cancelAfter struct{ n int }

func (c *cancelAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestLCSStopsWhenCancelled checks that the LCS of one long page looks at
// its context as it goes, not only between pages: cancelled at its first
// look, it stops after 4,096 reference positions of 100,000 (a page of
// 940,000 tokens kept 13 s of CPU after its client had left).
func TestLCSStopsWhenCancelled(t *testing.T) {
	toks := strings.Fields(strings.Repeat("a b c d ", 25_000))
	p, r, alphabet := tokenIDs(toks, toks)
	if got := lcsBits(nil, p, r, alphabet); got != len(toks) {
		t.Fatalf("LCS of a page with itself: %d, want %d", got, len(toks))
	}
	ctx := &cancelAfter{n: 0}
	if got := lcsBits(ctx, p, r, alphabet); got > 64*4*16 {
		t.Fatalf("cancelled LCS went on to %d positions", got)
	}
	if ctx.n != -1 {
		t.Errorf("the context was looked at %d times after it was done", -1-ctx.n)
	}
}

// longRun is a run of one page whose output is text, planned as c1/s0.
func longRun(text string) string {
	return `{"type": "run", "run_id": "long", "planned": {"phases": ["c1"], "sample_ids": ["s0"]}}` + "\n" +
		`{"type": "request", "phase": "c1", "sample_id": "s0", "status": "ok", "finish_reason": "stop", "output": "` + text + `"}` + "\n"
}

// TestLCSCellsAreCapped checks Options.MaxLCSCells in both scorers and
// the drill-down's bound on tokens: over them, a *WorkLimitError naming
// the page, before the LCS is computed.
func TestLCSCellsAreCapped(t *testing.T) {
	text := strings.Repeat("w ", 1000)
	refs := receiptsread.References{{SampleID: "s0", Text: text, Source: "refs.jsonl:1"}}
	run, err := runfile.Read(strings.NewReader(longRun(text)), "run.jsonl", runfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, err error, want string) {
		t.Helper()
		var we *WorkLimitError
		if !errors.As(err, &we) || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want a WorkLimitError saying %q", err, want)
		}
	}
	for _, c := range []struct {
		max int64
		ok  bool
	}{{1_000_000, true}, {999_999, false}, {0, true}} {
		_, err := Score(refs, run, Options{MaxLCSCells: c.max})
		if c.ok {
			if err != nil {
				t.Fatalf("cap %d: %v", c.max, err)
			}
			continue
		}
		check(t, err, "page c1/s0: the ROUGE-L of the pages compares more than 999999 token pairs")
		_, _, err = Stream(nil, refs, "run.jsonl", strings.NewReader(longRun(text)), &strings.Builder{}, Options{MaxLCSCells: c.max}, StreamOptions{})
		check(t, err, "more than 999999 token pairs")
	}
	if _, err := DetailLimited(nil, 2000, refs, run, "c1", "s0"); err != nil {
		t.Fatal(err)
	}
	_, err = DetailLimited(nil, 1999, refs, run, "c1", "s0")
	check(t, err, "page c1/s0: 2000 tokens (prediction and reference together), more than the 1999")
}
