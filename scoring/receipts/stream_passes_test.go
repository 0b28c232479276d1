package receipts_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/docscore/docscore/scoring/internal/linepipe"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
)

// countedSpools is a StreamOptions.Spool that counts the spools it gives.
type countedSpools struct{ n int }

func (c *countedSpools) spool() (receipts.Spool, error) {
	c.n++
	return &linepipe.BufferSpool{}, nil
}

// TestStreamIntervalsInPasses: the intervals of a streamed scoring read
// their units back from the page spool a group of phases a pass; with a
// budget of one unit every phase is a pass of its own, and the bytes are
// the in-memory path's. A duplicated pair's first line is found in the
// page spool too.
func TestStreamIntervalsInPasses(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	runs := map[string][]byte{"generated": generated(t, refs, 240, 100), "duplicates": withDuplicates(t, refs)}
	opts := receipts.Options{AllowIncomplete: true, Bootstrap: 100}
	for _, budget := range []int{1, 50, 1 << 16} {
		restore := receipts.SetUnitBudget(budget)
		for name, run := range runs {
			what := fmt.Sprintf("%s, budget %d", name, budget)
			sameAsInMemory(t, what, refs, run, opts, true)

			// The spools: the rows', the pages', a copy of the pages
			// when a duplicate's first line was looked up, and one a
			// pass but the last.
			c := &countedSpools{}
			rep, _, err := receipts.Stream(nil, refs, "run.jsonl", bytes.NewReader(run), &bytes.Buffer{}, opts,
				receipts.StreamOptions{Jobs: 2, SkipBadLines: true, Spool: c.spool})
			if err != nil {
				t.Fatal(err)
			}
			passes, n := 0, 0
			for i, p := range rep.Phases {
				if i == 0 || n+p.Pages > budget {
					passes, n = passes+1, 0
				}
				n += p.Pages
			}
			want := 2 + passes - 1
			if len(rep.Duplicated) > 0 {
				want++
			}
			if budget == 1 && passes != len(rep.Phases) {
				t.Errorf("%s: %d passes for %d phases", what, passes, len(rep.Phases))
			}
			if c.n != want {
				t.Errorf("%s: %d spools, want %d (%d passes, %d duplicated)", what, c.n, want, passes, len(rep.Duplicated))
			}
		}
		restore()
	}
}
