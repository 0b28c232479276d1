package mdread

import "bytes"

// This file is the block reader: a small hand-written reader of the
// subset that decides which headings and pipe tables a file has, and what
// their cells hold. It follows the block rules of the gomarkdown parser
// the project used before, in the rule files' dialect (CommonExtensions
// without MathJax) or the tables family's (Tables, NoIntraEmphasis,
// Strikethrough), which differential fuzz tests in rules and
// scoring/tables keep it to. See package rules' doc.go for where it
// deliberately differs.

// Block is a heading or a table of a rule file, in document order.
type Block struct {
	Table  bool
	Level  int      // heading level
	Line   int      // heading's line; a table's header line
	Text   string   // heading text
	Header []string // a table's header cells, as read
	Rows   []Row    // a table's body rows
	Footer bool     // with a footer line ("|===|") among its rows
}

// Row is one body row of a table.
type Row struct {
	Line  int
	Cells []string
}

// mdReader reads the blocks of one buffer: the file, or a copy of a block
// quote's or list item's content with its markers removed. lines[k] is the
// file's line number of the buffer's line k.
type mdReader struct {
	buf    []byte
	lines  []int
	starts []int // offset of the first byte of each line of buf
	out    *[]Block
	// tables, when set, is where ReadTables puts the tables, and the
	// reader follows the tables family's dialect (ReadTables).
	tables *[]Table
	depth  int
	// padded counts the empty cells added to short rows, as the parser
	// limits them.
	padded *int
	// overBudget is set when a cell's or heading's markup was over its
	// budget and taken as written (OverBudget).
	overBudget *bool
	limit      int
}

// NormalizeNewlines returns src with LF newlines (CRLF and CR become
// LF), which Read and ReadTables work on, as HTML's tokenizer does its
// text (package htmltok); src itself when it has none.
func NormalizeNewlines(src []byte) []byte {
	if bytes.IndexByte(src, '\r') < 0 {
		return src
	}
	return bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
}

// Read returns the headings and tables of src (LF newlines).
func Read(src []byte) []Block {
	var out []Block
	readAll(src, &out, nil, nil)
	return out
}

// OverBudget reports whether Read takes the text of some cell or heading
// of src as written because its markup would cost more than a bound
// linear in its length to read (a long run of "[" that nothing closes,
// say); the differential tests skip such files.
func OverBudget(src []byte) bool {
	var out []Block
	over := false
	readAll(src, &out, nil, &over)
	return over
}

// readAll reads src into out, or in the tables family's dialect into
// tables.
func readAll(src []byte, out *[]Block, tables *[]Table, overBudget *bool) {
	n := bytes.Count(src, []byte("\n")) + 1
	lines := make([]int, n)
	for i := range lines {
		lines[i] = i + 1
	}
	padded := 0
	r := newMDReader(src, lines, out, tables, 0, &padded, max(len(src), 100*1024))
	r.overBudget = overBudget
	r.block(0, len(src))
}

// Table is a pipe table as ReadTables reads it.
type Table struct {
	Header  *TableRow // nil when the first line is the delimiter row
	Rows    []TableRow
	Footers int // footer lines ("|===|") among the rows
}

// TableRow is one row of a Table.
type TableRow struct {
	// Footer is 0 for a body row, n for a row after the table's n-th
	// footer line (gomarkdown puts each in a new footer group).
	Footer int
	Cells  []TableCell
}

// TableCell is a cell as written: its content, inline markup unread
// (ReadInline reads it), and the columns a run of pipes after it spans
// (0 for one column).
type TableCell struct {
	Content []byte
	Span    int
}

// ReadTables returns the pipe tables of src (LF newlines) in the dialect
// of the tables family: gomarkdown's Tables, NoIntraEmphasis and
// Strikethrough extensions only. Unlike rule files, a fence is not code
// (a table a model wrapped in a ``` fence is read), "#x" is a heading
// without the space, there are no definition lists or heading ids, and a
// table without a header row is read too.
func ReadTables(src []byte) []Table {
	var out []Table
	readAll(src, nil, &out, nil)
	return out
}

