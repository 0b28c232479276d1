// Package mdread is the Markdown reader of rule files: Read returns the
// headings and pipe tables of a file (Block), each with its line, and the
// cells' text, following the block rules of the gomarkdown parser that
// rules used before; package rules' FuzzMarkdownAgainstGomarkdown holds
// it to that parser. It reads only the subset a rule file needs.
package mdread
