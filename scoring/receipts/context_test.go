package receipts_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/docscore/docscore/scoring/receipts"
)

// cancelAfterPages is a context cancelled after its Err has been asked a
// number of times: ScoreContext asks once before each page.
type cancelAfterPages struct {
	context.Context
	asked *int
	pages int
}

func (c cancelAfterPages) Err() error {
	*c.asked++
	if *c.asked > c.pages {
		return context.Canceled
	}
	return nil
}

// TestScoreContext: a cancelled context stops the scoring between pages;
// one never cancelled gives Score's report.
func TestScoreContext(t *testing.T) {
	run := runOf(t, headerLine([]string{"c1", "c4"}, []string{"a", "b"}), ok("c1", "a", "TOTAL 10"), ok("c1", "b", "CASH"), ok("c4", "a", "z"), ok("c4", "b", "y"))
	want, err := receipts.Score(abRefs, run, receipts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pages := range []int{0, 1, 3} {
		asked := 0
		_, err := receipts.ScoreContext(cancelAfterPages{context.Background(), &asked, pages}, abRefs, run, receipts.Options{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d pages: err = %v, want context.Canceled", pages, err)
		}
		if asked != pages+1 {
			t.Errorf("cancelled after %d pages: the context was asked %d times, want once a page until it was done", pages, asked)
		}
	}
	got, err := receipts.ScoreContext(context.Background(), abRefs, run, receipts.Options{})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ScoreContext = %v: differs from Score", err)
	}
}
