//go:build js && wasm

// Command site is the tabular core of the static site (docscore.wasm),
// with the comparison of reports (compareapi: compare and plan, SPEC F.5,
// F.6). It runs inside a Web Worker (never on the page's main thread) and
// exposes
//
//	globalThis.docscore.call(method, requestJSON[, texts]) → Promise<answer> (an envelope, or {envelope, raw} for a report: internal/host)
//
// where the envelope is wasm/bridge's {"error", "result"} and the methods
// are api.TabularOperations' and compareapi.Operations'. When it is ready
// it calls globalThis.docscoreReady(version) if the host defined it. The
// receipt scorer, the tables, the page text and the harness are separate
// files (wasm/site/receipts, …), loaded only when their files are dropped.
package main

import (
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/compareapi"
	"github.com/docscore/docscore/wasm/bridge"
	"github.com/docscore/docscore/wasm/site/internal/heapfloor"
	"github.com/docscore/docscore/wasm/site/internal/host"
)

// heapFloor lets the heap grow to about 128 MB before the collector runs.
// On the benchmark corpus in Chromium (five interleaved rounds) the median
// drop on a settled page went from 567 to 454 ms and the drop again from
// 403 to 365 ms; the worker's memory grew from about 38 to 160–170 MB of
// WebAssembly memory, of which 40–50 MB more is resident (measured in
// Node). 32 MB gave about half the gain. The standard library's knobs
// were measured against it on 2026-12-01 (docs/performance.md): GOGC off
// with a 128 MB memory limit took 27 % more CPU per call in Node and made
// the drop on a page just opened 2–6× slower in Chromium (median 3.3×);
// GOGC 400 or 1600 took 30–42 % more CPU. The Worker's core (wasm/worker,
// 128 MB) has no floor.
const heapFloor = 64 << 20

func main() {
	heapfloor.Set(heapFloor)
	host.Serve("docscore", bridge.NewSession(api.TabularOperations(), compareapi.Operations()).With(bridge.StreamMethods()))
}
