// Package sample embeds the bundled sample data, so that
// "docscore score tabular --sample", "make demo" and the site's "Load sample"
// work on a fresh machine with no files given. The tabular data is synthetic
// (tabular/README.md), the receipts mostly so (receipts/README.md); the
// tables are PubTabNet's, and the page-text sample is two real scans with
// their ground truth and Tesseract's output (text/README.md).
package sample
