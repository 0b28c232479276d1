package stats

import (
	"fmt"
	"runtime"

	"github.com/docscore/docscore/scoring/internal/workpool"
)

// Named is a cell as one side of a comparison: the cell, built under its
// unprefixed id, and the model (nil for receipts) and phase that name it.
type Named struct {
	Cell  *Cell
	Model *string
	Phase string
}

// side returns the cell under its id with prefix, and the side that names
// it.
func (n Named) side(prefix string) (*Cell, Side) {
	c := *n.Cell
	c.ID = prefix + n.Cell.ID
	if n.Model == nil {
		return &c, ReceiptsSide(n.Phase, c.ID)
	}
	return &c, TabularSide(*n.Model, n.Phase, c.ID)
}

// Pair is one comparison to make: A (the baseline) against B, each cell's
// id taking its prefix (SPEC F.3: BasePrefix and NewPrefix for two
// reports, SettledPrefix and PreviewPrefix for a draft-rule preview, none
// within one report).
type Pair struct {
	A, B             Named
	PrefixA, PrefixB string
}

// CompareAll makes the comparisons (Compare, each side named) and gathers
// them into a report (NewReport), in pairs' order: the one step from
// cells to a comparison report, shared by "docscore compare" and the
// preview of a tabular scoring. Each comparison draws from streams of its
// own (SPEC F.3), so they run on up to GOMAXPROCS goroutines with the
// same bits as one after another; the error returned is that of the
// first failed comparison in pairs' order. stop, when not nil, is asked
// before each comparison; an error from it ends the work.
func CompareAll(family string, pairs []Pair, o Options, stop func() error) (*Report, error) {
	if o.Stop == nil {
		o.Stop = stop // asked inside each comparison too
	}
	cs := make([]*Comparison, len(pairs))
	err := workpool.Run(len(pairs), runtime.GOMAXPROCS(0), func(k int) error {
		if stop != nil {
			if err := stop(); err != nil {
				return err
			}
		}
		p := pairs[k]
		a, sideA := p.A.side(p.PrefixA)
		b, sideB := p.B.side(p.PrefixB)
		c, err := Compare(a, b, o)
		if err != nil {
			return err
		}
		c.A, c.B = sideA, sideB
		cs[k] = c
		return nil
	})
	if err != nil {
		return nil, err
	}
	return NewReport(family, o, cs)
}

// PreviewPairs pairs each cell scored with the settled rules (A, ids
// prefixed settled:) with the same cell scored with the previewed rows on
// (B, preview:), as a draft-rule preview compares them (SPEC F.3, F.6).
// settled[i] and preview[i] name one cell.
func PreviewPairs(settled, preview []Named) ([]Pair, error) {
	if len(settled) != len(preview) {
		return nil, fmt.Errorf("stats: a preview of %d settled cells has %d preview cells", len(settled), len(preview))
	}
	pairs := make([]Pair, len(settled))
	for i := range settled {
		pairs[i] = Pair{A: settled[i], B: preview[i], PrefixA: SettledPrefix, PrefixB: PreviewPrefix}
	}
	return pairs, nil
}

// Preview is the comparison report of a draft-rule preview (SPEC F.6):
// CompareAll of PreviewPairs.
func Preview(family string, settled, preview []Named, o Options, stop func() error) (*Report, error) {
	pairs, err := PreviewPairs(settled, preview)
	if err != nil {
		return nil, err
	}
	return CompareAll(family, pairs, o, stop)
}
