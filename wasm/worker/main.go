//go:build js && wasm

// Command worker is docscore's HTTP API as a Cloudflare Worker: the handler
// of httpapi, handed to the Workers runtime by github.com/syumai/workers.
// "make worker" builds it into worker/build/app.wasm, next to the
// JavaScript glue that workers-assets-gen writes.
//
// The program serves every request of its isolate: worker/src/worker.mjs
// instantiates it once, so it sets the handler, says it is ready and then
// waits forever instead of returning after the first response (as
// workers.Serve does, for the library's instance-per-request glue).
package main

import (
	"github.com/syumai/workers"

	"github.com/docscore/docscore/httpapi"
	"github.com/docscore/docscore/internal/buildinfo"
)

// version is set at build time: -ldflags '-X main.version=…'. The commit
// and its date come from what Go records of the checkout it builds in.
var version = "dev"

func main() {
	// The limits are httpapi.New's defaults, as in "docscore serve": 2 MiB
	// bodies, 2,000,000 name pairs per tabular scoring (422
	// too_much_work), 30 s per request. The Workers clock stands still
	// while the CPU works, so the pair cap is the bound that holds here.
	build := buildinfo.Current(version, "", "")
	workers.ServeNonBlock(httpapi.New(httpapi.Options{Version: build.Version, Commit: build.Commit, Date: build.Date}))
	workers.Ready()
	select {}
}
