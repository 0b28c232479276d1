//go:build js && wasm

// Command compare is the comparison of score reports of the static site
// (compare.wasm, SPEC F.5, F.6), loaded by the Web Worker only when a
// comparison is asked for, so that a visit that compares nothing does not
// download it (folded into docscore.wasm it would cost about 78 KB gzip,
// docs/performance.md). It exposes
//
//	globalThis.docscoreCompare.call(method, requestJSON[, texts]) → Promise<answer> (an envelope, or {envelope, raw} for a report: internal/host)
//
// with the operation of scoring/api/compareapi ("compare": exactly the
// bytes of docscore compare), and calls globalThis.docscoreCompareReady(version)
// when it is ready.
package main

import (
	"github.com/docscore/docscore/scoring/api/compareapi"
	"github.com/docscore/docscore/wasm/bridge"
	"github.com/docscore/docscore/wasm/site/internal/host"
)

func main() {
	host.Serve("docscoreCompare", bridge.New(compareapi.Operations()))
}
