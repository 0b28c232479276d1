package rules

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/docscore/docscore/internal/mdread"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// This file reads the raw lines of a rule file for what the Markdown
// parser drops without a trace: the cells of a table row beyond the
// header's, and a code fence that never closes (the parser then reads the
// fence line as text and the tables after it as tables, where a Markdown
// viewer shows the rest of the file as code).

// stripQuote removes leading block-quote markers ("> ", nested or not) and
// the indentation before them.
func stripQuote(line []byte) []byte {
	for {
		t := bytes.TrimLeft(line, " \t")
		if len(t) == 0 || t[0] != '>' {
			return t
		}
		line = t[1:]
	}
}

// extraCells returns, quoted, the non-blank cells of a table row's line
// after the first n: the cells the parser drops. Cells are split the way
// the parser splits them: at every pipe that is not escaped (a run of
// pipes is one boundary) and not inside a code span.
func extraCells(line []byte, n int) []string {
	var extra []string
	for col, c := range splitCells(line) {
		if col >= n && c.text != "" {
			extra = append(extra, strconv.Quote(c.text))
		}
	}
	return extra
}

// cellStarts returns the byte offset in line where each cell of a table
// row's line starts (after the spaces before it), split as extraCells
// splits them: where an error about a cell puts its caret.
func cellStarts(line []byte) []int {
	cells := splitCells(line)
	out := make([]int, len(cells))
	for i, c := range cells {
		out[i] = c.start
	}
	return out
}

// rowCell is one cell of a table row's line: its trimmed text and the
// offset in the line where it starts.
type rowCell struct {
	text  string
	start int
}

// splitCells splits a table row's line into cells the way the parser
// splits them: at every pipe that is not escaped (a run of pipes is one
// boundary) and not inside a code span.
func splitCells(line []byte) []rowCell {
	trimmed := stripQuote(line)
	base := len(line) - len(trimmed) // offsets count from the line's start
	data := bytes.TrimRight(trimmed, " \t")
	i := 0
	for i < len(data) && data[i] == '|' {
		i++
	}
	var cells []rowCell
	for i < len(data) {
		for i < len(data) && data[i] == ' ' {
			i++
		}
		start := i
		for i < len(data) && (data[i] != '|' || mdread.IsEscaped(data, i)) {
			i = mdread.SkipCodeSpan(data, i) + 1
		}
		cells = append(cells, rowCell{strings.TrimSpace(string(data[start:min(i, len(data))])), base + start})
		for i < len(data) && data[i] == '|' && !mdread.IsEscaped(data, i) {
			i++
		}
	}
	return cells
}

// numberedLine is a line of the source, or of a block quote's content, with
// its 1-based line number in the file.
type numberedLine struct {
	n    int
	text []byte
}

// unclosedFences reports every code fence of src that is never closed, at
// the line that opens it. A fence closes, as the parser has it, at a line
// of exactly its marker (up to three spaces before, spaces after); a fence
// in a block quote must close before the quote ends. HTML comments are
// skipped.
func unclosedFences(name string, lines *ingest.LineIndex) inputerr.List {
	numbered := make([]numberedLine, lines.NumLines())
	for i := range numbered {
		numbered[i] = numberedLine{i + 1, lines.Line(i + 1)}
	}
	return scanFences(name, numbered, false)
}

func scanFences(name string, lines []numberedLine, quoted bool) inputerr.List {
	var errs inputerr.List
	var marker []byte // the open fence's marker, nil when none is open
	opened := 0
	inComment := false
	for i := 0; i < len(lines); i++ {
		text := lines[i].text
		switch {
		case marker != nil:
			if isFenceCloser(text, marker) {
				marker = nil
			}
			continue
		case inComment:
			inComment = !bytes.Contains(text, []byte("-->"))
			continue
		}
		body, indent := trimIndent(text)
		switch {
		case indent > 3:
			// Indented code, or a list item's continuation.
		case bytes.HasPrefix(body, []byte("<!--")):
			inComment = !bytes.Contains(body[4:], []byte("-->"))
		case bytes.HasPrefix(body, []byte(">")):
			// A block quote runs over consecutive ">" lines; a fence in it
			// is closed when the quote ends.
			var inner []numberedLine
			for ; i < len(lines); i++ {
				b, ind := trimIndent(lines[i].text)
				if ind > 3 || !bytes.HasPrefix(b, []byte(">")) {
					break
				}
				b = b[1:]
				if len(b) > 0 && b[0] == ' ' {
					b = b[1:]
				}
				inner = append(inner, numberedLine{lines[i].n, b})
			}
			i--
			errs = append(errs, scanFences(name, inner, true)...)
		default:
			if m := fenceOpener(body); m != nil {
				marker, opened = m, lines[i].n
			}
		}
	}
	if marker != nil {
		where := "the file ends"
		if quoted {
			where = "its block quote ends"
		}
		errs = append(errs, inputerr.New(name, opened,
			"code fence %s is never closed: expected a line of exactly %s before %s (a Markdown viewer shows what follows as code)", marker, marker, where))
	}
	return errs
}

// trimIndent returns a line without its leading spaces, and how many there
// were (a tab counts as four).
func trimIndent(line []byte) ([]byte, int) {
	n, i := 0, 0
	for ; i < len(line); i++ {
		switch line[i] {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return line[i:], n
		}
	}
	return line[i:], n
}

// fenceRun returns the run of fence characters (three or more backticks or
// tildes) that body starts with, or nil.
func fenceRun(body []byte) []byte {
	if len(body) == 0 || (body[0] != '`' && body[0] != '~') {
		return nil
	}
	k := 0
	for k < len(body) && body[k] == body[0] {
		k++
	}
	if k < 3 {
		return nil
	}
	return body[:k]
}

// fenceOpener returns the marker of a fence that body (a line without its
// indentation) opens, or nil. A backtick fence's info string holds no
// backtick (CommonMark: "```a```" is inline code, not a fence).
func fenceOpener(body []byte) []byte {
	m := fenceRun(body)
	if m == nil || (m[0] == '`' && bytes.IndexByte(body[len(m):], '`') >= 0) {
		return nil
	}
	return m
}

// isFenceCloser reports whether line closes a fence opened by marker: up
// to three spaces, exactly the marker, then only spaces.
func isFenceCloser(line, marker []byte) bool {
	body, indent := trimIndent(line)
	if indent > 3 {
		return false
	}
	m := fenceRun(body)
	return bytes.Equal(m, marker) && len(bytes.Trim(body[len(m):], " ")) == 0
}