func newMDReader(buf []byte, lines []int, out *[]Block, tables *[]Table, depth int, padded *int, limit int) *mdReader {
	r := &mdReader{buf: buf, lines: lines, out: out, tables: tables, depth: depth, padded: padded, limit: limit, starts: []int{0}}
	for i, c := range buf {
		if c == '\n' {
			r.starts = append(r.starts, i+1)
		}
	}
	return r
}

// lineAt returns the file's line of offset off of the buffer.
func (r *mdReader) lineAt(off int) int {
	lo, hi := 0, len(r.starts)
	for lo < hi {
		m := (lo + hi) / 2
		if r.starts[m] > off {
			hi = m
		} else {
			lo = m + 1
		}
	}
	k := lo - 1
	if k < len(r.lines) {
		return r.lines[k]
	}
	return r.lines[len(r.lines)-1]
}

// sub reads a copy of content whose lines come from the given file lines.
func (r *mdReader) sub(content []byte, lines []int) {
	if r.depth+1 >= maxMDNesting || len(content) == 0 {
		return
	}
	if len(lines) == 0 {
		lines = []int{1}
	}
	// A copy ends with a newline, or holds one line more than it names.
	for bytes.Count(content, []byte("\n"))+1 > len(lines) {
		lines = append(lines, lines[len(lines)-1])
	}
	s := newMDReader(content, lines, r.out, r.tables, r.depth+1, r.padded, r.limit)
	s.overBudget = r.overBudget
	s.block(0, len(content))
}

// maxMDNesting is the parser's limit on nested blocks.
const maxMDNesting = 64

// block reads the blocks of buf[beg:end].
func (r *mdReader) block(beg, end int) {
	for beg < end {
		data := r.buf[beg:end]
		n := r.parseBlock(beg, data)
		if n <= 0 {
			n = 1
		}
		beg += n
	}
}

func (r *mdReader) parseBlock(off int, data []byte) int {
	if r.isPrefixHeading(data) {
		return r.prefixHeading(off, data)
	}
	if data[0] == '<' {
		if n := r.htmlBlock(off, data); n > 0 {
			return n
		}
	}
	if n := mdIsEmpty(data); n > 0 {
		return n
	}
	if codePrefix(data) > 0 {
		return indentedCode(data)
	}
	if r.tables == nil {
		if n := r.fencedCode(off, data); n > 0 {
			return n
		}
	}
	if isHRule(data) {
		return skipUntil(data, 0, '\n')
	}
	if prefixedBlock(data, '>') > 0 {
		return r.quote(data, off)
	}
	if n := r.table(off, data); n > 0 {
		return n
	}
	if uliPrefix(data) > 0 || oliPrefix(data) > 0 {
		return r.list(off, data, data[skipN(data, 0, ' ', 3)] >= '0' && data[skipN(data, 0, ' ', 3)] <= '9', false)
	}
	if r.tables == nil && dliPrefix(data) > 0 {
		if n := r.list(off, data, false, true); n > 0 {
			return n
		}
	}
	return r.paragraph(off, data)
}

func skipN(data []byte, i int, c byte, n int) int {
	for k := 0; k < n && i < len(data) && data[i] == c; k++ {
		i++
	}
	return i
}

func skipRun(data []byte, i int, c byte) int {
	for i < len(data) && data[i] == c {
		i++
	}
	return i
}

// skipUntil returns the index of the first c at or after i, or len(data).
func skipUntil(data []byte, i int, c byte) int {
	if j := bytes.IndexByte(data[i:], c); j >= 0 {
		return i + j
	}
	return len(data)
}

