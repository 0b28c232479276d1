// Package sample embeds the bundled sample data, so that
// "docscore score tabular --sample", "make demo" and the site's "Load sample"
// work on a fresh machine with no files given. The data is synthetic (see
// tabular/README.md and receipts/README.md).
package sample
