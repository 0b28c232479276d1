//go:build js && wasm

// Command worker is docscore's HTTP API as a Cloudflare Worker: the handler
// of wasm/api, handed to the Workers runtime by github.com/syumai/workers.
// "make worker" builds it into worker/build/app.wasm, next to the
// JavaScript glue that workers-assets-gen writes.
package main

import (
	"github.com/syumai/workers"

	"github.com/docscore/docscore/wasm/api"
)

// version is set at build time: -ldflags '-X main.version=…'.
var version = "dev"

func main() {
	workers.Serve(api.New(api.Options{Version: version}))
}
