package sample

import "embed"

// Text holds the page-text sample under the directory "text": two real
// scans' ground truth from dinglehopper's test data (gt/: a PAGE-XML file
// and a plain-text file) and what Tesseract read from the scans in two
// page-segmentation modes, recorded by "docscore pilot run" (runs.jsonl).
// The scans themselves, the pilot configurations and run files stay in
// the repository (see text/README.md); they are not embedded.
//
//go:embed text/gt text/runs.jsonl
var Text embed.FS
