package rules

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/internal/mdread"
	"github.com/docscore/docscore/internal/sha256sum"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/text"
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
	// row without a witness, a table in a rule section that lacks the rule
	// columns, a column or a cell that is not read, or a file with no rule
	// section at all.
	Warnings []*inputerr.Error `json:"-"`

	errs     inputerr.List          // Parse's errors, which Check reports too
	src      *ingest.Source         // the normalized text, for the lines of Check's errors
	rowCols  map[int]map[string]int // a row's line → its table's cell index of each column
	rejected []Row                  // rows that did not parse, as far as they read
	prose    []int                  // header lines of rule sections' tables taken for prose

	firstSection, ruleTables int // while parsing
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
// field or form is an error naming the line, and so is a code fence that
// is never closed (a Markdown viewer shows the rest of the file as code,
// which the parser would read as rules). All such errors, every problem of
// every row, are returned together as an inputerr.List in line order.
//
// Parse always returns the file, with the rows that parsed, its digest and
// its warnings, so that a check can report them beside the errors; Check
// reports Parse's errors again together with its own. A file with errors
// must not be scored.
func Parse(name string, src []byte) (*File, error) {
	return parseWith(name, src, mdread.Read)
}

// parseWith is Parse with the Markdown reader given: it reads the headings
// and tables of the normalized source.
func parseWith(name string, src []byte, read func(buf []byte) []mdread.Block) (*File, error) {
	sum := sha256sum.Sum256(src)
	f := &File{Name: name, SHA256: hex.EncodeToString(sum[:])}
	buf := normalize(src)
	text := ingest.OpenBytes(name, buf)
	if e := text.CheckUTF8(); e != nil {
		f.errs = inputerr.List{e}
		return f, f.errs
	}
	f.src = text
	f.readBlocks(text, read(buf))
	f, err := f.finish()
	// Every problem shows its line (and a caret under the cell at fault).
	for _, w := range f.Warnings {
		text.Attach(w)
	}
	return f, text.AttachAll(err)
}

// normalize returns src with LF newlines and no byte-order mark: the reader
// works on LF newlines, and line numbers count them.
func normalize(src []byte) []byte {
	return ingest.StripBOM(mdread.NormalizeNewlines(src))
}

// readBlocks reads the rule sections' tables among the headings and tables
// of a file, and reports unclosed code fences.
func (f *File) readBlocks(text *ingest.Source, blocks []mdread.Block) {
	errs := unclosedFences(f.Name, &text.LineIndex)
	var section Kind
	sectionLevel := 0
	ruleTables := 0
	lines := &text.LineIndex
	for _, b := range blocks {
		if !b.Table {
			kind := sectionKind(strings.ToLower(b.Text))
			switch {
			case kind != "":
				section, sectionLevel = kind, b.Level
				if f.firstSection == 0 {
					f.firstSection = b.Line
				}
			case section != "" && b.Level <= sectionLevel:
				section = ""
			}
			continue
		}
		if section != "" && f.readTable(lines, b, section, &errs) {
			ruleTables++
		}
	}
	f.ruleTables = ruleTables
	f.errs = errs
}

// finish adds the file's warnings and returns its errors.
func (f *File) finish() (*File, error) {
	name, firstSection, ruleTables := f.Name, f.firstSection, f.ruleTables
	errs := f.errs
	f.errs = nil
	switch {
	case firstSection == 0:
		f.Warnings = append(f.Warnings, inputerr.New(name, 1,
			"no rule section: expected a heading with \"ignore\" or \"equivalen\" in it, such as \"## 1. Ignore rules\" or \"## 2. Equivalences\"; no rules read"))
	case ruleTables == 0:
		msg := "no rule table in the rule sections (expected a table with the columns field, token, position, side, status or field, forms, canonical, status); no rules read"
		if len(f.prose) > 0 {
			lines := make([]string, len(f.prose))
			for i, l := range f.prose {
				lines[i] = strconv.Itoa(l)
			}
			msg += "; the table(s) at line(s) " + strings.Join(lines, ", ") + " have none of the rule columns"
		}
		f.Warnings = append(f.Warnings, inputerr.New(name, firstSection, "%s", msg))
	}
	sortByLine(f.Warnings)
	if len(errs) == 0 {
		return f, nil
	}
	sortByLine(errs)
	f.errs = errs
	return f, errs
}