// mdIsEmpty returns the length of a blank line at the start of data.
func mdIsEmpty(data []byte) int {
	if len(data) == 0 {
		return 0
	}
	i := 0
	for ; i < len(data) && data[i] != '\n'; i++ {
		if data[i] != ' ' && data[i] != '\t' {
			return 0
		}
	}
	return skipN(data, i, '\n', 1)
}

// escapedAt reports whether data[i] follows an odd number of backslashes.
func escapedAt(data []byte, i int) bool { return IsEscaped(data, i) }

// isPrefixHeading reports whether data starts with an ATX heading: "#"
// and, in rule files (gomarkdown's SpaceHeadings), a space after the
// run of "#".
func (r *mdReader) isPrefixHeading(data []byte) bool {
	if len(data) > 0 && data[0] != '#' {
		return false
	}
	if r.tables != nil {
		return true
	}
	level := skipN(data, 0, '#', 6)
	return level < len(data) && data[level] == ' '
}

func (r *mdReader) prefixHeading(off int, data []byte) int {
	level := skipN(data, 0, '#', 6)
	i := skipRun(data, level, ' ')
	end := skipUntil(data, i, '\n')
	skip := end
	if r.tables != nil {
		// The tables family reads no heading (nor gomarkdown's HeadingIDs).
		return skip
	}
	// A trailing {#id} is the heading's id, not its text.
	j := i
	for j < end-1 && (data[j] != '{' || data[j+1] != '#') {
		j++
	}
	k := j + 1
	for k < end && data[k] != '}' {
		k++
	}
	if j < end && k < end {
		end = j
		skip = k + 1
		for end > 0 && data[end-1] == ' ' {
			end--
		}
	}
	for end > 0 && data[end-1] == '#' {
		if escapedAt(data, end-1) {
			break
		}
		end--
	}
	for end > 0 && data[end-1] == ' ' {
		end--
	}
	if end > i {
		r.heading(level, off+i, data[i:end])
	}
	return skip
}

// heading records a heading. Its line is where its text is; the parser
// located it by a plain text literal, so a heading of inline code or
// entities only, or one read from a copy, is placed at line 1.
func (r *mdReader) heading(level, off int, content []byte) {
	if r.tables != nil {
		return
	}
	text, plain, read := inlineText(content)
	r.unread(read)
	line := 0
	if plain && r.depth == 0 {
		line = r.lineAt(off)
	}
	*r.out = append(*r.out, Block{Level: level, Line: max(line, 1), Text: text})
}

func (r *mdReader) htmlBlock(off int, data []byte) int {
	// Comments followed by a blank rest of line; other HTML blocks are
	// read as paragraphs (see doc.go).
	if !bytes.HasPrefix(data, []byte("<!--")) {
		return 0
	}
	rest := r.buf[off+3:]
	j := bytes.Index(rest, []byte("-->"))
	if j < 0 {
		return 0
	}
	i := 3 + j + 3
	if i > len(data) {
		return 0
	}
	k := mdIsEmpty(data[i:])
	if k == 0 {
		return 0
	}
	return i + k
}

func codePrefix(data []byte) int {
	if len(data) >= 1 && data[0] == '\t' {
		return 1
	}
	if len(data) >= 4 && data[0] == ' ' && data[1] == ' ' && data[2] == ' ' && data[3] == ' ' {
		return 4
	}
	return 0
}

func indentedCode(data []byte) int {
	i := 0
	for i < len(data) {
		beg := i
		i = skipUntil(data, i, '\n')
		i = skipN(data, i, '\n', 1)
		if codePrefix(data[beg:i]) == 0 && mdIsEmpty(data[beg:i]) == 0 {
			return beg
		}
	}
	return i
}

