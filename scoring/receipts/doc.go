// Package receipts scores receipt OCR against CORD-v2 references (SPEC
// section B): what a model read from a receipt image is compared with the
// words of the receipt's CORD annotation.
//
// The path from input bytes to report bytes is pure and host-independent:
//
//	refs, _ := receiptsread.ParseReferences("refs.jsonl", refBytes, receiptsread.ParseOptions{})
//	run, _ := runfile.Read(bytes.NewReader(runBytes), "run.jsonl", runfile.ReadOptions{})
//	rep, _ := receipts.Score(refs, run, receipts.Options{})
//	rep.WriteJSON(w) // or WriteCSV, WritePhasesCSV, WriteMarkdown
//
// Scoring a page: the raw output of a request whose status is ok and whose
// finish reason is stop is cleaned of layout markup ([Clean]); every other
// request is an empty prediction that stays in the denominators. Both
// sides are case-folded and split into numeric strings and words
// ([Tokenize]). ROUGE-L ([RougeL]) compares the token sequences through
// their longest common subsequence ([LCS], bit-parallel; [LCSDP] is the
// plain oracle); numeric-string recall ([NumericRecall]) compares the
// numbers as exact strings. Pages are aggregated per phase; c1 is the
// primary observation; warmups are never scored; a run whose planned
// (phase, sample) pairs are not each recorded exactly once is refused
// unless Options.AllowIncomplete is set ([IncompleteError]).
//
// The family is three packages along the data flow: receiptsread reads
// the references (CORD-v2 annotations, or JSONL), this package scores
// (Score in memory; Stream for a run too large to hold, with the same
// per-page scoring), and receiptsreport holds the report and writes it as
// JSON, CSV or Markdown. Stream stays here: it drives the scoring's
// private accumulators (per phase, per unit of the intervals) page by
// page, which is why this package is near 3,000 lines.
//
// When predictions are JSON parses in Donut's gt_parse shape, the
// CORD-standard structured metrics of package donut (TED accuracy and
// field F1) are added per page and per phase.
package receipts
