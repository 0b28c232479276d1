package schema

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	s, err := Parse("s.json", []byte(`{"key": " Item ", "columns": [{"name": "Price", "kind": "integer"}, {"name": "note", "kind": "text", "blank_gt": "score"}, {"name": "where", "kind": "place"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Key != "item" || s.Columns[0].Name != "price" || s.Columns[0].BlankGT != Unscorable || s.Columns[1].BlankGT != Scored {
		t.Fatalf("parsed %+v", s)
	}
	if got := s.TextColumns(); strings.Join(got, ",") != "note,where" {
		t.Fatalf("TextColumns = %v", got)
	}
	if s.Index("where") != 2 || s.Index("item") != -1 {
		t.Fatal("Index")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"key": "", "columns": [{"name": "a", "kind": "text"}]}`, "s.json:1:9: expected a \"key\" naming the column that identifies a record\n    1 | {\"key\": \"\", \"columns\": [{\"name\": \"a\", \"kind\": \"text\"}]}\n      |         ^"},
		{`{"key": "k", "columns": []}`, `s.json:1:25: expected "columns"`},
		{`{"key": "k", "columns": [{"name": "a", "kind": "colour"}]}`, `s.json:1:48: column "a": unknown kind "colour"`},
		{`{"key": "k", "columns": [{"name": "a", "kind": "text"}, {"name": "A", "kind": "date"}]}`, `s.json:1:66: column "a": named twice`},
		{`{"key": "k", "columns": [{"name": "k", "kind": "text"}]}`, `s.json:1:35: column "k": named twice (or is the key)`},
		{`{"key": "k", "columns": [{"name": "a", "kind": "text", "blank_gt": "maybe"}]}`, `s.json:1:68: column "a": unknown blank_gt "maybe"`},
		{"{\n\"key\": \"k\",\n\"colums\": []}", "s.json:3:1: unknown member \"colums\": expected a schema object {\"key\", \"columns\"}\n    3 | \"colums\": []}\n      | ^"},
		{"{\n\"key\": 5}", "s.json:2:8: member \"key\" is a number: expected a string\n    2 | \"key\": 5}\n      |        ^"},
		{"{\n\"key\": \"k\",", `s.json:2:12: invalid JSON: unexpected end of JSON input: expected a schema object`},
		{"\xef\xbb\xbf{\n\"key\": 5}", "s.json:2:8: member \"key\" is a number"},
		{"{\"key\": \"k\xff\"}", "s.json:1:11: expected UTF-8 text"},
	}
	for _, tt := range tests {
		_, err := Parse("s.json", []byte(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || !strings.HasSuffix(err.Error(), "^") {
			t.Errorf("Parse(%q) = %v, want %q, the line and a caret", tt.in, err, tt.want)
		}
	}
}

// A schema file saved with a byte order mark reads as the same schema.
func TestParseReadsABOM(t *testing.T) {
	text := `{"key": "k", "columns": [{"name": "a", "kind": "text"}]}`
	plain, err := Parse("s.json", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	bom, err := Parse("s.json", []byte("\xef\xbb\xbf"+text))
	if err != nil {
		t.Fatalf("with a BOM: %v", err)
	}
	if plain.String() != bom.String() {
		t.Errorf("with a BOM: %s, want %s", bom, plain)
	}
}

func TestDefault(t *testing.T) {
	s := Default()
	if s.Key != "name" || len(s.Columns) != 8 || s.Columns[0].BlankGT != Scored {
		t.Fatalf("default schema %v", s)
	}
	if got := strings.Join(s.TextColumns(), ","); got != "title,arrival_date,departure_date,place_of_stay,place_of_origin" {
		t.Fatalf("text columns %s", got)
	}
}
