//go:build js && wasm

// Command site is the tabular core of the static site (docscore.wasm). It
// runs inside a Web Worker (never on the page's main thread) and exposes
//
//	globalThis.docscore.call(method, requestJSON[, texts]) → Promise<answer> (an envelope, or {envelope, raw} for a report: internal/host)
//
// where the envelope is wasm/bridge's {"error", "result"} and the methods
// are bridge.Tabular's. When it is ready it calls
// globalThis.docscoreReady(version) if the host defined it. The receipt
// scorer and the harness are separate files (wasm/site/receipts,
// wasm/site/harness), loaded only when their files are dropped.
package main

import (
	"github.com/docscore/docscore/wasm/bridge"
	"github.com/docscore/docscore/wasm/site/internal/host"
)

func main() {
	host.Serve("docscore", bridge.New(bridge.Tabular()))
}
