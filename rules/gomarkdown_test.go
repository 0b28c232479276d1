package rules

import (
	"bytes"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/mdread"
	"github.com/gomarkdown/markdown/ast"
	"github.com/gomarkdown/markdown/parser"
)

// This file keeps the reader the package used before its own: rule files
// read from the gomarkdown syntax tree. FuzzMarkdownAgainstGomarkdown
// holds the hand-written reader to it.

// parseGomarkdown is Parse with the gomarkdown reader. headerLines, when
// given, are the lines of the file's tables in order (as mdread.Read has
// them): the reader takes a table's from there, where that line holds the
// header's text, instead of searching for it (doc.go).
func parseGomarkdown(name string, src []byte, headerLines []int) (*File, error) {
	return parseWith(name, src, func(buf []byte) []mdread.Block { return gomarkdownBlocks(buf, headerLines) })
}

// gomarkdownBlocks returns the headings and tables of buf as the old
// reader saw them, with the lines it gave them: a heading at the line of
// its first text literal (1 when none is a slice of buf), a table's header
// found by searching when read from a copy, rows at the line of their
// first text literal or counted from the header.
func gomarkdownBlocks(buf []byte, headerLines []int) []mdread.Block {
	p := parser.NewWithExtensions(parser.CommonExtensions &^ parser.MathJax)
	doc := p.Parse(buf)
	var out []mdread.Block
	var section Kind
	sectionLevel := 0
	loc := newLocator(buf)
	tables := 0
	ast.WalkFunc(doc, func(node ast.Node, entering bool) ast.WalkStatus {
		if !entering {
			return ast.GoToNext
		}
		loc.seen(node)
		switch n := node.(type) {
		case *ast.Heading:
			ast.WalkFunc(n, func(c ast.Node, entering bool) ast.WalkStatus {
				if entering {
					loc.seen(c)
				}
				return ast.GoToNext
			})
			text := nodeText(n)
			out = append(out, mdread.Block{Level: n.Level, Line: max(nodeLine(buf, n), 1), Text: text})
			kind := sectionKind(strings.ToLower(text))
			switch {
			case kind != "":
				section, sectionLevel = kind, n.Level
			case section != "" && n.Level <= sectionLevel:
				section = ""
			}
			return ast.SkipChildren
		case *ast.CodeBlock:
			return ast.SkipChildren
		case *ast.Table:
			// headerLines has the tables with a header row.
			hint := 0
			if hasHeader(n) {
				if tables < len(headerLines) {
					hint = headerLines[tables]
				}
				tables++
			}
			if section != "" {
				if t, ok := gomarkdownTable(loc, n, section, hint); ok {
					out = append(out, t)
				}
			}
			return ast.GoToNext
		}
		return ast.GoToNext
	})
	return out
}

func gomarkdownTable(loc *locator, t *ast.Table, kind Kind, hint int) (mdread.Block, bool) {
	src := loc.src
	var rows []*ast.TableRow
	var headerRow *ast.TableRow
	ast.WalkFunc(t, func(node ast.Node, entering bool) ast.WalkStatus {
		if r, ok := node.(*ast.TableRow); ok && entering {
			if _, inHeader := r.Parent.(*ast.TableHeader); inHeader && headerRow == nil {
				headerRow = r
			} else {
				rows = append(rows, r)
			}
			return ast.SkipChildren
		}
		return ast.GoToNext
	})
	if headerRow == nil {
		return mdread.Block{}, false
	}
	headerLine := nodeLine(src, headerRow)
	if headerLine == 0 {
		headerLine = loc.search(headerRow, hint)
	}
	b := mdread.Block{Table: true, Line: headerLine}
	for _, c := range headerRow.Children {
		b.Header = append(b.Header, nodeText(c))
	}
	if !hasRuleColumns(kind, b.Header) {
		return b, true
	}
	loc.pass(headerLine + 1 + len(rows))
	for k, r := range rows {
		line := nodeLine(src, r)
		if line == 0 && headerLine > 0 {
			line = headerLine + 2 + k
		}
		row := mdread.Row{Line: line}
		for _, c := range r.Children {
			row.Cells = append(row.Cells, nodeText(c))
		}
		b.Rows = append(b.Rows, row)
	}
	return b, true
}

// hasHeader reports whether table t has a header row.
func hasHeader(t *ast.Table) bool {
	for _, c := range t.Children {
		if h, ok := c.(*ast.TableHeader); ok && len(h.Children) > 0 {
			return true
		}
	}
	return false
}

