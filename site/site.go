// Package site holds the sources of the static site: plain HTML, CSS and
// JavaScript modules, no framework. The page (js/main.js) never scores
// anything itself: a module Web Worker (js/worker.js) reads the dropped
// files, detects their roles and calls the WebAssembly core through
// wasm/bridge. cmd/docscore/internal/sitebuild turns these sources into the
// deployable site (minified, content-hashed names, the wasm beside them).
package site

import "embed"

// FS holds the site's sources: index.html, tables.html, text.html,
// style.css, icon.svg and js/.
//
//go:embed index.html tables.html text.html style.css icon.svg js/*.js
var FS embed.FS