// fenceLine reports whether data starts with a fence line: with marker
// "", an opening one (any info string), else a closing one for marker. It
// returns the length of the line with its newline, and the marker.
func fenceLine(data []byte, marker []byte) (int, []byte) {
	i := skipN(data, 0, ' ', 3)
	if i >= len(data) || data[i] != '~' && data[i] != '`' {
		return 0, nil
	}
	start := i
	i = skipRun(data, i, data[i])
	if i-start < 3 {
		return 0, nil
	}
	m := data[start:i]
	if marker != nil && !bytes.Equal(m, marker) {
		return 0, nil
	}
	if marker == nil {
		i = skipRun(data, i, ' ')
		if i >= len(data) {
			return i, m
		}
		if data[i] == '{' {
			j := i + 1
			for j < len(data) && data[j] != '}' && data[j] != '\n' {
				j++
			}
			if j >= len(data) || data[j] != '}' {
				return 0, nil
			}
			i = j + 1
		} else {
			i = skipUntil(data, i, '\n')
		}
	}
	i = skipRun(data, i, ' ')
	if i >= len(data) {
		return i, m
	}
	if data[i] != '\n' {
		return 0, nil
	}
	return i + 1, m
}

// fencedCode returns the length of a fenced code block at the start of
// data, or 0: a fence that is never closed is not code.
func (r *mdReader) fencedCode(off int, data []byte) int {
	beg, marker := fenceLine(data, nil)
	if beg == 0 || beg >= len(data) {
		return 0
	}
	for {
		if n, _ := fenceLine(data[beg:], marker); n != 0 {
			return beg + n
		}
		end := skipUntil(data, beg, '\n') + 1
		if end >= len(data) {
			return 0
		}
		beg = end
	}
}

func isHRule(data []byte) bool {
	i := skipN(data, 0, ' ', 3)
	if i >= len(data) || data[i] != '*' && data[i] != '-' && data[i] != '_' {
		return false
	}
	c, n := data[i], 0
	for ; i < len(data) && data[i] != '\n'; i++ {
		switch {
		case data[i] == c:
			n++
		case data[i] != ' ':
			return false
		}
	}
	return n >= 3
}

// prefixedBlock returns the length of a block marker (up to three spaces,
// the marker, an optional space) at the start of data, or 0.
func prefixedBlock(data []byte, marker byte) int {
	i := skipN(data, 0, ' ', 3)
	if i >= len(data) || data[i] != marker {
		return 0
	}
	i++
	if i < len(data) && data[i] == ' ' {
		i++
	}
	return i
}

func (r *mdReader) quote(data []byte, off int) int {
	var raw []byte
	var lines []int
	beg, end := 0, 0
	var fence []byte
	for beg < len(data) {
		end = skipUntil(data, beg, '\n')
		end = skipN(data, end, '\n', 1)
		contentBeg := beg
		if pre := prefixedBlock(data[beg:], '>'); pre > 0 {
			contentBeg += pre
		} else if fence == nil && mdIsEmpty(data[beg:]) > 0 &&
			(end >= len(data) || prefixedBlock(data[end:], '>') == 0 && mdIsEmpty(data[end:]) == 0) {
			break
		}
		raw = append(raw, data[contentBeg:end]...)
		lines = append(lines, r.lineAt(off+beg))
		if _, m := fenceLine(data[contentBeg:end], fence); m != nil && r.tables == nil {
			if fence != nil {
				fence = nil
			} else if r.quotedFenceCloses(data, end, m) {
				fence = m
			}
		}
		beg = end
	}
	r.sub(raw, lines)
	return end
}

// quotedFenceCloses reports whether a line after data[from:], with or
// without a quote marker, can close a fence of marker.
func (r *mdReader) quotedFenceCloses(data []byte, from int, marker []byte) bool {
	for beg := from; beg < len(data); {
		end := skipN(data, skipUntil(data, beg, '\n'), '\n', 1)
		line := data[beg:end]
		line = line[prefixedBlock(line, '>'):]
		if n, _ := fenceLine(line, nil); n > 0 {
			if n, _ := fenceLine(line, marker); n > 0 {
				return true
			}
		}
		beg = end
	}
	return false
}

