package rules

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/text"
)

// Check returns every error of f in line order: the errors Parse found
// (rows that do not parse, a code fence never closed), then the checks of
// the rows against a schema: every field exists and is
// one rules can apply to (the key column for ignore rows, text columns for
// both kinds), and no form maps to two canonicals for one field. When gt is
// not nil it maps column names to that column's ground-truth values, and a
// model-side ignore that would remove something from one of those values is
// an error: a model value identical to it would be changed, splitting an
// identical pair. The test honours the row's position ("in" leading does
// not fire on "Casa di … in Ghetto"). Settled and OPEN rows alike are checked,
// and the field list of a row that did not parse is checked too, so that one
// pass reports every problem. Errors name the file, line and row.
func Check(f *File, s *schema.Schema, gt map[string][]string) inputerr.List {
	errs := append(inputerr.List(nil), f.errs...)
	// bad reports a problem of row r with the caret under what, the
	// first occurrence of that text in the row's cell of column col.
	bad := func(r Row, col, what string, format string, args ...any) {
		e := inputerr.New(f.Name, r.Line, "%s (row: %s)", fmt.Sprintf(format, args...), r)
		if f.src != nil {
			e.Source = f.src.LineText(r.Line)
			e.Column = f.cellColumn(r.Line, col, what)
		}
		errs = append(errs, e)
	}
	for _, r := range f.rejected {
		if _, err, fld := resolveFields(r, s); err != "" && len(r.Fields) > 0 {
			bad(r, "field", fld, "%s", err)
		}
	}
	type mapping struct {
		canonical string
		line      int
	}
	seen := map[string]map[string]mapping{} // field → normalized form → canonical
	for _, r := range f.Rows {
		fields, err, culprit := resolveFields(r, s)
		if err != "" {
			bad(r, "field", culprit, "%s", err)
			continue
		}
		for _, fld := range fields {
			kind := fieldKind(s, fld)
			if r.Kind == Equivalence {
				canon := strings.Join(formTokens(r.Canonical, kind), " ")
				if canon == "" {
					bad(r, "canonical", r.Canonical, "canonical %q is empty after normalization", r.Canonical)
					continue
				}
				if seen[fld] == nil {
					seen[fld] = map[string]mapping{}
				}
				for _, form := range r.Forms {
					key := strings.Join(formTokens(form, kind), " ")
					if key == "" {
						bad(r, "forms", form, "form %q is empty after normalization", form)
						continue
					}
					if prev, ok := seen[fld][key]; ok && prev.canonical != canon {
						bad(r, "forms", form, "form %q of field %s maps to %q here and to %q at line %d", form, fld, canon, prev.canonical, prev.line)
						continue
					}
					if _, ok := seen[fld][key]; !ok {
						seen[fld][key] = mapping{canon, r.Line}
					}
				}
				continue
			}
			for _, form := range r.Forms {
				toks := formTokens(form, kind)
				if len(toks) == 0 {
					bad(r, "forms", form, "token %q is empty after normalization", form)
					continue
				}
				if r.Side != ModelSide || gt == nil {
					continue
				}
				for _, v := range gt[fld] {
					if firesOn(valueTokens(v, kind), toks, r.Position) {
						bad(r, "forms", form, "model-side ignore %q (%s) of field %s matches the ground truth %q: it would split identical pairs", form, r.Position, fld, v)
						break
					}
				}
			}
		}
	}
	sortByLine(errs)
	return errs
}

// resolveFields expands a row's field list against the schema, or explains
// why it cannot and names the field at fault.
func resolveFields(r Row, s *schema.Schema) (fields []string, problem, culprit string) {
	var out []string
	for _, fld := range r.Fields {
		if fld == "*" {
			out = append(out, s.TextColumns()...)
			continue
		}
		if fld == s.Key {
			if r.Kind == Equivalence {
				return nil, fmt.Sprintf("equivalences do not apply to the key field %s (only ignore rows do)", fld), fld
			}
			out = append(out, fld)
			continue
		}
		i := s.Index(fld)
		if i < 0 {
			return nil, fmt.Sprintf("unknown field %q (expected %s, %s or *)", fld, s.Key, strings.Join(columnNames(s), ", ")), fld
		}
		if !s.Columns[i].Kind.IsText() {
			return nil, fmt.Sprintf("field %s is of kind %s; rules apply only to text, date and place columns and to %s", fld, s.Columns[i].Kind, s.Key), fld
		}
		out = append(out, fld)
	}
	return dedupe(out), "", ""
}

// cellColumn is the 1-based column, in characters, of the first
// occurrence of what in the cell of column col on a row's line, split as
// the parser split it; 0 when the row, its cell or the text is not found.
func (f *File) cellColumn(line int, col, what string) int {
	i, ok := f.rowCols[line][col]
	text := f.src.Line(line)
	cells := splitCells(text)
	if !ok || i >= len(cells) || what == "" {
		return 0
	}
	off := bytes.Index(text[cells[i].start:], []byte(what))
	if off < 0 {
		return 0
	}
	return utf8.RuneCount(text[:cells[i].start+off]) + 1
}

