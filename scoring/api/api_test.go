package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
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
	// A file with errors: every error at once (Parse's and Check's, in
	// line order), its sha256 and the rows that parsed.
	const header = "## Ignore\n\n| field | token | position | side | status |\n|---|---|---|---|---|\n"
	tests := []struct {
		name, text string
		errors     []string // "LINE: message prefix"
		rows       []int
	}{
		{"one error", header + "| name | x | up | model | settled |\n", []string{`5: unknown position "up"`}, nil},
		{"a field error before a side error", header + "| nome | x | leading | model | settled |\n| name | y | leading | nobody | OPEN |\n",
			[]string{`5: unknown field "nome"`, `6: unknown side "nobody"`}, []int{5}},
		{"an unclosed fence and a row", "```\n" + header + "| name | x | leading | model | settled |\n",
			[]string{"1: code fence ``` is never closed"}, []int{6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := CheckRules(RulesCheckRequest{Rules: File{Name: "bad.md", Text: tt.text}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range res.Errors {
				got = append(got, fmt.Sprintf("%d: %s", e.Line, e.Message))
			}
			if len(got) != len(tt.errors) {
				t.Fatalf("errors %q, want %q", got, tt.errors)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.errors[i]) {
					t.Errorf("error %d = %q, want it to start %q", i, got[i], tt.errors[i])
				}
			}
			sum := sha256.Sum256([]byte(tt.text))
			if res.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("sha256 = %q, want the file's", res.SHA256)
			}
			var rows []int
			for _, r := range res.Rows {
				rows = append(rows, r.Line)
			}
			if !slices.Equal(rows, tt.rows) || res.Settled+res.Open != len(rows) {
				t.Errorf("rows at %v (%d settled, %d OPEN), want %v", rows, res.Settled, res.Open, tt.rows)
			}
		})
	}
}

// TestGateRule: a gate left out means the default, a gate given must be
// in (0, 1]; 0, NaN and the infinities are input errors naming "gate", on
// every host that goes through this package.
func TestGateRule(t *testing.T) {
	s, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	req := TabularRequest{Runs: File{Name: s.Runs.Name, Text: string(s.Runs.Data)}, Format: "json"}
	for _, f := range s.GT {
		req.GT = append(req.GT, File{Name: f.Name, Text: string(f.Data)})
	}
	g := func(v float64) *float64 { return &v }
	tests := []struct {
		gate *float64
		ok   bool
	}{
		{nil, true}, {g(0.7), true}, {g(1), true}, {g(0.5), true},
		{g(0), false}, {g(-0.1), false}, {g(1.5), false}, {g(math.NaN()), false}, {g(math.Inf(1)), false}, {g(math.Inf(-1)), false},
	}
	var def []byte
	for _, tt := range tests {
		req.Gate = tt.gate
		out, err := ScoreTabular(req)
		if tt.ok != (err == nil) {
			t.Errorf("gate %v: err = %v, want ok %v", tt.gate, err, tt.ok)
			continue
		}
		if err != nil {
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Param != "gate" || !strings.HasPrefix(err.Error(), "gate ") {
				t.Errorf("gate %v: %v: want a ParamError naming gate", *tt.gate, err)
			}
			continue
		}
		if tt.gate == nil {
			def = out
		} else if *tt.gate == 0.7 && !bytes.Equal(out, def) {
			t.Error("gate 0.7 differs from the default")
		}
	}
}
