//go:build js && wasm

// Command text is the page-text scorer of the static site (text.wasm),
// loaded by the Web Worker only when text pages are scored. It exposes
//
//	globalThis.docscoreText.call(method, requestJSON[, texts]) → Promise<answer> (an envelope, or {envelope, raw} for a report: internal/host)
//
// with the operations of scoring/api/textapi (scoreText, textPage), and
// calls globalThis.docscoreTextReady(version) when it is ready.
package main

import (
	"github.com/docscore/docscore/scoring/api/textapi"
	"github.com/docscore/docscore/wasm/bridge"
	"github.com/docscore/docscore/wasm/site/internal/host"
)

func main() {
	host.Serve("docscoreText", bridge.New(textapi.Operations()))
}
