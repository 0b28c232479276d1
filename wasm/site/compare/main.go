//go:build js && wasm

// Command compare is the comparison of the static site (compare.wasm),
// loaded by the Web Worker only when a comparison is asked for. It exposes
//
//	globalThis.docscoreCompare.call(method, requestJSON[, texts]) → Promise<answer> (an envelope, or {envelope, raw} for a report: internal/host)
//
// with the operations of scoring/api/compareapi, and calls
// globalThis.docscoreCompareReady(version) when it is ready.
package main

import (
	"github.com/docscore/docscore/scoring/api/compareapi"
	"github.com/docscore/docscore/wasm/bridge"
	"github.com/docscore/docscore/wasm/site/internal/host"
)

func main() {
	host.Serve("docscoreCompare", bridge.New(compareapi.Operations()))
}
