// Package e2e holds the end-to-end tests of the browser site: they build
// the site (WebAssembly core included), serve it under a path prefix with
// the handler of "docscore serve", and drive a real headless Chromium with
// chromedp: file drops and pickers, downloads compared byte for byte with
// the command line, draft-rule previews, drill-down, bad input, the
// network and main-thread responsiveness. They fail, not skip, when
// Chromium is missing.
package e2e
