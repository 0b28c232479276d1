package api

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
)

func sampleTabular(t *testing.T) TabularRequest {
	t.Helper()
	r, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	req := TabularRequest{Runs: File{Name: r.Runs.Name, Text: string(r.Runs.Data)}, Rules: &File{Name: r.Rules.Name, Text: string(r.Rules.Data)}}
	for _, f := range r.GT {
		req.GT = append(req.GT, File{Name: f.Name, Text: string(f.Data)})
	}
	return req
}

func TestScoreTabularMatchesGolden(t *testing.T) {
	for _, format := range []string{"json", "csv", "md"} {
		req := sampleTabular(t)
		req.Format = format
		got, err := ScoreTabular(req)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "tabular", "testdata", "golden", "sample."+format))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("format %s differs from the golden report", format)
		}
	}
}

func TestErrors(t *testing.T) {
	req := sampleTabular(t)
	req.Runs.Text = "{oops\n"
	_, err := ScoreTabular(req)
	d := DescribeError(err)
	if d.Code != "input" || d.File == nil || *d.File != "sample/tabular/runs.jsonl" || d.Line == nil || *d.Line != 1 {
		t.Fatalf("error %+v", d)
	}
	req = sampleTabular(t)
	req.Format = "xml"
	if _, err := ScoreTabular(req); err == nil || DescribeError(err).Code != "bad_request" {
		t.Fatalf("bad format: %v", err)
	}
}

func TestCheckRules(t *testing.T) {
	req := sampleTabular(t)
	res, err := CheckRules(RulesCheckRequest{Rules: *req.Rules, GT: req.GT})
	if err != nil {
		t.Fatal(err)
	}
	if res.Settled != 11 || res.Open != 4 || len(res.Errors) != 0 || len(res.Warnings) != 1 || res.Warnings[0].Line != 46 {
		t.Fatalf("result %+v", res)
	}
	res, err = CheckRules(RulesCheckRequest{Rules: File{Name: "bad.md", Text: "## Ignore\n\n| field | token | position | side | status |\n|---|---|---|---|---|\n| name | x | up | model | settled |\n"}})
	if err != nil || len(res.Errors) != 1 || res.Errors[0].Line != 5 || !strings.Contains(res.Errors[0].Message, `unknown position "up"`) {
		t.Fatalf("result %+v, %v", res, err)
	}
}
