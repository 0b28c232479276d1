package tabularread

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/text"
)

// GTRow is one ground-truth row.
type GTRow struct {
	Line   int      // 1-based line in its file
	Key    string   // the key column (a name), as written
	Values []string // the scored columns, in schema order
}

// GTPage is the ground truth of one page.
type GTPage struct {
	ID   string // page id, from the file name or the page column
	File string // the file it came from
	Rows []GTRow
}

// PageIDFromName returns the page id a ground-truth file name carries:
// "NN" for gt_page_NN.csv, else the name without its extension.
func PageIDFromName(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	if id, ok := gtPageID(base); ok {
		return id
	}
	return strings.TrimSuffix(base, path.Ext(base))
}

// gtPageID returns NN for a base name gt_page_NN.csv, in any case, NN
// not empty and without a newline: what the pattern (?i)^gt_page_(.+)\.csv$
// accepts, where "s" also matches the long s (U+017F) as Unicode case
// folding has it.
func gtPageID(base string) (string, bool) {
	const prefix = "gt_page_"
	if len(base) < len(prefix) || !strings.EqualFold(base[:len(prefix)], prefix) {
		return "", false
	}
	rest := base[len(prefix):]
	var n int
	switch {
	case len(rest) >= 4 && strings.EqualFold(rest[len(rest)-4:], ".csv"):
		n = 4
	case len(rest) >= 5 && strings.EqualFold(rest[len(rest)-5:], ".c\u017fv"):
		n = 5
	default:
		return "", false
	}
	id := rest[:len(rest)-n]
	if id == "" || strings.ContainsRune(id, '\n') {
		return "", false
	}
	return id, true
}

// maxRowErrors bounds the row errors ReadGT reports at once.
const maxRowErrors = 50

// ReadGT reads one ground-truth CSV (UTF-8, optional BOM, RFC 4180, a
// header row) for schema s. name is used for errors and for the page id; a
// non-blank page cell assigns its row to that page, so one file may hold
// several pages. Rows whose cells are all blank are skipped; a file with no
// other rows gives its page with no rows. Two rows of a page may not share
// a name.
func ReadGT(name string, data []byte, s *schema.Schema) (_ []*GTPage, err error) {
	src, err := ingest.Open(name, data)
	if err != nil {
		return nil, err
	}
	defer func() { src.AttachAll(err) }() // every error shows its line
	data = src.Bytes()
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	// cell places an error at field i of the record just read; csv
	// counts columns in bytes, errors in characters.
	cell := func(i int, format string, args ...any) *inputerr.Error {
		line, col := r.FieldPos(i)
		return src.ErrorAtLine(line, runeColumn(src, line, col), format, args...)
	}
	header, err := r.Read()
	if err == io.EOF {
		return nil, inputerr.New(name, 1, "expected a header row with the columns %s, %s", s.Key, strings.Join(columnNames(s), ", "))
	}
	if err != nil {
		return nil, csvError(src, err)
	}
	colIndex := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if _, dup := colIndex[h]; dup && h != "" {
			return nil, cell(i, "column %q appears twice in the header", h)
		}
		colIndex[h] = i
	}
	var missing []string
	keyCol, ok := colIndex[s.Key]
	if !ok {
		missing = append(missing, s.Key)
	}
	cols := make([]int, len(s.Columns))
	for i, c := range s.Columns {
		j, ok := colIndex[c.Name]
		if !ok {
			missing = append(missing, c.Name)
		}
		cols[i] = j
	}
	if len(missing) > 0 {
		return nil, src.ErrorAtLine(1, 1, "header lacks the column(s) %s (expected %s, %s)", strings.Join(missing, ", "), s.Key, strings.Join(columnNames(s), ", "))
	}
	pageCol, hasPage := colIndex["page"]
	defaultID := PageIDFromName(name)

	pages := map[string]*GTPage{}
	var order []string
	seen := map[string]map[string]int{} // page → normalized name → line
	// A row's error does not stop the reading: every row's is reported at
	// once (up to maxRowErrors), as the page shows them. A CSV syntax error
	// ends it, the reader's place being lost.
	var errs inputerr.List
	for len(errs) < maxRowErrors {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			ce := csvError(src, err)
			e, ok := ce.(*inputerr.Error)
			if !ok || len(errs) == 0 {
				return nil, ce
			}
			errs = append(errs, e)
			break
		}
		line, _ := r.FieldPos(0)
		if allBlank(rec) {
			continue
		}
		if len(rec) != len(header) {
			// at the first cell too many, or the last of too few
			at := len(rec) - 1
			if len(rec) > len(header) {
				at = len(header)
			}
			errs = append(errs, cell(at, "expected %d cells as in the header, found %d", len(header), len(rec)))
			continue
		}
		id := defaultID
		if hasPage && !text.IsBlank(rec[pageCol]) {
			id = strings.TrimSpace(rec[pageCol])
		}
		p := pages[id]
		if p == nil {
			p = &GTPage{ID: id, File: name}
			pages[id] = p
			order = append(order, id)
			seen[id] = map[string]int{}
		}
		row := GTRow{Line: line, Key: rec[keyCol], Values: make([]string, len(cols))}
		for i, j := range cols {
			row.Values[i] = rec[j]
		}
		if norm := text.NormalizeName(row.Key); norm != "" {
			if prev, dup := seen[id][norm]; dup {
				errs = append(errs, cell(keyCol, "name %q repeats the row at line %d on page %s (no two ground-truth rows of a page may share a name)", row.Key, prev, id))
				continue
			}
			seen[id][norm] = line
		}
		p.Rows = append(p.Rows, row)
	}
	switch len(errs) {
	case 0:
	case 1:
		return nil, errs[0]
	default:
		return nil, errs
	}
	if len(order) == 0 {
		// A file with a header and no rows is a page with no records.
		return []*GTPage{{ID: defaultID, File: name}}, nil
	}
	out := make([]*GTPage, len(order))
	for i, id := range order {
		out[i] = pages[id]
	}
	return out, nil
}

