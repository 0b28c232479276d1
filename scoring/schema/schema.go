// Package schema describes the tables the tabular scorer reads: the key
// column that identifies a record (a person's name, by default) and the kind
// of every scored column. The default schema is the 9-field traveler
// register of SPEC A; a schema file lets users score other tables.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/docscore/docscore/scoring/inputerr"
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
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Schema
	if err := dec.Decode(&s); err != nil {
		return nil, jsonError(name, data, dec.InputOffset(), err)
	}
	s.Key = strings.ToLower(strings.TrimSpace(s.Key))
	if s.Key == "" {
		return nil, inputerr.New(name, 0, `expected a "key" naming the column that identifies a record`)
	}
	if len(s.Columns) == 0 {
		return nil, inputerr.New(name, 0, `expected "columns": a list of {"name", "kind"} objects`)
	}
	seen := map[string]bool{s.Key: true}
	for i := range s.Columns {
		c := &s.Columns[i]
		c.Name = strings.ToLower(strings.TrimSpace(c.Name))
		if c.Name == "" {
			return nil, inputerr.New(name, 0, "column %d: expected a name", i+1)
		}
		if seen[c.Name] {
			return nil, inputerr.New(name, 0, "column %q: named twice (or is the key)", c.Name)
		}
		seen[c.Name] = true
		if !c.Kind.valid() {
			return nil, inputerr.New(name, 0, "column %q: unknown kind %q (expected text, date, place, yesno or integer)", c.Name, c.Kind)
		}
		switch c.BlankGT {
		case "":
			c.BlankGT = Unscorable
		case Unscorable, Scored:
		default:
			return nil, inputerr.New(name, 0, "column %q: unknown blank_gt %q (expected unscorable or score)", c.Name, c.BlankGT)
		}
	}
	return &s, nil
}

// jsonError turns a decoding error into an input error with a line number.
func jsonError(name string, data []byte, offset int64, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case asErr(err, &se):
		offset = se.Offset
	case asErr(err, &te):
		offset = te.Offset
	case err == io.ErrUnexpectedEOF:
		offset = int64(len(data))
	}
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	line := 1 + bytes.Count(data[:offset], []byte("\n"))
	return inputerr.New(name, line, "expected a schema object {\"key\", \"columns\"}: %v", err)
}

func asErr[T error](err error, target *T) bool {
	t, ok := err.(T)
	if ok {
		*target = t
	}
	return ok
}

// String describes the schema in one line, for messages.
func (s *Schema) String() string {
	parts := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		parts[i] = fmt.Sprintf("%s:%s", c.Name, c.Kind)
	}
	return fmt.Sprintf("key %s; %s", s.Key, strings.Join(parts, ", "))
}
