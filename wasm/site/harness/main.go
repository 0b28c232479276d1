//go:build js && wasm

// Command harness is the evaluation harness of the static site
// (harness.wasm: deterministic metrics, expressions included), loaded by
// the Web Worker only when a cases file or a harness report is dropped.
// It exposes
//
//	globalThis.docscoreHarness.call(method, requestJSON[, texts]) → Promise<answer> (an envelope, or {envelope, raw} for a report: internal/host)
//
// with the methods of wasm/bridge/harnessbridge, and calls
// globalThis.docscoreHarnessReady(version) when it is ready.
package main

import (
	"github.com/docscore/docscore/wasm/bridge"
	"github.com/docscore/docscore/wasm/bridge/harnessbridge"
	"github.com/docscore/docscore/wasm/site/internal/host"
)

func main() {
	host.Serve("docscoreHarness", bridge.New(harnessbridge.Methods()))
}
