// Package tables scores extracted tables against their ground truth
// (SPEC H): PubTabNet's TEDS and structure-only TEDS-S, and
// table-transformer's GriTS-Top and GriTS-Con, followed to the quirk.
// It is pure: text in, numbers out.
//
// A table is read from HTML, a Markdown pipe table or CSV ([Parse]) into
// an element tree as libxml2's HTML parser builds it for PubTabNet (no
// implied tbody, cells closed by the next cell or row). [TEDS] builds
// PubTabNet's tree from it and computes the tree edit distance with the
// shared Zhang–Shasha of scoring/internal/treedit; [GriTS] lays it out as
// table-transformer's html_to_cells does and runs its factored
// two-dimensional most-similar-substructure search.
//
// Deliberate deviations from the reference code, each documented in
// docs/tables.md: a bare <table> fragment is scored as if inside
// <html><body> (PubTabNet scores it 0); two tables without elements score
// TEDS 1 (PubTabNet divides by zero); a span that is not an integer is
// compared as written and laid out as 1 (both codes raise); ragged GriTS
// grids are padded with empty one-by-one cells (table-transformer fails).
//
// Markdown is read with the project's own reader (internal/mdread), in
// gomarkdown's reading with its Tables, NoIntraEmphasis and
// Strikethrough extensions, which FuzzMarkdownAgainstGomarkdown holds it
// to. It reads apart from gomarkdown where rule files' reader does
// (rules' doc.go): HTML blocks are read as text (a pipe table in a
// <div> is a table), reference links and autolinks stay as written, "[a]
// (b)" is not a link, and a cell whose markup would cost more than a
// bound linear in its length to read is taken as written.
package tables