// tableHeader returns the length of a pipe table's header and delimiter
// rows at the start of data, or 0; the number of columns; and the header
// line without its newline, nil when the first line is itself the
// delimiter row.
func tableHeader(data []byte) (size, cols int, header []byte) {
	lineEnd := skipUntil(data, 0, '\n')
	if bytes.IndexByte(data[:lineEnd], '|') < 0 {
		return 0, 0, nil
	}
	colCount := 1
	underline, emptyFields := true, true
	i := 0
	for ; i < lineEnd; i++ {
		i = SkipCodeSpan(data[:lineEnd], i)
		if data[i] == '|' && !IsEscaped(data, i) {
			colCount++
		}
		switch data[i] {
		case '-', ' ', ':', '|':
		default:
			underline = false
		}
		if data[i] != ' ' && data[i] != '|' {
			emptyFields = false
		}
	}
	if colCount == 1 {
		return 0, 0, nil
	}
	j := skipN(data, i, '\n', 1)
	header = data[:j]
	if data[0] == '|' {
		colCount--
	}
	tmp := bytes.TrimRight(header, " \n")
	if n := len(tmp); n > 2 && tmp[n-1] == '|' && !IsEscaped(tmp, n-1) {
		colCount--
	}
	if underline && !emptyFields {
		header = nil
		i = 0
	} else {
		i++
	}
	if i >= len(data) {
		return 0, 0, nil
	}
	if data[i] == '|' && !IsEscaped(data, i) {
		i++
	}
	i = skipRun(data, i, ' ')
	col, n := 0, len(data)
	for i < n && data[i] != '\n' {
		dashes := 0
		if data[i] == ':' {
			i++
			dashes++
		}
		for i < n && data[i] == '-' {
			i++
			dashes++
		}
		if i < n && data[i] == ':' {
			i++
			dashes++
		}
		i = skipRun(data, i, ' ')
		if i == n {
			return 0, 0, nil
		}
		switch {
		case dashes < 1:
			return 0, 0, nil
		case data[i] == '|' && !IsEscaped(data, i):
			col++
			i = skipRun(data, i+1, ' ')
			if col >= colCount && i < len(data) && data[i] != '\n' {
				return 0, 0, nil
			}
		case col+1 < colCount:
			return 0, 0, nil
		case data[i] == '\n':
			col++
		default:
			return 0, 0, nil
		}
	}
	if col != colCount {
		return 0, 0, nil
	}
	return skipN(data, i, '\n', 1), colCount, header
}

// table reads a pipe table at the start of data and returns its length,
// or 0. Body rows run while lines hold a pipe; a line of only "=" and
// pipes is a footer separator, not a row.
func (r *mdReader) table(off int, data []byte) int {
	i, cols, header := tableHeader(data)
	if i == 0 {
		return 0
	}
	if r.tables != nil {
		return r.cellTable(data, i, cols, header)
	}
	t := Block{Table: true}
	if header != nil {
		t.Line = r.lineAt(off)
		t.Header = r.row(header, cols)
	}
	i = bodyRows(data, i, func(at int, row []byte) {
		if isTableFooter(row) {
			t.Footer = true
			return
		}
		t.Rows = append(t.Rows, Row{Line: r.lineAt(off + at), Cells: r.row(row, cols)})
	})
	if header != nil {
		*r.out = append(*r.out, t)
	}
	return i
}

// bodyRows calls row with each body row of a table from data[i:] (the
// lines that hold a pipe, with their newline, and their offsets) and
// returns the offset after the last.
func bodyRows(data []byte, i int, row func(at int, line []byte)) int {
	for i < len(data) {
		rowStart := i
		i = skipUntil(data, i, '\n')
		if bytes.IndexByte(data[rowStart:i], '|') < 0 {
			return rowStart
		}
		i = skipN(data, i, '\n', 1)
		row(rowStart, data[rowStart:i])
	}
	return i
}

