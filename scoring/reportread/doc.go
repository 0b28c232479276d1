// Package reportread reads docscore's saved JSON reports back for
// comparison (SPEC F.5, F.6): a tabular, receipts, page-text or tables
// report, after a byte order mark, into its family, the schema of its
// cells and each cell's units, with no ground truth needed. A tabular
// report's image rows are scanned in place (scan.go), in parts on several
// goroutines for a large one; every error names the file, line and column
// with the source line. Package compareapi compares what it reads.
package reportread
