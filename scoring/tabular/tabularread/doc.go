// Package tabularread reads the inputs of a tabular scoring (SPEC A): the
// ground-truth CSV files (ReadGT, one page per file or a page column) and
// the runs file (ReadRuns, one JSON object per model reading of a page),
// through scoring/ingest, so that every error names the file, line and
// column. It scores nothing: package tabular does.
package tabularread