// sortByLine orders problems by line, keeping the order of those on one
// line.
func sortByLine(l inputerr.List) {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Line < l[j].Line })
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

// readTable reads one table of a rule section and reports whether it was
// read as rules: whether it has the section's rule columns.
func (f *File) readTable(lines *ingest.LineIndex, t mdread.Block, kind Kind, errs *inputerr.List) bool {
	headerLine := t.Line
	warn := func(line int, format string, args ...any) {
		f.Warnings = append(f.Warnings, inputerr.New(f.Name, line, format, args...))
	}
	cols := map[string]int{}
	var unknown, unread []string
	header := make([]string, len(t.Header))
	for i, c := range t.Header {
		header[i] = strings.TrimSpace(c)
		canon, ok := columnSynonyms[strings.ToLower(header[i])]
		switch {
		case !ok:
			unknown = append(unknown, strconv.Quote(header[i]))
		case !usedBy(kind, canon):
			unread = append(unread, fmt.Sprintf("column %q does not apply to %s rows", header[i], kind))
		default:
			if prev, dup := cols[canon]; dup {
				unread = append(unread, fmt.Sprintf("column %q repeats column %q", header[i], header[prev]))
			} else {
				cols[canon] = i
			}
		}
	}
	var missing []string
	for _, need := range neededColumns[kind] {
		if _, ok := cols[need]; !ok {
			if need == "forms" {
				need = formsColumn(kind)
			}
			missing = append(missing, need)
		}
	}
	if len(missing) > 0 {
		// Only tables with the rule columns are rules: another table in a
		// rule section is prose, left alone (SPEC A.5). One with a rule
		// column, or a name close to one, is likely a mistake (an
		// equivalence table under an ignore heading, a misspelt header):
		// say so. Parse names the others when no table is read at all.
		if !ruleLike(header) {
			f.prose = append(f.prose, headerLine)
			return false
		}
		msg := fmt.Sprintf("table in an %s section lacks the column(s) %s; not read as rules", kind, strings.Join(missing, ", "))
		if len(unknown) > 0 {
			msg += fmt.Sprintf(" (unknown column(s) %s)", strings.Join(unknown, ", "))
		}
		warn(headerLine, "%s", msg)
		return false
	}
	if len(unknown) > 0 {
		warn(headerLine, "unknown column(s) %s in an %s table (expected %s); not read", strings.Join(unknown, ", "), kind, knownColumns(kind))
	}
	for _, u := range unread {
		warn(headerLine, "%s; not read", u)
	}
	for _, r := range t.Rows {
		line := r.Line
		if f.rowCols == nil {
			f.rowCols = map[int]map[string]int{}
		}
		f.rowCols[line] = cols
		cell := func(col string) string {
			i, ok := cols[col]
			if !ok || i >= len(r.Cells) {
				return ""
			}
			return strings.TrimSpace(r.Cells[i])
		}
		text := lines.Line(line)
		starts := cellStarts(text)
		// column is where the cell of col starts on the line, in
		// characters; the line's end for a cell the row lacks.
		column := func(col string) int {
			off := len(text)
			if i, ok := cols[col]; ok && i < len(starts) {
				off = starts[i]
			}
			return utf8.RuneCount(text[:off]) + 1
		}
		if extra := extraCells(text, len(t.Header)); len(extra) > 0 {
			e := inputerr.New(f.Name, line, "row has %d cell(s) more than the header's %d; not read: %s", len(extra), len(t.Header), strings.Join(extra, ", "))
			if len(t.Header) < len(starts) {
				e.Column = utf8.RuneCount(text[:starts[len(t.Header)]]) + 1
			}
			f.Warnings = append(f.Warnings, e)
		}
		row, rowErrs := parseRow(f.Name, line, kind, cell, column)
		if len(rowErrs) > 0 {
			*errs = append(*errs, rowErrs...)
			f.rejected = append(f.rejected, row)
			continue
		}
		if row.Status == Settled && row.Witness == "" {
			warn(line, "settled row without a witness") // the line shows; the cell is often absent
		}
		f.Rows = append(f.Rows, row)
	}
	return true
}

