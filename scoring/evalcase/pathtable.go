package evalcase

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"

	"github.com/docscore/docscore/scoring/inputerr"
)

// Field is one annotated field of a reference: a canonical path and the
// value expected there.
type Field struct {
	Path  string
	Value any
}

// Column synonyms of a path/value table, in order of preference.
var (
	pathColumns     = []string{"path", "field_path"}
	expectedColumns = []string{"expected", "expected_value", "value"}
)

// PathTable reads the fields of a path/value CSV (or TSV) reference whose
// text is text. isTable is false when the header lacks a path or an
// expected column: an ordinary table. A row that cannot be read is an
// input error naming the reference and the line.
func PathTable(text string, ref ReferenceArtifact) (fields []Field, isTable bool, err error) {
	name := ref.Path
	if name == "" {
		name = ref.ArtifactID
	}
	r := csv.NewReader(strings.NewReader(text))
	if ref.MediaType == "text/tab-separated-values" {
		r.Comma = '\t'
	}
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err == io.EOF {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, csvError(name, err)
	}
	pathCol, expCol := -1, -1
	for _, want := range pathColumns {
		if pathCol < 0 {
			pathCol = columnIndex(header, want)
		}
	}
	for _, want := range expectedColumns {
		if expCol < 0 {
			expCol = columnIndex(header, want)
		}
	}
	if pathCol < 0 || expCol < 0 {
		return nil, false, nil
	}
	seen := map[string]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, true, csvError(name, err)
		}
		line, _ := r.FieldPos(0)
		if allBlank(rec) {
			continue
		}
		if pathCol >= len(rec) || strings.TrimSpace(rec[pathCol]) == "" {
			return nil, true, inputerr.New(name, line, "expected a field path in column %q", header[pathCol])
		}
		p, err := CanonicalPath(rec[pathCol])
		if err != nil {
			return nil, true, inputerr.New(name, line, "%v", err)
		}
		if prev, dup := seen[p]; dup {
			return nil, true, inputerr.New(name, line, "path %s is listed twice (first on line %d)", p, prev)
		}
		seen[p] = line
		val := ""
		if expCol < len(rec) {
			val = rec[expCol]
		}
		fields = append(fields, Field{p, val})
	}
	return fields, true, nil
}

func columnIndex(header []string, want string) int {
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(ingest.StripBOMString(h)), want) {
			return i
		}
	}
	return -1
}

func allBlank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func csvError(name string, err error) error {
	if pe, ok := err.(*csv.ParseError); ok {
		return &inputerr.Error{File: name, Line: pe.Line, Column: pe.Column, Msg: "invalid CSV: " + pe.Err.Error()}
	}
	return inputerr.New(name, 0, "invalid CSV: %v", err)
}

// FieldTable renders fields as a path/expected CSV reference (the form
// PathTable reads) with the given id, authority and metadata.
func FieldTable(id string, auth Authority, fields []Field, meta map[string]any) (ReferenceArtifact, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"path", "expected"})
	for _, f := range fields {
		w.Write([]string{f.Path, cellText(f.Value)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return ReferenceArtifact{}, err
	}
	return ArtifactFromValue(buf.String(), ArtifactOptions{ArtifactID: id, Authority: auth, Kind: KindCSV, Metadata: meta})
}

// cellText writes a scalar as a table cell: text as is, numbers in their
// JSON form, true/false, null as an empty cell.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return string(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
