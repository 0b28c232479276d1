package receipts

// TextScore is the receipt score of one prediction text against one
// reference text, outside any run: what the harness reports for a stage.
type TextScore struct {
	Rouge   Rouge
	Numeric Numeric
}

// ScoreText cleans a raw model output and scores it against a reference
// text with ROUGE-L and numeric-string recall (SPEC B.3 steps 2–5).
func ScoreText(output, reference string) TextScore {
	pred := Tokenize(Clean(output))
	ref := Tokenize(reference)
	return TextScore{Rouge: RougeL(Words(pred), Words(ref)), Numeric: NumericRecall(pred, ref)}
}
