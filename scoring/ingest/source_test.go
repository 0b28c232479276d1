package ingest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/inputerr"
)

func TestOpen(t *testing.T) {
	tests := []struct {
		name, in string
		text     string // the source's bytes; "" with err
		err      string // the whole error, source line and caret included
	}{
		{"plain", "a\nb", "a\nb", ""},
		{"bom dropped", "\xef\xbb\xbf{\"a\":1}\n", "{\"a\":1}\n", ""},
		{"one bom only", "\xef\xbb\xbf\xef\xbb\xbfx", "\ufeffx", ""},
		{"empty", "", "", ""},
		{"bom alone", "\xef\xbb\xbf", "", ""},
		{"bad byte", "ok\nçx\xff!\n", "", "f:2:3: expected UTF-8 text\n    2 | çx\ufffd!\n      |   ^"},
		{"bad byte after bom", "\xef\xbb\xbf\xc3(", "", "f:1:1: expected UTF-8 text\n    1 | \ufffd(\n      | ^"},
		{"crlf bad byte", "a\r\n\x80\r\n", "", "f:2:1: expected UTF-8 text\n    2 | \ufffd\n      | ^"},
	}
	for _, tt := range tests {
		src, err := Open("f", []byte(tt.in))
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: err = %v, want\n%s", tt.name, err, tt.err)
			}
			if _, ok := inputerr.As(err); !ok {
				t.Errorf("%s: %T is not an input error", tt.name, err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case string(src.Bytes()) != tt.text || src.Name() != "f":
			t.Errorf("%s: Bytes = %q", tt.name, src.Bytes())
		}
	}
}

func TestLineIndex(t *testing.T) {
	x := NewLineIndex([]byte("ab\r\nçd\n\nlast"))
	if x.NumLines() != 4 {
		t.Errorf("NumLines = %d", x.NumLines())
	}
	for n, want := range map[int]string{0: "", 1: "ab", 2: "çd", 3: "", 4: "last", 5: ""} {
		if got := x.LineText(n); got != want {
			t.Errorf("LineText(%d) = %q, want %q", n, got, want)
		}
	}
	for _, tt := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 1, 4}, {4, 2, 1}, {6, 2, 2}, {7, 2, 3}, {8, 3, 1}, {9, 4, 1}, {13, 4, 5}, {99, 4, 5}, {-3, 1, 1},
	} {
		l, c := x.Position(tt.off)
		if l != tt.line || c != tt.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tt.off, l, c, tt.line, tt.col)
		}
		if ol, oc := Position(x.Bytes(), tt.off); ol != l || oc != c {
			t.Errorf("Position(data, %d) = %d:%d, LineIndex %d:%d", tt.off, ol, oc, l, c)
		}
	}
	for _, tt := range []struct{ line, col, off int }{{1, 1, 0}, {2, 2, 6}, {2, 9, 7}, {4, 3, 11}, {0, 1, 0}, {9, 1, 13}} {
		if got := x.Offset(tt.line, tt.col); got != tt.off {
			t.Errorf("Offset(%d, %d) = %d, want %d", tt.line, tt.col, got, tt.off)
		}
	}
}

func TestSourceErrors(t *testing.T) {
	src, err := Open("r.json", []byte("\xef\xbb\xbf{\n  \"a\": tru\n}"))
	if err != nil {
		t.Fatal(err)
	}
	want := "r.json:2:8: bad literal\n    2 |   \"a\": tru\n      |        ^"
	if got := src.ErrorAt(9, "bad literal").Error(); got != want {
		t.Errorf("ErrorAt =\n%s\nwant\n%s", got, want)
	}
	if got := src.ErrorAtLine(2, 8, "bad literal").Error(); got != want {
		t.Errorf("ErrorAtLine =\n%s\nwant\n%s", got, want)
	}
	e := src.Attach(inputerr.New("r.json", 3, "unclosed"))
	if e.Error() != "r.json:3: unclosed\n    3 | }" {
		t.Errorf("Attach = %q", e.Error())
	}
	if other := src.Attach(inputerr.New("other.json", 3, "x")); other.Source != "" {
		t.Errorf("Attach took another file's error: %q", other.Source)
	}
	var v map[string]any
	jerr := src.JSONError(json.Unmarshal(src.Bytes(), &v), "an object")
	// the literal ends at the line's end, where the decoder stopped
	want = "r.json:2:11: invalid JSON: invalid character '\\n' in literal true (expecting 'e'): expected an object\n    2 |   \"a\": tru\n      |           ^"
	if jerr.Error() != want {
		t.Errorf("JSONError =\n%s\nwant\n%s", jerr, want)
	}
	if !strings.Contains(jerr.Error(), "\n    2 |   \"a\": tru\n") {
		t.Errorf("JSONError shows no source line:\n%s", jerr)
	}
}

// FuzzOpen: Open never panics; it accepts exactly the UTF-8 inputs (after
// one BOM), and an error points at the first bad byte with its line shown.
func FuzzOpen(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\xef\xbb\xbf{}", "ok\nçx\xff", "a\r\n\x80", "\xef\xbb", "日本\n\xe6\x97"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := Open("f", b)
		rest := StripBOM(b)
		if utf8.Valid(rest) != (err == nil) {
			t.Fatalf("Open(%q) = %v", b, err)
		}
		if err != nil {
			e, ok := inputerr.As(err)
			if !ok || e.Line < 1 || e.Column < 1 || !strings.Contains(e.Error(), "\n") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		x := src.LineIndex
		for off := 0; off <= len(rest); off += 1 + len(rest)/17 {
			l, c := x.Position(off)
			if got := x.Offset(l, c); got != off {
				if utf8.RuneStart(rest[min(off, len(rest)-1)]) {
					t.Fatalf("Offset(Position(%d)) = %d", off, got)
				}
			}
		}
		if x.NumLines() != strings.Count(string(rest), "\n")+1 {
			t.Fatalf("NumLines = %d", x.NumLines())
		}
	})
}

func ExampleOpen() {
	src, err := Open("report.json", []byte("\xef\xbb\xbf{\n  \"runs\": [1,, 2]\n}\n"))
	if err != nil {
		panic(err)
	}
	fmt.Println(src.ErrorAt(15, "expected a value"))
	// Output:
	// report.json:2:14: expected a value
	//     2 |   "runs": [1,, 2]
	//       |              ^
}
