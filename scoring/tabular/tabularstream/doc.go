// Package tabularstream scores a tabular runs file too large to hold
// (SPEC A): Stream reads an io.Reader, scores on several goroutines with
// package tabular's per-image scoring (ImageScorer) and writes the report
// with package tabularreport's writers as it goes, in memory that does not
// grow with the number of images. Its bytes are those of
// tabular.ScoreRequest's report, for every input.
//
// A streamed scoring (Stream) gives the bytes of ScoreRequest and the
// report writers for any input, in memory that does not grow with the
// number of images:
//
//   - One goroutine reads the runs file line by line (ingest.Lines over an
//     io.Reader) into batches of lines; Jobs workers each parse and score
//     whole batches with a scorer of their own (its memos bounded by
//     maxMatches) and encode each image's row (JSON or CSV) as they go;
//     the calling goroutine takes the batches back in input order. At
//     most 4×Jobs batches are out at once, so a slow batch holds the
//     reading back instead of piling results up.
//   - In input order, the caller runs the checks ReadRuns makes (bad
//     lines, repeated images: tabularread.RunKeys) and that of a page without ground
//     truth, pools the image into its cell (tabularreport.CellPool), its page's
//     interval contribution (tabular.IntervalAcc) and the Markdown's page counts
//     (tabularreport.MDSummary), writes its row and drops it. What is kept is a cell
//     per (model, phase), a sum per page and cell, and about four bytes
//     per image for the repeated-image check.
//   - The JSON lists "cells" (known at the end) before "images", so the
//     image rows go to a Spool (the command line's is a temporary file)
//     and are spliced between the head and the end of the report once the
//     cells are pooled: one scoring pass, the rows written twice. The CSV
//     lists its images first: its rows go straight to the output and the
//     cells follow. The Markdown needs the summaries only; its failed
//     images' rows, rendered as they come, wait in the spool.
//   - Errors are those of the in-memory path, in its order: a bad line
//     (not skipped) or a read error stops the scoring at once; a page
//     without ground truth, or an error of the rule file, is held while
//     the rest of the file is still read and checked (not scored), since
//     a bad line anywhere in the file comes first.
//
// A preview (two scorings compared) is not streamed: hosts score it with
// tabular.ScoreRequest.
package tabularstream
