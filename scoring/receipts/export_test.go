package receipts

// DetailText is the segments of a PageDetail for a prediction (already
// cleaned) and a reference, for the tests of the alignment.
func DetailText(pred, ref string) *PageDetail {
	d := &PageDetail{}
	d.setTexts(Fold(pred), Fold(ref))
	return d
}

// SetUnitBudget sets the most units one pass of a streamed scoring's
// intervals holds, until the returned function restores it.
func SetUnitBudget(n int) (restore func()) {
	old := unitBudget
	unitBudget = n
	return func() { unitBudget = old }
}