// cellTable is table for ReadTables: the rows from data[i:], after the
// header (nil when the table has none) and delimiter rows.
func (r *mdReader) cellTable(data []byte, i, cols int, header []byte) int {
	var t Table
	if header != nil {
		t.Header = &TableRow{Cells: r.cells(header, cols)}
	}
	footer := 0
	i = bodyRows(data, i, func(_ int, row []byte) {
		if isTableFooter(row) {
			footer++
			t.Footers = footer
			return
		}
		t.Rows = append(t.Rows, TableRow{Footer: footer, Cells: r.cells(row, cols)})
	})
	*r.tables = append(*r.tables, t)
	return i
}

func isTableFooter(data []byte) bool {
	pipes := 0
	for i := skipN(data, 0, ' ', 3); i < len(data) && data[i] != '\n'; i++ {
		switch {
		case data[i] == '|' && !IsEscaped(data, i):
			pipes++
		case data[i] != '=':
			return false
		}
	}
	return pipes > 0
}

// row splits a table row into at most cols cells, as the parser does: a
// run of pipes spans columns, and the empty cells a span leaves are
// dropped; a short row is padded with empty cells.
func (r *mdReader) row(data []byte, cols int) []string {
	var cells []string
	r.splitRow(data, cols, func(content []byte, _ int) {
		text, _, read := inlineText(content)
		r.unread(read)
		cells = append(cells, text)
	})
	return cells
}

// cells is row for ReadTables: each cell as written, with its span.
func (r *mdReader) cells(data []byte, cols int) []TableCell {
	var cells []TableCell
	r.splitRow(data, cols, func(content []byte, span int) {
		cells = append(cells, TableCell{Content: content, Span: span})
	})
	return cells
}

// splitRow calls cell with the content and column span (0 for one
// column) of each cell of a row of a table of cols columns.
func (r *mdReader) splitRow(data []byte, cols int, cell func(content []byte, span int)) {
	i := skipRun(data, 0, '|')
	n := len(data)
	spans := 0
	col := 0
	for ; col < cols && i < n; col++ {
		span := 0
		i = skipRun(data, i, ' ')
		start := i
		padding := i >= n || data[i] == '\n'
		for i < n && (data[i] != '|' || IsEscaped(data, i)) && data[i] != '\n' {
			i = SkipCodeSpan(data, i) + 1
		}
		end := i
		for i < n && data[i] == '|' && !IsEscaped(data, i) {
			i++
			span++
		}
		if span < 2 {
			span = 0
		}
		for end > start && end-1 < n && data[end-1] == ' ' {
			end--
		}
		switch {
		case start == end && spans > 0:
			spans--
		case padding && !r.pad():
			return
		default:
			cell(data[start:min(end, n)], span)
		}
		if span > 0 {
			spans += span - 1
		}
	}
	for ; col < cols && r.pad(); col++ {
		cell(nil, 0)
	}
}

// unread notes a text taken as written (read false).
func (r *mdReader) unread(read bool) {
	if !read && r.overBudget != nil {
		*r.overBudget = true
	}
}

func (r *mdReader) pad() bool {
	if *r.padded >= r.limit {
		return false
	}
	*r.padded++
	return true
}

func uliPrefix(data []byte) int {
	i := skipN(data, 0, ' ', 3)
	if i >= len(data)-1 {
		return 0
	}
	if data[i] != '*' && data[i] != '+' && data[i] != '-' || data[i+1] != ' ' && data[i+1] != '\t' {
		return 0
	}
	return i + 2
}

func oliPrefix(data []byte) int {
	i := skipN(data, 0, ' ', 3)
	start := i
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	if start == i || i >= len(data)-1 {
		return 0
	}
	if data[i] != '.' && data[i] != ')' || data[i+1] != ' ' && data[i+1] != '\t' {
		return 0
	}
	return i + 2
}