func columnNames(s *schema.Schema) []string {
	out := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		out[i] = c.Name
	}
	return out
}

func dedupe(in []string) []string {
	out := in[:0]
	seen := map[string]bool{}
	for _, v := range in {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// keyKind marks the key column in fieldKind.
const keyKind schema.Kind = "key"

func fieldKind(s *schema.Schema, fld string) schema.Kind {
	if fld == s.Key {
		return keyKind
	}
	if i := s.Index(fld); i >= 0 {
		return s.Columns[i].Kind
	}
	return schema.Text
}

// firesOn reports whether an ignore of form at position would remove
// something from toks: then a model value identical to this ground truth
// would be changed and the pair split.
func firesOn(toks, form []string, pos Position) bool {
	switch pos {
	case Leading:
		return text.HasTokenPrefix(toks, form)
	case Trailing:
		return text.HasTokenSuffix(toks, form)
	}
	return text.IndexTokens(toks, form, 0) >= 0
}

// Selection chooses the OPEN rows a preview switches on.
type Selection struct {
	All   bool  // every OPEN row
	Lines []int // the OPEN rows at these lines
}

// IsZero reports whether the selection switches nothing on.
func (s Selection) IsZero() bool { return !s.All && len(s.Lines) == 0 }

// ParseSelection reads a --preview value: "open" (or "all") for every OPEN
// row, or a comma-separated list of the rows' line numbers.
func ParseSelection(v string) (Selection, error) {
	v = strings.TrimSpace(v)
	switch strings.ToLower(v) {
	case "":
		return Selection{}, nil
	case "open", "all":
		return Selection{All: true}, nil
	}
	var sel Selection
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "L")
		n, err := strconv.Atoi(part)
		if err != nil || n <= 0 {
			return Selection{}, fmt.Errorf("preview %q: expected \"open\" or a comma-separated list of OPEN rows' line numbers", v)
		}
		sel.Lines = append(sel.Lines, n)
	}
	sort.Ints(sel.Lines)
	return sel, nil
}

// Active returns the rows that apply under sel: every settled row, plus
// the OPEN rows sel switches on (returned also as previewed, in file
// order). Choosing a line that holds no OPEN row is an error.
func (f *File) Active(sel Selection) (active, previewed []Row, err error) {
	chosen := map[int]bool{}
	for _, l := range sel.Lines {
		chosen[l] = true
	}
	for _, r := range f.Rows {
		switch {
		case r.Status == Settled:
			active = append(active, r)
		case sel.All || chosen[r.Line]:
			active = append(active, r)
			previewed = append(previewed, r)
			delete(chosen, r.Line)
		}
	}
	if len(chosen) > 0 {
		lines := make([]int, 0, len(chosen))
		for l := range chosen {
			lines = append(lines, l)
		}
		sort.Ints(lines)
		var open []string
		for _, r := range f.Rows {
			if r.Status == Open {
				open = append(open, strconv.Itoa(r.Line))
			}
		}
		where := "OPEN rows are at lines " + strings.Join(open, ", ")
		if len(open) == 0 {
			where = "the file has no OPEN rows"
		}
		return nil, nil, inputerr.New(f.Name, lines[0], "no OPEN row at line %d to preview (%s)", lines[0], where)
	}
	return active, previewed, nil
}

// WithoutBadRows returns f without the rows that have an error (those
// Parse rejected and those Check, against s, finds wrong), and those
// errors in line order, so that a scoring that leaves bad rows out can
// apply the others (--skip-bad-inputs). ok is false when an error is on no
// row (a code fence never closed, text that is not UTF-8): no row of the
// file can then be trusted, and good is nil. A file without errors is
// returned as it is.
func (f *File) WithoutBadRows(s *schema.Schema) (good *File, errs inputerr.List, ok bool) {
	errs = Check(f, s, nil)
	if len(errs) == 0 {
		return f, nil, true
	}
	rows := map[int]bool{}
	for _, r := range f.Rows {
		rows[r.Line] = true
	}
	for _, r := range f.rejected {
		rows[r.Line] = true
	}
	bad := map[int]bool{}
	for _, e := range errs {
		if !rows[e.Line] {
			return nil, errs, false
		}
		bad[e.Line] = true
	}
	g := *f
	g.Rows, g.errs, g.rejected = nil, nil, nil
	for _, r := range f.Rows {
		if !bad[r.Line] {
			g.Rows = append(g.Rows, r)
		}
	}
	// Leaving rows out removes conflicts, never makes one; checked again
	// all the same, so that what is returned scores.
	if again := Check(&g, s, nil); len(again) > 0 {
		return nil, append(errs, again...), false
	}
	return &g, errs, true
}
