//go:build js && wasm

// Command tables is the table scorer of the static site (tables.wasm),
// loaded by the Web Worker only when table files are scored. It exposes
//
//	globalThis.docscoreTables.call(method, requestJSON[, texts]) → Promise<answer> (an envelope, or {envelope, raw} for a report: internal/host)
//
// with the operations of scoring/api/tablesapi (scoreTables,
// tableDetail), and calls globalThis.docscoreTablesReady(version) when it
// is ready.
package main

import (
	"github.com/docscore/docscore/scoring/api/tablesapi"
	"github.com/docscore/docscore/wasm/bridge"
	"github.com/docscore/docscore/wasm/site/internal/host"
)

func main() {
	host.Serve("docscoreTables", bridge.New(tablesapi.Operations()))
}
