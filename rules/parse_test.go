package rules

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
)

var update = flag.Bool("update", false, "rewrite the expected files of testdata/valid and testdata/invalid")

// expectedRow is a rule row as the expectation files spell it: every field
// present, so that a change to Row's JSON tags cannot hide a change here.
type expectedRow struct {
	Line      int      `json:"line"`
	Kind      string   `json:"kind"`
	Fields    []string `json:"fields"`
	Forms     []string `json:"forms"`
	Canonical string   `json:"canonical"`
	Position  string   `json:"position"`
	Side      string   `json:"side"`
	Status    string   `json:"status"`
	Witness   string   `json:"witness"`
}

// expectation is the content of a testdata/valid/*.json file.
type expectation struct {
	Rows     []expectedRow `json:"rows"`
	Warnings []string      `json:"warnings"`
	Settled  int           `json:"settled"`
	Open     int           `json:"open"`
}

func expect(f *File) expectation {
	e := expectation{Rows: []expectedRow{}, Warnings: []string{}, Settled: f.Count(Settled), Open: f.Count(Open)}
	for _, r := range f.Rows {
		e.Rows = append(e.Rows, expectedRow{
			Line: r.Line, Kind: string(r.Kind), Fields: r.Fields, Forms: r.Forms, Canonical: r.Canonical,
			Position: string(r.Position), Side: string(r.Side), Status: string(r.Status), Witness: r.Witness,
		})
	}
	for _, w := range f.Warnings {
		e.Warnings = append(e.Warnings, w.Head()) // one line each; the .err files show carets
	}
	return e
}

// encode writes an expectation with one row per line, so that a reviewer
// reads it like the table it came from.
func (e expectation) encode() []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"rows\": [")
	for i, r := range e.Rows {
		if i > 0 {
			b.WriteByte(',')
		}
		row, _ := json.Marshal(r)
		b.WriteString("\n    ")
		b.Write(row)
	}
	if len(e.Rows) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n  \"warnings\": [")
	for i, w := range e.Warnings {
		if i > 0 {
			b.WriteByte(',')
		}
		ws, _ := json.Marshal(w)
		b.WriteString("\n    ")
		b.Write(ws)
	}
	if len(e.Warnings) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n")
	settled, _ := json.Marshal(e.Settled)
	open, _ := json.Marshal(e.Open)
	b.WriteString("  \"settled\": " + string(settled) + ",\n")
	b.WriteString("  \"open\": " + string(open) + "\n}\n")
	return b.Bytes()
}

// ruleFiles lists the .md files of dir and checks that every one has its
// expectation (ext) and every expectation its .md.
func ruleFiles(t *testing.T, dir, ext string) []string {
	t.Helper()
	mds, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(mds) == 0 {
		t.Fatalf("no test files in %s", dir)
	}
	pairs, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
	for _, p := range pairs {
		if _, err := os.Stat(strings.TrimSuffix(p, ext) + ".md"); err != nil {
			t.Errorf("%s has no .md beside it", p)
		}
	}
	sort.Strings(mds)
	return mds
}

// TestParseValid parses every testdata/valid/*.md and compares its rows,
// warnings and counts with the .json beside it.
func TestParseValid(t *testing.T) {
	for _, md := range ruleFiles(t, filepath.Join("testdata", "valid"), ".json") {
		t.Run(filepath.Base(md), func(t *testing.T) {
			src, err := os.ReadFile(md)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Parse(filepath.Base(md), src)
			if err != nil {
				t.Fatalf("Parse: unexpected error:\n%v", err)
			}
			got := expect(f)
			want := strings.TrimSuffix(md, ".md") + ".json"
			if *update {
				if err := os.WriteFile(want, got.encode(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("missing expectation (run go test ./rules -run TestParseValid -update and review it): %v", err)
			}
			var exp expectation
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&exp); err != nil {
				t.Fatalf("%s: %v", want, err)
			}
			if !reflect.DeepEqual(normalizeExpectation(exp), normalizeExpectation(got)) {
				t.Errorf("%s differs.\ngot:\n%s\nwant:\n%s", want, got.encode(), data)
			}
		})
	}
}

func normalizeExpectation(e expectation) expectation {
	if e.Rows == nil {
		e.Rows = []expectedRow{}
	}
	if e.Warnings == nil {
		e.Warnings = []string{}
	}
	return e
}

// TestParseInvalid parses every testdata/invalid/*.md and compares the
// error text, one problem per line, with the .err beside it.
func TestParseInvalid(t *testing.T) {
	for _, md := range ruleFiles(t, filepath.Join("testdata", "invalid"), ".err") {
		t.Run(filepath.Base(md), func(t *testing.T) {
			src, err := os.ReadFile(md)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Parse(filepath.Base(md), src)
			if err == nil {
				t.Fatalf("Parse succeeded with %d rows; expected an error", len(f.Rows))
			}
			// The file comes back with its error, for a check to report.
			if f == nil || f.Name != filepath.Base(md) || f.SHA256 != sha256Hex(src) {
				t.Errorf("Parse returned %+v with its error, want the file with its name and sha256", f)
			}
			var list inputerr.List
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is %T, expected a non-empty inputerr.List: %v", err, err)
			}
			for _, e := range list {
				if e.Line < 1 {
					t.Errorf("error without a line: %v", e)
				}
			}
			got := err.Error() + "\n"
			want := strings.TrimSuffix(md, ".md") + ".err"
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("missing expectation (run go test ./rules -run TestParseInvalid -update and review it): %v", err)
			}
			if got != string(data) {
				t.Errorf("error text differs.\ngot:\n%s\nwant:\n%s", got, data)
			}
		})
	}
}

// TestParseKeepsInput checks the file's name and digest: the sha256 is of
// the bytes as given, before the BOM and CR are removed.
func TestParseKeepsInput(t *testing.T) {
	src := []byte("\xef\xbb\xbf## Ignore\r\n\r\n| field | token | position | side | status | witness |\r\n|---|---|---|---|---|---|\r\n| name | conte | leading | model | settled | w |\r\n")
	f, err := Parse("rules/EQUIVALENCES.md", src)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "rules/EQUIVALENCES.md" {
		t.Errorf("Name = %q", f.Name)
	}
	const want = "sha256 of the bytes as given"
	if f.SHA256 != sha256Hex(src) {
		t.Errorf("SHA256 = %s, want the %s (%s)", f.SHA256, want, sha256Hex(src))
	}
	if len(f.Rows) != 1 || f.Rows[0].Line != 5 {
		t.Errorf("rows = %+v, want one row at line 5", f.Rows)
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