// ruleLike reports whether a header has a rule column, or a name within
// two edits of one (such as "fild" or "postion"): whether a table that is
// not read as rules was likely meant to be.
func ruleLike(header []string) bool {
	for _, h := range header {
		h = strings.ToLower(h)
		if _, ok := columnSynonyms[h]; ok {
			return true
		}
		for known := range columnSynonyms {
			if len(h) > 2 && text.Levenshtein(h, known) <= 2 {
				return true
			}
		}
	}
	return false
}

// usedBy reports whether a column (by its canonical name) is read in a
// table of kind.
func usedBy(kind Kind, col string) bool {
	switch col {
	case "canonical":
		return kind == Equivalence
	case "position", "side":
		return kind == Ignore
	}
	return true
}

// knownColumns lists the columns a table of kind reads, for messages.
func knownColumns(kind Kind) string {
	if kind == Ignore {
		return "field, token, position, side, status or witness"
	}
	return "field, forms, canonical, status or witness"
}

// parseRow validates and converts one table row. It reports every problem
// of the row; with problems, the row holds what could be read (the field
// list, the forms, the cells as written) for Check and for messages.
func parseRow(file string, line int, kind Kind, cell func(string) string, column func(string) int) (Row, inputerr.List) {
	row := Row{Kind: kind, Line: line, Witness: cell("witness")}
	var errs inputerr.List
	// bad reports a problem with the cell of column col.
	bad := func(col, format string, args ...any) {
		e := inputerr.New(file, line, format, args...)
		e.Column = column(col)
		errs = append(errs, e)
	}
	for _, fld := range strings.Split(cell("field"), ",") {
		if fld = strings.TrimSpace(fld); fld != "" {
			row.Fields = append(row.Fields, strings.ToLower(fld))
		}
	}
	if len(row.Fields) == 0 {
		bad("field", "expected a field name, a comma-separated list of fields, or *")
	}
	forms := cell("forms")
	if forms == "" {
		bad("forms", "expected at least one form in the %s column", formsColumn(kind))
	} else {
		empty := false
		for _, form := range strings.Split(forms, " / ") {
			if form = strings.TrimSpace(form); form != "" {
				row.Forms = append(row.Forms, form)
			} else {
				empty = true
			}
		}
		if empty {
			bad("forms", "empty form in %q (forms are separated by \" / \")", forms)
		}
	}
	if kind == Equivalence {
		row.Canonical = cell("canonical")
		if row.Canonical == "" {
			bad("canonical", "expected a canonical form")
		}
	} else {
		row.Position, row.Side = readPositionSide(cell, bad)
	}
	// Problems are reported in the order of SPEC A.5's columns.
	switch status := cell("status"); strings.ToLower(status) {
	case "settled":
		row.Status = Settled
	case "open":
		row.Status = Open
	default:
		row.Status = Status(status)
		bad("status", "unknown status %q (expected settled or OPEN)", status)
	}
	return row, errs
}

// readPositionSide reads an ignore row's position and side; an unknown one
// is reported to bad and kept as written.
func readPositionSide(cell func(string) string, bad func(string, string, ...any)) (Position, Side) {
	pos := Position(strings.ToLower(cell("position")))
	switch pos {
	case Leading, Trailing, Anywhere:
	default:
		pos = Position(cell("position"))
		bad("position", "unknown position %q (expected leading, trailing or anywhere)", cell("position"))
	}
	side := Side(strings.ToLower(cell("side")))
	switch side {
	case ModelSide, BothSides:
	default:
		side = Side(cell("side"))
		bad("side", "unknown side %q (expected model or both)", cell("side"))
	}
	return pos, side
}

func formsColumn(kind Kind) string {
	if kind == Ignore {
		return "token"
	}
	return "forms"
}

// String renders the row roughly as it reads in the file, for messages.
func (r Row) String() string {
	if r.Kind == Equivalence {
		return fmt.Sprintf("%s | %s | %s | %s", strings.Join(r.Fields, ", "), strings.Join(r.Forms, " / "), r.Canonical, r.Status)
	}
	return fmt.Sprintf("%s | %s | %s | %s | %s", strings.Join(r.Fields, ", "), strings.Join(r.Forms, " / "), r.Position, r.Side, r.Status)
}
