package rules

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gomarkdown/markdown/ast"
	"github.com/gomarkdown/markdown/parser"

	"github.com/docscore/docscore/rules/internal/sha256sum"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// Kind is the kind of a rule row.
type Kind string

// The row kinds.
const (
	Ignore      Kind = "ignore"      // section 1: tokens to step over
	Equivalence Kind = "equivalence" // section 2: forms with one canonical
)

// Status says whether a row is applied.
type Status string

// The row statuses.
const (
	Settled Status = "settled" // applied
	Open    Status = "OPEN"    // parsed and checked, applied only in a preview
)

// Position says where an ignore row's token is removed.
type Position string

// The ignore positions.
const (
	Leading  Position = "leading"
	Trailing Position = "trailing"
	Anywhere Position = "anywhere"
)

// Side says which values an ignore row applies to.
type Side string

// The ignore sides.
const (
	ModelSide Side = "model" // model values only
	BothSides Side = "both"  // ground truth and model values
)

// Row is one rule row as written in the file.
type Row struct {
	Kind      Kind     `json:"kind"`
	Line      int      `json:"line"`
	Fields    []string `json:"fields"`              // field names, or "*"
	Forms     []string `json:"forms"`               // the token / forms cell split on " / "
	Canonical string   `json:"canonical,omitempty"` // equivalences only
	Position  Position `json:"position,omitempty"`  // ignore rows only
	Side      Side     `json:"side,omitempty"`      // ignore rows only
	Status    Status   `json:"status"`
	Witness   string   `json:"witness"`
}

// File is a parsed rule file.
type File struct {
	Name   string `json:"file"`
	SHA256 string `json:"sha256"` // of the bytes as given
	Rows   []Row  `json:"rows"`
	// Warnings are problems that do not stop scoring, such as a settled
	// row without a witness or a table that lacks the rule columns.
	Warnings []*inputerr.Error `json:"-"`
}

// Count returns how many rows have the given status.
func (f *File) Count(s Status) int {
	n := 0
	for _, r := range f.Rows {
		if r.Status == s {
			n++
		}
	}
	return n
}

// columns needed by each section kind; synonyms map onto the first name.
var (
	neededColumns = map[Kind][]string{
		Ignore:      {"field", "forms", "position", "side", "status"},
		Equivalence: {"field", "forms", "canonical", "status"},
	}
	columnSynonyms = map[string]string{
		"token": "forms", "tokens": "forms", "form": "forms", "forms": "forms",
		"field": "field", "fields": "field",
		"canonical": "canonical", "position": "position", "side": "side",
		"status": "status", "witness": "witness",
	}
)

// Parse reads a rule file. name is used in errors and warnings. Every row
// of a rule table is parsed; an unknown position, side or status, an empty
// field or form is an error naming the line. All such errors are returned
// together as an inputerr.List.
func Parse(name string, src []byte) (*File, error) {
	sum := sha256sum.Sum256(src)
	f := &File{Name: name, SHA256: hex.EncodeToString(sum[:])}
	// The parser works on LF newlines; normalizing first keeps line numbers
	// and lets literals be located in the buffer we hold.
	buf := bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	buf = bytes.ReplaceAll(buf, []byte("\r"), []byte("\n"))
	buf = ingest.StripBOM(buf)
	if !isValidUTF8(buf) {
		line := 1 + bytes.Count(buf[:firstInvalidUTF8(buf)], []byte("\n"))
		return nil, inputerr.List{inputerr.New(name, line, "expected UTF-8 text")}
	}
	// A parser is single-use; MathJax is off so that "$" survives.
	p := parser.NewWithExtensions(parser.CommonExtensions &^ parser.MathJax)
	doc := p.Parse(buf)

	var errs inputerr.List
	var section Kind
	sectionLevel := 0
	loc := newLocator(buf)
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
			title := strings.ToLower(nodeText(n))
			kind := sectionKind(title)
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
			if section != "" {
				f.readTable(loc, n, section, &errs)
			}
			// The walk goes on into the table so that loc passes its lines.
			return ast.GoToNext
		}
		return ast.GoToNext
	})
	if len(errs) > 0 {
		return nil, errs
	}
	return f, nil
}

// sectionKind returns the kind of section a heading opens, or "".
func sectionKind(title string) Kind {
	switch {
	case strings.Contains(title, "ignore"):
		return Ignore
	case strings.Contains(title, "equivalen"):
		return Equivalence
	}
	return ""
}

// readTable reads one table of a rule section.
func (f *File) readTable(loc *locator, t *ast.Table, kind Kind, errs *inputerr.List) {
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
		return
	}
	headerLine := nodeLine(src, headerRow)
	if headerLine == 0 {
		// A table in a block quote is parsed from a copy of its text.
		headerLine = loc.search(headerRow)
	}
	cols := map[string]int{}
	for i, c := range headerRow.Children {
		h := strings.ToLower(strings.TrimSpace(nodeText(c)))
		if canon, ok := columnSynonyms[h]; ok {
			if _, dup := cols[canon]; !dup {
				cols[canon] = i
			}
		}
	}
	var missing []string
	for _, need := range neededColumns[kind] {
		if _, ok := cols[need]; !ok {
			missing = append(missing, need)
		}
	}
	if len(missing) > 0 {
		// Only tables with the rule columns are rules; prose tables in a
		// rule section are left alone (SPEC A.5). A table with some rule
		// columns but not all is likely a mistake (an equivalence table
		// under an ignore heading): say so.
		if len(neededColumns[kind])-len(missing) >= 2 {
			f.Warnings = append(f.Warnings, inputerr.New(f.Name, headerLine,
				"table in an %s section lacks the column(s) %s; not read as rules", kind, strings.Join(missing, ", ")))
		}
		return
	}
	// Pipe-table rows are one line each, right after the delimiter row.
	loc.pass(headerLine + 1 + len(rows))
	for k, r := range rows {
		line := nodeLine(src, r)
		if line == 0 && headerLine > 0 {
			line = headerLine + 2 + k
		}
		cell := func(col string) string {
			i, ok := cols[col]
			if !ok || i >= len(r.Children) {
				return ""
			}
			return strings.TrimSpace(nodeText(r.Children[i]))
		}
		if row, err := parseRow(f.Name, line, kind, cell); err != nil {
			*errs = append(*errs, err)
		} else {
			if row.Status == Settled && row.Witness == "" {
				f.Warnings = append(f.Warnings, inputerr.New(f.Name, line, "settled row without a witness"))
			}
			f.Rows = append(f.Rows, row)
		}
	}
}