func dliPrefix(data []byte) int {
	if len(data) < 2 || data[0] != ':' || data[1] != ' ' && data[1] != '\t' {
		return 0
	}
	return 2
}

func listIndent(data []byte, max int) (width, n int) {
	if len(data) > 0 && data[0] == '\t' {
		return 4, 1
	}
	for n < len(data) && width < max && data[n] == ' ' {
		width++
		n++
	}
	return width, n
}

// The list flags the parser keeps while reading a list.
const (
	listOrdered = 1 << iota
	listDefinition
	listTerm
	listContainsBlock
	listEnd
)

// list reads a list and returns its length.
func (r *mdReader) list(off int, data []byte, ordered, definition bool) int {
	flags := 0
	if ordered {
		flags |= listOrdered
	}
	if definition {
		flags |= listDefinition
	}
	i := 0
	for i < len(data) {
		skip := r.listItem(off+i, data[i:], &flags)
		i += skip
		if skip == 0 || flags&listEnd != 0 {
			break
		}
	}
	return i
}

func listTypeChanged(data []byte, flags int, definitionItem bool) bool {
	return definitionItem && flags&listDefinition == 0 ||
		oliPrefix(data) > 0 && flags&listOrdered == 0 ||
		uliPrefix(data) > 0 && flags&(listOrdered|listDefinition) != 0
}

func (r *mdReader) listItem(off int, data []byte, flags *int) int {
	isDefinition := *flags&listDefinition != 0
	itemIndent, _ := listIndent(data, 3)
	i := uliPrefix(data)
	if i == 0 {
		i = oliPrefix(data)
	}
	if i == 0 && r.tables == nil {
		i = dliPrefix(data)
		if i > 0 {
			*flags &^= listTerm
		}
	}
	if i == 0 {
		if !isDefinition {
			return 0
		}
		*flags |= listTerm
	}
	i = skipRun(data, i, ' ')
	line := i
	for i > 0 && i < len(data) && data[i-1] != '\n' {
		i++
	}
	var raw []byte
	var lines []int
	// write copies b, a line or the last line of data without its newline,
	// and names its line.
	write := func(b []byte, at int) {
		raw = append(raw, b...)
		if len(b) > 0 {
			lines = append(lines, r.lineAt(off+at))
		}
	}
	write(data[line:i], line)
	if len(lines) == 0 {
		lines = append(lines, r.lineAt(off+line))
	}
	line = i
	blank := false
	sublist := 0
	var fence []byte
	blankLine := func() {
		raw = append(raw, '\n')
		lines = append(lines, r.lineAt(off+line))
	}
gather:
	for line < len(data) {
		i++
		for i < len(data) && data[i-1] != '\n' {
			i++
		}
		if mdIsEmpty(data[line:i]) > 0 {
			blank = true
			line = i
			continue
		}
		indent, indentBytes := listIndent(data[line:i], 4)
		chunk := data[line+indentBytes : i]
		chunkAt := line + indentBytes
		if !isDefinition && r.tables == nil {
			verbatim, end := trackListFence(chunk, indent, &fence)
			if end {
				*flags |= listEnd
				break gather
			}
			if verbatim {
				if blank {
					blank = false
					blankLine()
				}
				write(chunk, chunkAt)
				line = i
				continue
			}
		}
		definitionItem := r.tables == nil && dliPrefix(chunk) > 0
		switch {
		case uliPrefix(chunk) > 0 && !isHRule(chunk) || oliPrefix(chunk) > 0 || definitionItem:
			if indentBytes >= 4 && !definitionItem {
				lead := skipRun(chunk, 0, ' ')
				chunkAt = line + indentBytes - (lead + 1)
				chunk = data[chunkAt:i]
			}
			if indent <= itemIndent {
				if listTypeChanged(chunk, *flags, definitionItem) {
					*flags |= listEnd
				} else if blank {
					*flags |= listContainsBlock
				}
				break gather
			}
			if blank {
				*flags |= listContainsBlock
			}
			if sublist == 0 {
				sublist = len(raw)
				if definitionItem {
					sublist = bytes.LastIndexByte(raw[:len(raw)-1], '\n') + 1
				}
			}
		case r.isPrefixHeading(chunk):
			if blank && indent < 4 {
				*flags |= listEnd
				break gather
			}
			*flags |= listContainsBlock
		case prefixedBlock(chunk, '>') > 0 && indent < 4:
			*flags |= listEnd
			break gather
		case blank && indent < 4:
			if *flags&listDefinition != 0 && i < len(data)-1 {
				next := skipUntil(data, i, '\n')
				for next < len(data)-1 && data[next] == '\n' {
					next++
				}
				if i < len(data)-1 && data[i] != ':' && next < len(data)-1 && data[next] != ':' {
					*flags |= listEnd
				}
			} else {
				*flags |= listEnd
			}
			break gather
		case blank:
			blankLine()
			*flags |= listContainsBlock
		}
		if blank {
			blank = false
			blankLine()
		}
		write(chunk, chunkAt)
		line = i
	}
	itemEnd := len(raw)
	if sublist > 0 {
		itemEnd = sublist
	}
	if *flags&listContainsBlock != 0 && *flags&listTerm == 0 {
		r.sub(raw[:itemEnd], lines)
	}
	if sublist > 0 {
		k := bytes.Count(raw[:sublist], []byte("\n"))
		r.sub(raw[sublist:], lines[min(k, len(lines)):])
	}
	return line
}

