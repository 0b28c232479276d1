//go:build js && wasm

// Command harness is the evaluation harness of the static site
// (harness.wasm: deterministic metrics, expressions included), loaded by
// the Web Worker only when a cases file or a harness report is dropped.
// It exposes
//
//	globalThis.docscoreHarness.call(method, requestJSON[, texts]) → Promise<answer> (an envelope, or {envelope, raw} for a report: internal/host)
//
// with the operations of scoring/api/evalapi, and calls
// globalThis.docscoreHarnessReady(version) when it is ready.
package main

import (
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/wasm/bridge"
	"github.com/docscore/docscore/wasm/site/internal/host"
)

func main() {
	host.Serve("docscoreHarness", bridge.New(evalapi.Operations()))
}
