package sample

import "embed"

// Receipts holds the receipt OCR sample under the directory "receipts":
// synthetic CORD-style references (refs/*.json and refs.jsonl), a complete
// pilot run file (run.jsonl), an interrupted one with a missing and a
// duplicated pair (run_incomplete.jsonl), and one real CORD-v2 test receipt
// image with a hand-typed reference (real/).
//
//go:embed receipts
var Receipts embed.FS
