//go:build js && wasm

// Command receipts is the receipt scorer of the static site
// (receipts.wasm), loaded by the Web Worker only when receipt files are
// dropped. It exposes
//
//	globalThis.docscoreReceipts.call(method, requestJSON[, texts]) → Promise<answer> (an envelope, or {envelope, raw} for a report: internal/host)
//
// with the operations of scoring/api/receiptsapi, and calls
// globalThis.docscoreReceiptsReady(version) when it is ready.
package main

import (
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/wasm/bridge"
	"github.com/docscore/docscore/wasm/site/internal/host"
)

func main() {
	host.Serve("docscoreReceipts", bridge.New(receiptsapi.Operations()))
}
