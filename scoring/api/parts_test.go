package api

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
)

// partsRequest is a request shape with files at every depth ResolveParts
// walks: a value, a pointer, a slice and a nested struct.
type partsRequest struct {
	Runs   File
	Rules  *File
	GT     []File
	Nested struct{ Files []File }
	Absent *File
}

func TestResolveParts(t *testing.T) {
	parts := []string{"runs text", "rules text", "gt text"}
	var req partsRequest
	req.Runs = File{Name: "runs.jsonl", Part: 1}
	req.Rules = &File{Name: "EQUIVALENCES.md", Part: 2}
	req.GT = []File{{Name: "a.csv", Text: "kept"}, {Name: "b.csv", Part: 3}}
	req.Nested.Files = []File{{Name: "c.csv", Part: 3}, {Name: "d.png", Base64: "AA=="}}
	if err := ResolveParts(&req, parts); err != nil {
		t.Fatal(err)
	}
	var want partsRequest
	want.Runs = File{Name: "runs.jsonl", Text: "runs text"}
	want.Rules = &File{Name: "EQUIVALENCES.md", Text: "rules text"}
	want.GT = []File{{Name: "a.csv", Text: "kept"}, {Name: "b.csv", Text: "gt text"}}
	want.Nested.Files = []File{{Name: "c.csv", Text: "gt text"}, {Name: "d.png", Base64: "AA=="}}
	if !reflect.DeepEqual(req, want) {
		t.Fatalf("got  %+v\nwant %+v", req, want)
	}

	// The requests of every family resolve.
	tr := TabularRequest{GT: []File{{Name: "g", Part: 1}}, Runs: File{Name: "r", Part: 2}}
	if err := ResolveParts(&tr, []string{"G", "R"}); err != nil || tr.GT[0].Text != "G" || tr.Runs.Text != "R" {
		t.Fatalf("tabular request %+v (%v)", tr, err)
	}
}

func TestResolvePartsRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		file  File
		parts int
		want  string
	}{
		{"past the end", File{Name: "runs.jsonl", Part: 3}, 2, "runs.jsonl: part 3: the request came with 2 text(s) beside it (expected 1 to 2)"},
		{"no parts at all", File{Name: "runs.jsonl", Part: 1}, 0, "runs.jsonl: names part 1, but no texts came beside the request (expected the file's text or base64)"},
		{"negative", File{Name: "runs.jsonl", Part: -1}, 2, "part -1"},
		{"part and text", File{Name: "runs.jsonl", Part: 1, Text: "x"}, 2, "runs.jsonl: gives both a part and its content"},
		{"part and base64", File{Name: "a.png", Part: 1, Base64: "AA=="}, 2, "a.png: gives both a part and its content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := TabularRequest{Runs: tc.file}
			err := ResolveParts(&req, make([]string, tc.parts))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if _, ok := inputerr.As(err); !ok {
				t.Fatalf("%v is not an input error", err)
			}
		})
	}
}

// TestResolvePartsInAMap: a map of files is left alone unless one of them
// names a part, which is refused rather than ignored.
func TestResolvePartsInAMap(t *testing.T) {
	plain := map[string]File{"a": {Name: "a.csv", Text: "x"}}
	if err := ResolveParts(&plain, []string{"p"}); err != nil {
		t.Fatalf("a map naming no part: %v", err)
	}
	named := map[string]File{"a": {Name: "a.csv", Part: 1}}
	if err := ResolveParts(&named, []string{"p"}); err == nil || !strings.Contains(err.Error(), "a.csv: names part 1 in a map of files") {
		t.Fatalf("a map naming a part: %v", err)
	}
}
