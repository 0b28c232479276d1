// Package tabular scores per-record tabular extraction (SPEC A): a model
// reads a page and returns one record per person; records are paired with
// ground-truth rows by name (a similarity gate and a global greedy
// pairing), identification is scored by precision, recall and F1, name
// reading by character error rate, and every other column by per-field
// accuracy on the matched pairs. Scores pool per (model, phase) cell.
//
// The family is four packages along the data flow:
//
//   - tabularread reads the inputs: ground-truth CSV and the runs file
//     (JSONL), into pages, images and records.
//   - tabular (this package) loads a request (Load), scores it (Score,
//     ScoreRequest), previews rule rows, draws intervals, and drills
//     into one image (Detail).
//   - tabularreport holds the report and writes it as JSON, CSV or
//     Markdown.
//   - tabularstream scores runs files too large to hold, with the same
//     per-image scoring (ImageScorer) and the same writers.
//
// This package keeps the scoring and what reads its private state (the
// preview's changes, the intervals' accumulator, the drill-down into one
// image), about 2,250 lines.
//
// The packages are pure: readers take bytes, Score takes values, and the
// report encoders write to an io.Writer, so the command line, the browser
// and the Worker produce the same bytes from the same input.
package tabular