// hasRuleColumns reports whether readTable reads a table with this header
// as rules.
func hasRuleColumns(kind Kind, header []string) bool {
	cols := map[string]bool{}
	for _, h := range header {
		canon, ok := columnSynonyms[strings.ToLower(strings.TrimSpace(h))]
		if ok && usedBy(kind, canon) {
			cols[canon] = true
		}
	}
	for _, need := range neededColumns[kind] {
		if !cols[need] {
			return false
		}
	}
	return true
}

// nodeText concatenates the literal text of every leaf under n: plain text,
// inline code and the text of emphasis or links.
func nodeText(n ast.Node) string {
	var sb strings.Builder
	ast.WalkFunc(n, func(node ast.Node, entering bool) ast.WalkStatus {
		if !entering {
			return ast.GoToNext
		}
		if leaf := node.AsLeaf(); leaf != nil {
			switch node.(type) {
			case *ast.Text, *ast.Code, *ast.HTMLSpan:
				sb.Write(leaf.Literal)
			case *ast.Softbreak, *ast.Hardbreak:
				sb.WriteByte(' ')
			}
		}
		return ast.GoToNext
	})
	return sb.String()
}

// locator finds the lines of tables the parser read from a copy of the
// source (a block quote's text without its "> " markers), whose literals
// are therefore not slices of it.
type locator struct {
	src    []byte
	starts []int
	passed int
}

func newLocator(src []byte) *locator {
	l := &locator{src: src, starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

func (l *locator) lineOf(off int) int {
	return sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off })
}

func (l *locator) pass(n int) {
	l.passed = max(l.passed, min(n, len(l.starts)))
}

func (l *locator) seen(node ast.Node) {
	leaf := node.AsLeaf()
	if leaf == nil || len(leaf.Literal) == 0 {
		return
	}
	if off, ok := offsetIn(l.src, leaf.Literal); ok {
		l.pass(l.lineOf(off + len(leaf.Literal) - 1))
		return
	}
	if _, ok := node.(*ast.CodeBlock); ok && l.passed < len(l.starts) {
		lines := bytes.Split(bytes.TrimRight(leaf.Literal, "\n"), []byte("\n"))
		last := lines[len(lines)-1]
		from := l.starts[l.passed]
		if i := bytes.Index(l.src[from:], last); i >= 0 {
			l.pass(l.lineOf(from + i + len(last) - 1))
		}
	}
}

// search returns the line of a table's header row read from a copy: line
// hint where it holds the row's text, else the first line from the last
// one passed that does.
func (l *locator) search(row ast.Node, hint int) int {
	var lits [][]byte
	ast.WalkFunc(row, func(node ast.Node, entering bool) ast.WalkStatus {
		switch node.(type) {
		case *ast.Text, *ast.Code:
			if lit := node.AsLeaf().Literal; entering && len(lit) > 0 {
				lits = append(lits, lit)
			}
		}
		return ast.GoToNext
	})
	line := func(i int) []byte {
		end := len(l.src)
		if i+1 < len(l.starts) {
			end = l.starts[i+1]
		}
		return l.src[l.starts[i]:end]
	}
	if hint > 0 && hint <= len(l.starts) && holdsInOrder(line(hint-1), lits) {
		l.pass(hint)
		return hint
	}
	for i := l.passed; i < len(l.starts) && len(lits) > 0; i++ {
		if holdsInOrder(line(i), lits) {
			l.pass(i + 1)
			return i + 1
		}
	}
	return max(l.passed, 1)
}

func holdsInOrder(line []byte, lits [][]byte) bool {
	for _, lit := range lits {
		i := bytes.Index(line, lit)
		if i < 0 {
			return false
		}
		line = line[i+len(lit):]
	}
	return true
}

func nodeLine(src []byte, n ast.Node) int {
	line := 0
	ast.WalkFunc(n, func(node ast.Node, entering bool) ast.WalkStatus {
		if !entering || line != 0 {
			return ast.GoToNext
		}
		if t, ok := node.(*ast.Text); ok && len(t.Literal) > 0 {
			if off, ok := offsetIn(src, t.Literal); ok {
				line = 1 + bytes.Count(src[:off], []byte("\n"))
				return ast.Terminate
			}
		}
		return ast.GoToNext
	})
	return line
}

func offsetIn(src, sub []byte) (int, bool) {
	off := cap(src) - cap(sub)
	if len(sub) == 0 || off < 0 || off+len(sub) > len(src) {
		return 0, false
	}
	if &src[off] != &sub[0] {
		return 0, false
	}
	return off, true
}

// BenchmarkParseGomarkdown parses the sample rule file with the reader
// Parse used before, for comparison with BenchmarkParse.
func BenchmarkParseGomarkdown(b *testing.B) {
	src, err := os.ReadFile("testdata/valid/sample.md")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := parseGomarkdown("sample.md", src, nil); err != nil {
			b.Fatal(err)
		}
	}
}
