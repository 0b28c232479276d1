// Package ingest is the one input layer every docscore reader shares: a
// JSON Lines iterator (BOM, CRLF, blank lines, UTF-8 checks, 1-based line
// numbers, skipping bad lines) and the helpers that turn an encoding/json
// error into an input error naming the file, line and column.
//
// It lives at scoring/ingest rather than under scoring/internal because
// the command line's dataset reader (cmd/docscore/internal/pilot) reads
// JSONL too, and Go's internal rule would keep it out. It is part of the
// pure core: no file system, network or host bridge.
package ingest
