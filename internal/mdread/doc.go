// Package mdread is docscore's Markdown reader, in two dialects of the
// gomarkdown parser the project used before:
//
//   - Read, for rule files (package rules): the headings and pipe tables
//     of a file (Block), each with its line, and the cells' text, as
//     gomarkdown read them with CommonExtensions without MathJax;
//     package rules' FuzzMarkdownAgainstGomarkdown holds it to that.
//   - ReadTables and ReadInline, for the tables family (scoring/tables):
//     every pipe table, each cell as written with its column span, and a
//     cell's inline markup (bold, italic, strikethrough, code), as
//     gomarkdown read them with its Tables, NoIntraEmphasis and
//     Strikethrough extensions; scoring/tables'
//     FuzzMarkdownAgainstGomarkdown holds it to that.
//
// It reads only the subset those need; package rules' doc.go lists where
// it deliberately reads apart from gomarkdown. It replaced the library,
// whose parser compiled four regular expressions at every start of the
// command (0.3 ms) and which the Cloudflare Worker could not hold.
package mdread
