package rules

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
)

// lineCount returns how many lines the parser sees in src: CRLF, CR and LF
// each end a line.
func lineCount(src []byte) int {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	return 1 + bytes.Count(src, []byte("\n")) + bytes.Count(src, []byte("\r"))
}

// FuzzParse checks that Parse never panics, is deterministic, always
// returns the file, and that every row, warning and error it returns points
// at a line of the file.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"testdata/valid/*.md", "testdata/invalid/*.md"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Add([]byte("## Ignore\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |"))
	f.Add([]byte("## Equivalences\n\n| field | forms | canonical | status |\n|---|---|---|---|\n| `*` | `a` / `b` | `c` | `OPEN` |\n"))
	f.Add([]byte("# Equivalences\n> | field | forms | canonical | status | witness |\n> |---|---|---|---|---|\n> | title | ab. | abate | settled | w |\n"))

	// Shapes the parser must question (issue 16): unclosed fences, extra
	// cells, unknown column headings, no rule section.
	f.Add([]byte("## Ignore\n\n```markdown\nnever closed\n\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n"))
	f.Add([]byte("## Ignore\n\n> ~~~\n> in a quote\n\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n~~~\n"))
	f.Add([]byte("## Ignore\n\n````\n```\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n`````\n"))
	f.Add([]byte("## Equivalences\n| field | forms | canonical | status |\n|-|-|-|-|\n| title | `a|b` \\| c | d | OPEN | extra | `x|y` |\n> | e | f |\n"))
	f.Add([]byte("## 1. Ignore rules\n| fld | tok | pos | sd | st |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n"))
	f.Add([]byte("## Equivalences\n| field | forms | canonical | status | Notes | token | side |\n|-|-|-|-|-|-|-|\n| nome | a /  / b | | draft | n | t | s |\n"))
	f.Add([]byte("# No rules\n\n<!--\n```\n-->\n| field | token | position | side | status |\n|-|-|-|-|-|\n"))

	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.md", src)
		again, errAgain := Parse("fuzz.md", src)
		if (err == nil) != (errAgain == nil) || (err != nil && err.Error() != errAgain.Error()) {
			t.Fatalf("Parse is not deterministic: %v / %v", err, errAgain)
		}
		lines := lineCount(src)
		if file == nil {
			t.Fatalf("Parse returned no file (error %v)", err)
		}
		if err != nil {
			var list inputerr.List
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T is not a non-empty inputerr.List: %v", err, err)
			}
			for _, e := range list {
				if e.File != "fuzz.md" || e.Line < 1 || e.Line > lines {
					t.Errorf("error %q: line %d outside 1..%d", e, e.Line, lines)
				}
			}
			// Check reports Parse's errors with its own, in line order.
			checked := Check(file, schema.Default(), nil)
			if len(checked) < len(list) {
				t.Errorf("Check reports %d errors, Parse %d", len(checked), len(list))
			}
			for i := 1; i < len(checked); i++ {
				if checked[i].Line < checked[i-1].Line {
					t.Errorf("Check's errors out of line order: %v", checked)
				}
			}
		}
		if !reflect.DeepEqual(file, again) {
			t.Fatalf("Parse is not deterministic:\n%+v\n%+v", file, again)
		}
		// A caret stays on its line: a column names a character of the
		// source line shown (or the place just after it).
		for _, e := range Check(file, schema.Default(), nil) {
			if e.Column > 0 && (e.Source == "" || e.Column > utf8.RuneCountInString(e.Source)+1) {
				t.Errorf("error %q: column %d outside its line %q", e.Head(), e.Column, e.Source)
			}
		}
		for _, r := range file.Rows {
			if r.Line < 1 || r.Line > lines {
				t.Errorf("row %s: line %d outside 1..%d", r, r.Line, lines)
			}
			if len(r.Fields) == 0 || len(r.Forms) == 0 {
				t.Errorf("row %s at line %d has no field or no form", r, r.Line)
			}
			for _, form := range r.Forms {
				if form == "" {
					t.Errorf("row at line %d has an empty form", r.Line)
				}
			}
			if r.Status != Settled && r.Status != Open {
				t.Errorf("row at line %d has status %q", r.Line, r.Status)
			}
		}
		for _, w := range file.Warnings {
			if w.Line < 1 || w.Line > lines {
				t.Errorf("warning %q: line outside 1..%d", w, lines)
			}
		}
		if file.Count(Settled)+file.Count(Open) != len(file.Rows) {
			t.Errorf("counts %d + %d != %d rows", file.Count(Settled), file.Count(Open), len(file.Rows))
		}
	})
}
