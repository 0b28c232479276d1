package bridge

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/scoring/inputerr"
)

// TestResolveParts: every file a request lists (InputFiles) gets its
// part's text, in every family's request.
func TestResolveParts(t *testing.T) {
	parts := []string{"runs text", "rules text", "gt text"}
	req := api.TabularRequest{
		GT:    []api.File{{Name: "a.csv", Text: "kept"}, {Name: "b.csv", Part: 3}},
		Runs:  api.File{Name: "runs.jsonl", Part: 1},
		Rules: &api.File{Name: "EQUIVALENCES.md", Part: 2},
	}
	if err := ResolveParts(&req, parts); err != nil {
		t.Fatal(err)
	}
	want := api.TabularRequest{
		GT:    []api.File{{Name: "a.csv", Text: "kept"}, {Name: "b.csv", Text: "gt text"}},
		Runs:  api.File{Name: "runs.jsonl", Text: "runs text"},
		Rules: &api.File{Name: "EQUIVALENCES.md", Text: "rules text"},
	}
	if !reflect.DeepEqual(req, want) {
		t.Fatalf("got  %+v\nwant %+v", req, want)
	}

	rr := receiptsapi.ReceiptsRequest{Refs: []api.File{{Name: "r", Part: 2}}, Run: api.File{Name: "run", Part: 1}}
	if err := ResolveParts(&rr, []string{"RUN", "REF"}); err != nil || rr.Refs[0].Text != "REF" || rr.Run.Text != "RUN" {
		t.Fatalf("receipts request %+v (%v)", rr, err)
	}
	er := evalapi.EvalRequest{Cases: api.File{Name: "c", Part: 1}, Files: []api.File{{Name: "f", Part: 2}, {Name: "p.png", Base64: "AA=="}}}
	if err := ResolveParts(&er, []string{"C", "F"}); err != nil || er.Cases.Text != "C" || er.Files[0].Text != "F" || er.Files[1].Base64 != "AA==" {
		t.Fatalf("eval request %+v (%v)", er, err)
	}
}

func TestResolvePartsRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		file  api.File
		parts int
		want  string
	}{
		{"past the end", api.File{Name: "runs.jsonl", Part: 3}, 2, "runs.jsonl: part 3: the request came with 2 text(s) beside it (expected 1 to 2)"},
		{"no parts at all", api.File{Name: "runs.jsonl", Part: 1}, 0, "runs.jsonl: names part 1, but no texts came beside the request (expected the file's text or base64)"},
		{"negative", api.File{Name: "runs.jsonl", Part: -1}, 2, "part -1"},
		{"part and text", api.File{Name: "runs.jsonl", Part: 1, Text: "x"}, 2, "runs.jsonl: gives both a part and its content"},
		{"part and base64", api.File{Name: "a.png", Part: 1, Base64: "AA=="}, 2, "a.png: gives both a part and its content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := api.TabularRequest{Runs: tc.file}
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