// parseRow validates and converts one table row.
func parseRow(file string, line int, kind Kind, cell func(string) string) (Row, *inputerr.Error) {
	row := Row{Kind: kind, Line: line, Witness: cell("witness")}
	bad := func(format string, args ...any) (Row, *inputerr.Error) {
		return Row{}, inputerr.New(file, line, format, args...)
	}
	for _, fld := range strings.Split(cell("field"), ",") {
		if fld = strings.TrimSpace(fld); fld != "" {
			row.Fields = append(row.Fields, strings.ToLower(fld))
		}
	}
	if len(row.Fields) == 0 {
		return bad("expected a field name, a comma-separated list of fields, or *")
	}
	forms := cell("forms")
	if forms == "" {
		return bad("expected at least one form in the %s column", formsColumn(kind))
	}
	for _, form := range strings.Split(forms, " / ") {
		form = strings.TrimSpace(form)
		if form == "" {
			return bad("empty form in %q (forms are separated by \" / \")", forms)
		}
		row.Forms = append(row.Forms, form)
	}
	switch strings.ToLower(cell("status")) {
	case "settled":
		row.Status = Settled
	case "open":
		row.Status = Open
	default:
		return bad("unknown status %q (expected settled or OPEN)", cell("status"))
	}
	if kind == Equivalence {
		row.Canonical = cell("canonical")
		if row.Canonical == "" {
			return bad("expected a canonical form")
		}
		return row, nil
	}
	switch Position(strings.ToLower(cell("position"))) {
	case Leading, Trailing, Anywhere:
		row.Position = Position(strings.ToLower(cell("position")))
	default:
		return bad("unknown position %q (expected leading, trailing or anywhere)", cell("position"))
	}
	switch Side(strings.ToLower(cell("side"))) {
	case ModelSide, BothSides:
		row.Side = Side(strings.ToLower(cell("side")))
	default:
		return bad("unknown side %q (expected model or both)", cell("side"))
	}
	return row, nil
}

func formsColumn(kind Kind) string {
	if kind == Ignore {
		return "token"
	}
	return "forms"
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
// are therefore not slices of it. It follows the walk, passing the lines of
// every node it finds in the source, and searches for such a table's
// header from the first line not yet passed.
type locator struct {
	src    []byte
	starts []int // offset of the first byte of each line
	passed int   // how many lines the walk has passed
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

// lineOf returns the 1-based line holding offset off.
func (l *locator) lineOf(off int) int {
	return sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off })
}

// pass records that the walk is past line n.
func (l *locator) pass(n int) {
	l.passed = max(l.passed, min(n, len(l.starts)))
}

// seen passes the lines of node. A literal that is a slice of the source is
// placed exactly. A code block is parsed from a copy (a fenced block, or
// one in a block quote); its last line is searched for from the first line
// not yet passed, which can only place it at or before its real line.
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

// search returns the 1-based line of the first line not yet passed that
// holds the text and code literals of row in order, and passes it. When no
// line does, it returns the last line passed: an approximation, but a line
// of the file.
func (l *locator) search(row ast.Node) int {
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
	for i := l.passed; i < len(l.starts) && len(lits) > 0; i++ {
		end := len(l.src)
		if i+1 < len(l.starts) {
			end = l.starts[i+1]
		}
		if holdsInOrder(l.src[l.starts[i]:end], lits) {
			l.pass(i + 1)
			return i + 1
		}
	}
	return max(l.passed, 1)
}

// holdsInOrder reports whether every literal occurs in line, each after the
// previous one.
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

// nodeLine finds the 1-based source line of n from the first text literal
// under it that is a slice of src (the parser slices its input rather than
// copying it). It returns 0 when no literal can be located.
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

// offsetIn returns the offset of sub within src when sub is a subslice of
// src, found from the slices' capacities (no unsafe pointer arithmetic) and
// confirmed by comparing the addresses of the first bytes: a copy that
// happens to hold the same bytes at that offset is not a match.
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

func isValidUTF8(b []byte) bool { return utf8.Valid(b) }

// firstInvalidUTF8 returns the offset of the first byte that is not part of
// valid UTF-8, or -1.
func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// String renders the row roughly as it reads in the file, for messages.
func (r Row) String() string {
	if r.Kind == Equivalence {
		return fmt.Sprintf("%s | %s | %s | %s", strings.Join(r.Fields, ", "), strings.Join(r.Forms, " / "), r.Canonical, r.Status)
	}
	return fmt.Sprintf("%s | %s | %s | %s | %s", strings.Join(r.Fields, ", "), strings.Join(r.Forms, " / "), r.Position, r.Side, r.Status)
}
