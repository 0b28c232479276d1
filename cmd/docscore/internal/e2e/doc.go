// Package e2e holds the end-to-end tests of the browser site: they build
// the site (its three WebAssembly files included), serve it under a path
// prefix with the handler of "docscore serve", and drive a real headless
// Chromium with chromedp: file drops and pickers, downloads compared byte
// for byte with the command line (tabular, receipts and harness reports),
// draft-rule previews, drill-down, the receipts completeness check, the
// pipeline graph, bad input, the network (every request on the origin,
// each family's wasm fetched only when needed) and main-thread
// responsiveness. They fail, not skip, when Chromium is missing.
package e2e
