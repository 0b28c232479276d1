package sample

import "embed"

// Tables holds the tables sample under the directory "tables": three
// PubTabNet ground-truth tables in one HTML file (gt.html), PubTabNet's
// own sample predictions of them (model-a.html), the ground truth edited
// by hand (model-b.html: a dropped row, a merged cell), and both as a
// runs file (runs.jsonl).
//
//go:embed tables
var Tables embed.FS
