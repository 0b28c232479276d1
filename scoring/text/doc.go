// Package text holds the text primitives of docscore's scorers: string
// similarities and the helpers they share, over Unicode code points
// ([]rune), so that a Go rune is what a Python str element is.
//
// [Matcher] reproduces CPython's difflib.SequenceMatcher(None, a, b) —
// Ratio, QuickRatio, RealQuickRatio and the number of matching characters —
// bit for bit, the autojunk heuristic included, without allocating once its
// buffers have grown. The package is pure: it does no I/O and runs the same
// natively, in the browser and in the Worker.
package text
