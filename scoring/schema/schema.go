// Package schema describes the tables the tabular scorer reads: the key
// column that identifies a record (a person's name, by default) and the kind
// of every scored column. The default schema is the 9-field traveler
// register of SPEC A; a schema file lets users score other tables.
package schema

import (
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"
)

// Kind is how a column is compared.
type Kind string

// The column kinds.
const (
	Text    Kind = "text"    // character accuracy after base normalization
	Date    Kind = "date"    // text, plus the day leading-zero strip
	Place   Kind = "place"   // text, plus splitting elided articles at apostrophes
	YesNo   Kind = "yesno"   // exact Y/N after trimming and upper-casing
	Integer Kind = "integer" // exact integer
)

// IsText reports whether the kind is scored by character accuracy (and so
// is one of the "*" fields of a rule file).
func (k Kind) IsText() bool { return k == Text || k == Date || k == Place }

func (k Kind) valid() bool {
	switch k {
	case Text, Date, Place, YesNo, Integer:
		return true
	}
	return false
}

// BlankGT says how a column scores when its ground-truth cell is blank.
type BlankGT string

// The blank ground-truth policies.
const (
	// Unscorable leaves the cell out of numerator and denominator.
	Unscorable BlankGT = "unscorable"
	// Scored makes a blank model value score 1 and any other value 0 (a
	// title supplied where the register has none is wrong).
	Scored BlankGT = "score"
)

// Column is one scored column.
type Column struct {
	Name    string  `json:"name"`
	Kind    Kind    `json:"kind"`
	BlankGT BlankGT `json:"blank_gt,omitempty"`
}

// Schema is the key column and the scored columns, in report order.
type Schema struct {
	Key     string   `json:"key"`
	Columns []Column `json:"columns"`
}

// Default returns the traveler-register schema of SPEC A: name is the key,
// and title, the two dates, the two places, the two yes/no fields and
// children_count are scored.
func Default() *Schema {
	return &Schema{
		Key: "name",
		Columns: []Column{
			{Name: "title", Kind: Text, BlankGT: Scored},
			{Name: "arrival_date", Kind: Date, BlankGT: Unscorable},
			{Name: "departure_date", Kind: Date, BlankGT: Unscorable},
			{Name: "place_of_stay", Kind: Place, BlankGT: Unscorable},
			{Name: "place_of_origin", Kind: Place, BlankGT: Unscorable},
			{Name: "with_spouse", Kind: YesNo, BlankGT: Unscorable},
			{Name: "with_siblings", Kind: YesNo, BlankGT: Unscorable},
			{Name: "children_count", Kind: Integer, BlankGT: Unscorable},
		},
	}
}

// Index returns the position of the named column, or -1.
func (s *Schema) Index(name string) int {
	for i, c := range s.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// TextColumns returns the names of the columns a "*" rule applies to.
func (s *Schema) TextColumns() []string {
	var out []string
	for _, c := range s.Columns {
		if c.Kind.IsText() {
			out = append(out, c.Name)
		}
	}
	return out
}

// Parse reads a schema file: a JSON object with "key" (the matching column)
// and "columns", each with "name", "kind" (text, date, place, yesno,
// integer) and optionally "blank_gt" ("unscorable", the default, or
// "score"). Column names are trimmed and lower-cased like CSV headers.
func Parse(name string, data []byte) (*Schema, error) {
	src, err := ingest.Open(name, data)
	if err != nil {
		return nil, err
	}
	var s Schema
	if err := src.DecodeStrict(&s, `a schema object {"key", "columns"}`); err != nil {
		return nil, err
	}
	// at places a problem at the value the path names, or at the start.
	at := func(format string, path []any, args ...any) error {
		line, col, ok := ingest.Locate(src.Bytes(), path...)
		if !ok {
			line, col = 1, 1
		}
		return src.ErrorAtLine(line, col, format, args...)
	}
	s.Key = strings.ToLower(strings.TrimSpace(s.Key))
	if s.Key == "" {
		return nil, at(`expected a "key" naming the column that identifies a record`, []any{"key"})
	}
	if len(s.Columns) == 0 {
		return nil, at(`expected "columns": a list of {"name", "kind"} objects`, []any{"columns"})
	}
	seen := map[string]bool{s.Key: true}
	for i := range s.Columns {
		c := &s.Columns[i]
		c.Name = strings.ToLower(strings.TrimSpace(c.Name))
		if c.Name == "" {
			return nil, at("column %d: expected a name", []any{"columns", i}, i+1)
		}
		if seen[c.Name] {
			return nil, at("column %q: named twice (or is the key)", []any{"columns", i, "name"}, c.Name)
		}
		seen[c.Name] = true
		if !c.Kind.valid() {
			return nil, at("column %q: unknown kind %q (expected text, date, place, yesno or integer)", []any{"columns", i, "kind"}, c.Name, c.Kind)
		}
		switch c.BlankGT {
		case "":
			c.BlankGT = Unscorable
		case Unscorable, Scored:
		default:
			return nil, at("column %q: unknown blank_gt %q (expected unscorable or score)", []any{"columns", i, "blank_gt"}, c.Name, c.BlankGT)
		}
	}
	return &s, nil
}

// String describes the schema in one line, for messages.
func (s *Schema) String() string {
	parts := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		parts[i] = fmt.Sprintf("%s:%s", c.Name, c.Kind)
	}
	return fmt.Sprintf("key %s; %s", s.Key, strings.Join(parts, ", "))
}