func trackListFence(line []byte, indent int, marker *[]byte) (verbatim, endList bool) {
	if *marker != nil && indent > 0 {
		if _, m := fenceLine(line, *marker); m != nil {
			*marker = nil
		}
		return true, false
	}
	*marker = nil
	_, opening := fenceLine(line, nil)
	if opening == nil {
		return false, false
	}
	if indent == 0 {
		return false, true
	}
	*marker = opening
	return false, false
}

// paragraph reads a paragraph, which may end in a setext heading's
// underline, and returns its length.
func (r *mdReader) paragraph(off int, data []byte) int {
	var prev, line, i int
	for i < len(data) {
		prev = line
		current := data[i:]
		line = i
		if n := mdIsEmpty(current); n > 0 {
			if r.tables == nil && i < len(data)-1 && data[i+1] == ':' {
				if n := r.list(off+prev, data[prev:], false, true); n > 0 {
					return prev + n
				}
			}
			return i + n
		}
		if i > 0 {
			if level := underlineLevel(current); level > 0 {
				eol := i - 1
				for prev < eol && data[prev] == ' ' {
					prev++
				}
				for eol > prev && data[eol-1] == ' ' {
					eol--
				}
				r.heading(level, off+prev, data[prev:eol])
				return skipUntil(data, i, '\n')
			}
		}
		if r.interrupts(off+i, current) {
			return i
		}
		if r.tables == nil && dliPrefix(current) != 0 {
			return prev + r.list(off+prev, data[prev:], false, true)
		}
		i = skipN(data, skipUntil(data, i, '\n'), '\n', 1)
	}
	return i
}

func underlineLevel(data []byte) int {
	c := data[0]
	if c != '=' && c != '-' {
		return 0
	}
	i := skipRun(data, 1, c)
	i = skipRun(data, i, ' ')
	if i < len(data) && data[i] == '\n' {
		if c == '=' {
			return 1
		}
		return 2
	}
	return 0
}

func (r *mdReader) interrupts(off int, data []byte) bool {
	if r.isPrefixHeading(data) || isHRule(data) || prefixedBlock(data, '>') > 0 {
		return true
	}
	if beg, _ := fenceLine(data, nil); r.tables == nil && beg > 0 && r.fencedCode(off, data) > 0 {
		return true
	}
	n, _, _ := tableHeader(data)
	return n > 0
}