//go:noinline
func columnNames(s *schema.Schema) []string {
	out := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		out[i] = c.Name
	}
	return out
}

func allBlank(rec []string) bool {
	for _, c := range rec {
		if !text.IsBlank(c) {
			return false
		}
	}
	return true
}

func csvError(src *ingest.Source, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if line, col, ok := openQuote(src, pe.StartLine); ok && errors.Is(pe.Err, csv.ErrQuote) {
			return src.ErrorAtLine(line, col, "expected RFC 4180 CSV: the quoted field that starts here is never closed (%v)", pe.Err)
		}
		return src.ErrorAtLine(pe.Line, runeColumn(src, pe.Line, pe.Column), "expected RFC 4180 CSV: %v", pe.Err)
	}
	return inputerr.New(src.Name(), 0, "expected CSV: %v", err)
}

// runeColumn turns a 1-based byte column of line, as encoding/csv counts
// it, into a column in characters.
func runeColumn(src *ingest.Source, line, byteCol int) int {
	text := src.Line(line)
	return utf8.RuneCount(text[:min(max(byteCol-1, 0), len(text))]) + 1
}

// openQuote finds the quote that opens a field never closed in the
// record starting at line start (1-based) of a CSV: its line and column.
// ok is false when the record has no such field.
func openQuote(src *ingest.Source, start int) (line, col int, ok bool) {
	data := src.Bytes()
	if start > src.NumLines() {
		return 0, 0, false
	}
	off := src.Offset(start, 1)
	fieldStart, quoted, open := true, false, 0
	for i := off; i < len(data); i++ {
		c := data[i]
		switch {
		case quoted:
			if c == '"' {
				if i+1 < len(data) && data[i+1] == '"' {
					i++
				} else {
					quoted = false
				}
			}
		case c == ',':
			fieldStart = true
		case c == '\n':
			return 0, 0, false // the record ended with its quotes closed
		case fieldStart && c == '"':
			quoted, open, fieldStart = true, i, false
		default:
			fieldStart = false
		}
	}
	if !quoted {
		return 0, 0, false
	}
	line, col = src.Position(open)
	return line, col, true
}

// MergePages combines the pages of several files; a page id given by two
// files is an error.
func MergePages(sets ...[]*GTPage) ([]*GTPage, error) {
	byID := map[string]*GTPage{}
	var out []*GTPage
	for _, set := range sets {
		for _, p := range set {
			if prev, ok := byID[p.ID]; ok {
				return nil, inputerr.New(p.File, 0, "page %s is also given by %s", p.ID, prev.File)
			}
			byID[p.ID] = p
			out = append(out, p)
		}
	}
	return out, nil
}

// PageKey returns the integer form of a page id when it has one, so that
// "7" and "07" name the same page.
func PageKey(id string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(id), 10, 64)
	return n, err == nil
}
