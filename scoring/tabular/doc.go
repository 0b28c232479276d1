// Package tabular scores per-record tabular extraction (SPEC A): a model
// reads a page and returns one record per person; records are paired with
// ground-truth rows by name (a similarity gate and a global greedy
// pairing), identification is scored by precision, recall and F1, name
// reading by character error rate, and every other column by per-field
// accuracy on the matched pairs. Scores pool per (model, phase) cell.
//
// The package is pure: readers take bytes, Score takes values, and the
// report encoders write to an io.Writer, so the command line, the browser
// and the Worker produce the same bytes from the same input.
//
// Stream is a second driver over the same per-image scoring and the same
// writers, for runs files too large to hold: it reads an io.Reader, scores
// on several goroutines and writes the report as it goes, in memory that
// does not grow with the number of images (its design is in stream.go).
package tabular
