package receipts

import (
	"fmt"
	"sync/atomic"
)

// WorkLimitError is a scoring whose ROUGE-L would compare more token
// pairs than Options.MaxLCSCells allows, or a drill-down of a page with
// more tokens than DetailLimited's bound: a host's bound on one request's
// work (the HTTP API's), not a property of the run.
type WorkLimitError struct {
	MaxCells int64
	// MaxTokens, when set, is the drill-down's bound on a page's tokens
	// (DetailLimited), and Tokens the page's.
	MaxTokens, Tokens int
	// Page names the page that went over, "PHASE/SAMPLE".
	Page string
}

// Error says what the limit is and what it counts.
func (e *WorkLimitError) Error() string {
	if e.MaxTokens > 0 {
		return fmt.Sprintf("page %s: %d tokens (prediction and reference together), more than the %d this host's drill-down shows", e.Page, e.Tokens, e.MaxTokens)
	}
	return fmt.Sprintf("page %s: the ROUGE-L of the pages compares more than %d token pairs (prediction tokens × reference tokens, summed over the pages), this host's limit", e.Page, e.MaxCells)
}

// cellBudget counts the token pairs the LCS of each page compares against
// a cap (none when max is 0); workers share it.
type cellBudget struct {
	max  int64
	used atomic.Int64
}

// take counts a page's token pairs; it fails once the sum is over the cap.
func (b *cellBudget) take(page string, pred, ref int) error {
	if b == nil || b.max <= 0 {
		return nil
	}
	if b.used.Add(int64(pred)*int64(ref)) > b.max {
		return &WorkLimitError{MaxCells: b.max, Page: page}
	}
	return nil
}
