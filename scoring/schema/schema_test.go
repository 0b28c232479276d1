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
		{`{"key": "", "columns": [{"name": "a", "kind": "text"}]}`, `s.json: expected a "key"`},
		{`{"key": "k", "columns": []}`, `s.json: expected "columns"`},
		{`{"key": "k", "columns": [{"name": "a", "kind": "colour"}]}`, `unknown kind "colour"`},
		{`{"key": "k", "columns": [{"name": "a", "kind": "text"}, {"name": "A", "kind": "date"}]}`, `column "a": named twice`},
		{`{"key": "k", "columns": [{"name": "k", "kind": "text"}]}`, `column "k": named twice (or is the key)`},
		{`{"key": "k", "columns": [{"name": "a", "kind": "text", "blank_gt": "maybe"}]}`, `unknown blank_gt "maybe"`},
		{"{\n\"key\": \"k\",\n\"colums\": []}", `s.json:3: expected a schema object`},
		{"{\n\"key\": 5}", `s.json:2: expected a schema object`},
		{"{\n\"key\": \"k\",", `s.json:2: expected a schema object`},
	}
	for _, tt := range tests {
		_, err := Parse("s.json", []byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want %q", tt.in, err, tt.want)
		}
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
