package sample

import "embed"

// Tabular holds the tabular sample: tabular/gt/gt_page_NN.csv,
// tabular/runs.jsonl and tabular/EQUIVALENCES.md (SPEC A).
//
//go:embed tabular
var Tabular embed.FS
