package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode"
	"unicode/utf8"
)

type gotLine struct {
	No     int
	Text   string
	Indent int
	Bad    string
}

// collect reads every line of ls, bad ones included.
func collect(ls *Lines) ([]gotLine, error) {
	var out []gotLine
	for ls.Next() {
		l := ls.Line()
		g := gotLine{No: l.No, Text: string(l.Text), Indent: l.Indent}
		if b := ls.BadLine(); b != nil {
			g.Bad = b.Head()
		}
		out = append(out, g)
	}
	return out, ls.Err()
}

func TestLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []gotLine
	}{
		{"empty", "", nil},
		{"one line, no end", `{"a":1}`, []gotLine{{1, `{"a":1}`, 0, ""}}},
		{"LF", "a\nb\n", []gotLine{{1, "a", 0, ""}, {2, "b", 0, ""}}},
		{"CRLF", "a\r\nb\r\n", []gotLine{{1, "a", 0, ""}, {2, "b", 0, ""}}},
		{"BOM", "\ufeffa\nb", []gotLine{{1, "a", 0, ""}, {2, "b", 0, ""}}},
		{"BOM only on line 1", "a\n\ufeffb", []gotLine{{1, "a", 0, ""}, {2, "\ufeffb", 0, ""}}},
		{"blank lines", "\n  \r\n\ta\n\n\n b \n", []gotLine{{3, "a", 1, ""}, {6, "b", 1, ""}}},
		{"indent counts characters", "\u00a0 x", []gotLine{{1, "x", 2, ""}}},
		{"not UTF-8", "ok\n  a\xffb\nok", []gotLine{{1, "ok", 0, ""}, {2, "a\xffb", 2, "f.jsonl:2:4: expected UTF-8 text"}, {3, "ok", 0, ""}}},
		{"last line blank", "a\n   ", []gotLine{{1, "a", 0, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, src := range []struct {
				kind string
				ls   *Lines
			}{
				{"bytes", NewLines("f.jsonl", []byte(tt.in))},
				{"reader", NewReaderLines("f.jsonl", strings.NewReader(tt.in))},
				{"one byte at a time", NewReaderLines("f.jsonl", iotest.OneByteReader(strings.NewReader(tt.in)))},
			} {
				got, err := collect(src.ls)
				if err != nil {
					t.Fatalf("%s: %v", src.kind, err)
				}
				if !equalLines(got, tt.want) {
					t.Errorf("%s: got %+v, want %+v", src.kind, got, tt.want)
				}
			}
		})
	}
}

func equalLines(a, b []gotLine) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLinesReadError(t *testing.T) {
	boom := errors.New("boom")
	ls := NewReaderLines("f.jsonl", io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)))
	got, err := collect(ls)
	if !errors.Is(err, boom) || len(got) != 1 {
		t.Fatalf("got %v, %v; want line 1 then boom", got, err)
	}
}

func TestSkip(t *testing.T) {
	for _, skip := range []bool{false, true} {
		ls := NewLines("f.jsonl", []byte("1\n\xff\n3"))
		ls.SkipBadLines = skip
		var kept []int
		var stop error
		for ls.Next() {
			if b := ls.BadLine(); b != nil {
				if stop = ls.Skip(b); stop != nil {
					break
				}
				continue
			}
			kept = append(kept, ls.Line().No)
		}
		if skip && (stop != nil || len(kept) != 2 || len(ls.Skipped) != 1 || ls.Skipped[0].Line != 2) {
			t.Errorf("skip: kept %v, skipped %v, stop %v", kept, ls.Skipped, stop)
		}
		if !skip && (stop == nil || head(stop) != "f.jsonl:2:1: expected UTF-8 text" || len(kept) != 1) {
			t.Errorf("no skip: kept %v, stop %v", kept, stop)
		}
	}
}

func TestStripBOM(t *testing.T) {
	if got := string(StripBOM([]byte("\ufeff\ufeffx"))); got != "\ufeffx" {
		t.Errorf("StripBOM = %q: want one BOM removed", got)
	}
	if got := StripBOMString("\ufeffx"); got != "x" {
		t.Errorf("StripBOMString = %q", got)
	}
	if got := StripBOMString("x\ufeff"); got != "x\ufeff" {
		t.Errorf("StripBOMString = %q", got)
	}
}

// FuzzLines holds both iterators to a simple reference: split on "\n",
// drop the BOM of line 1, trim Unicode space, skip blank lines.
func FuzzLines(f *testing.F) {
	for _, s := range []string{"", "a", "a\nb", "\ufeff{}\r\n\r\n[1]\n", "\xff\n \t\n\u00a0x\u2028", "\r", "\n\n\nz"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want []gotLine
		for i, raw := range strings.Split(string(data), "\n") {
			if i == 0 {
				raw = strings.TrimPrefix(raw, "\ufeff")
			}
			text := strings.TrimSpace(raw)
			if text == "" {
				continue
			}
			// The indent is the leading space, counted in characters (not
			// found by searching for text: a byte of it may occur inside
			// a space character's encoding, as 0xa8 in U+2028's).
			lead := raw[:len(raw)-len(strings.TrimLeftFunc(raw, unicode.IsSpace))]
			g := gotLine{No: i + 1, Text: text, Indent: utf8.RuneCountInString(lead)}
			if !utf8.ValidString(text) {
				g.Bad = "bad"
			}
			want = append(want, g)
		}
		for _, ls := range []*Lines{NewLines("f", data), NewReaderLines("f", iotest.HalfReader(bytes.NewReader(data)))} {
			got, err := collect(ls)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i].Bad != "" {
					got[i].Bad = "bad"
				}
			}
			if !equalLines(got, want) {
				t.Fatalf("got %+v\nwant %+v", got, want)
			}
		}
	})
}

func TestNotObject(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1}`, ""},
		{`not json`, ""},
		{`[]`, "f:1:3: expected a JSON object, found an array"},
		{`"str"`, "f:1:3: expected a JSON object, found a string"},
		{`42`, "f:1:3: expected a JSON object, found a number"},
		{`null`, "f:1:3: expected a JSON object, found null"},
		{`true`, "f:1:3: expected a JSON object, found true"},
	}
	for _, tt := range tests {
		ls := NewLines("f", []byte("  "+tt.in))
		ls.Next()
		got := ""
		if e := ls.NotObject("a JSON object"); e != nil {
			got = e.Head()
		}
		if got != tt.want {
			t.Errorf("NotObject(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJSONError(t *testing.T) {
	var v struct {
		A string `json:"a"`
	}
	tests := []struct {
		in, what, want string
	}{
		{`{"a":}`, "an object", `f:3:8: invalid JSON: invalid character '}' looking for beginning of value: expected an object`},
		{`{"a":1`, "", `f:3:9: invalid JSON: unexpected end of JSON input`},
		{`{"a":1}`, "an object", `f:3:8: member "a" is a number: expected a string`},
		{`[1]`, "an object", `f:3:3: expected an object, found an array`},
		{"{\"é\":x}", "", `f:3:8: invalid JSON: invalid character 'x' looking for beginning of value`},
		{`{"m": "m", oops}`, "", `f:3:14: invalid JSON: invalid character 'o' looking for beginning of object key string`},
		{`[1,,2]`, "", `f:3:6: invalid JSON: invalid character ',' looking for beginning of value`},
	}
	for _, tt := range tests {
		ls := NewLines("f", []byte("\n\n  "+tt.in))
		ls.Next()
		err := json.Unmarshal(ls.Line().Text, &v)
		if got := ls.JSONError(err, tt.what).Head(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPosition(t *testing.T) {
	data := []byte("ab\nçd\n")
	for _, tt := range []struct{ off, line, col int }{{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 2}, {6, 2, 3}, {99, 3, 1}, {-1, 1, 1}} {
		if l, c := Position(data, tt.off); l != tt.line || c != tt.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tt.off, l, c, tt.line, tt.col)
		}
	}
}

func TestTreeAndLocate(t *testing.T) {
	data := []byte("{\n \"a\": [1, {\"b\": true}],\n \"c\": null}")
	_, tree, err := ParseTree(data, "f", 10)
	if err != nil {
		t.Fatal(err)
	}
	if l, c := tree.Pos("a[1].b"); l != 2 || c != 17 {
		t.Errorf("Pos = %d:%d", l, c)
	}
	if l, c, ok := Locate(data, "a", 1, "b"); !ok || l != 2 || c != 17 {
		t.Errorf("Locate = %d:%d %v", l, c, ok)
	}
	if _, _, ok := Locate(data, "a", 5); ok {
		t.Error("Locate found a[5]")
	}
	for in, want := range map[string]string{
		`{"a":1,"a":2}`: `f:11:8: duplicate key "a"`,
		`{} {}`:         "f:11:4: " + TrailingData,
		`{"a":`:         "f:11:6: invalid JSON: unexpected end of input",
		`{"a" 1}`:       "f:11:6: invalid JSON: invalid character '1' after object key",
		`[nul]`:         "f:11:5: invalid JSON: invalid character ']' in literal null (expecting 'l')",
	} {
		if _, _, err := ParseTree([]byte(in), "f", 10); err == nil || head(err) != want {
			t.Errorf("ParseTree(%s) = %v, want %s", in, err, want)
		}
	}
}

func TestCheckUTF8(t *testing.T) {
	if e := CheckUTF8("f", []byte("ok\nçà")); e != nil {
		t.Errorf("valid text: %v", e)
	}
	if e := CheckUTF8("f", []byte("ok\nçx\xff")); e == nil || e.Head() != "f:2:3: expected UTF-8 text" {
		t.Errorf("CheckUTF8 = %v", e)
	}
}

func TestParseLineTree(t *testing.T) {
	ls := NewLines("f", []byte("\n   {\"a\": [1, 2]}\n  {\"a\" 1}"))
	ls.Next()
	_, tree, err := ParseLineTree("f", ls.Line())
	if err != nil {
		t.Fatal(err)
	}
	if l, c := tree.Pos("a[1]"); l != 1 || c != 14 {
		t.Errorf("Pos = %d:%d, want 1:14 (on the line)", l, c)
	}
	ls.Next()
	if _, _, err := ParseLineTree("f", ls.Line()); err == nil || head(err) != "f:3:8: invalid JSON: invalid character '1' after object key" {
		t.Errorf("err = %v", err)
	}
}

// TestUnended: only a last line the input ends inside is Unended, read
// from bytes or from a reader.
func TestUnended(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []bool // Unended of each non-blank line
	}{
		{"a\nb\n", []bool{false, false}},
		{"a\nb", []bool{false, true}},
		{"a\r\nb\r\n", []bool{false, false}},
		{"a\n\n  ", []bool{false}},
		{"a", []bool{true}},
	} {
		for _, ls := range []*Lines{NewLines("f", []byte(tc.in)), NewReaderLines("f", iotest.OneByteReader(strings.NewReader(tc.in)))} {
			var got []bool
			for ls.Next() {
				got = append(got, ls.Line().Unended)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%q: %v, want %v", tc.in, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
				}
			}
		}
	}
}

// TestLinesAt: a part of a file read from its first line's number gives
// the file's numbers; only the file's start drops a byte order mark.
func TestLinesAt(t *testing.T) {
	data := []byte(bom + "{}\n\n  {\"a\": 1}\r\n{}")
	whole, err := collect(NewLines("f", data))
	if err != nil {
		t.Fatal(err)
	}
	part, err := collect(NewLinesAt("f", data[len(bom)+3:], 2))
	if err != nil {
		t.Fatal(err)
	}
	if !equalLines(part, whole[1:]) {
		t.Fatalf("from line 2: %+v, want %+v", part, whole[1:])
	}
	if l, _ := collect(NewLinesAt("f", []byte(bom+"{}"), 7)); len(l) != 1 || l[0].No != 7 || l[0].Text != bom+"{}" {
		t.Fatalf("a BOM after the start: %+v", l)
	}
	if l, _ := collect(NewLinesAt("f", []byte(bom+"{}"), 1)); len(l) != 1 || l[0].Text != "{}" {
		t.Fatalf("a BOM at the start: %+v", l)
	}
}

// head is the first line of err's message: the error without its source
// line and caret.
func head(err error) string {
	h, _, _ := strings.Cut(err.Error(), "\n")
	return h
}

// TestReaderLinesAroundTheChunk: a reader's lines are handed out from
// the chunk they were read into, a line begun at a full chunk's end
// carried over to the next; up to and past the chunk's size, with and
// without a final newline, read whole or in halves, they are what the
// in-memory reader gives. Every line stays as it was handed out (its
// memory is never written again).
func TestReaderLinesAroundTheChunk(t *testing.T) {
	var parts []string
	for i, n := range []int{1, chunkSize - 2, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 5, 3, 2 * chunkSize, 1000} {
		parts = append(parts, strings.Repeat(string(rune('a'+i)), n))
	}
	for _, end := range []string{"\n", ""} {
		data := []byte(strings.Join(parts, "\n") + end)
		want, err := collect(NewLines("f", data))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []io.Reader{bytes.NewReader(data), iotest.HalfReader(bytes.NewReader(data))} {
			ls := NewReaderLines("f", r)
			var got []gotLine
			var texts [][]byte
			for ls.Next() {
				l := ls.Line()
				got = append(got, gotLine{No: l.No, Text: string(l.Text), Indent: l.Indent})
				texts = append(texts, l.Text)
			}
			if err := ls.Err(); err != nil {
				t.Fatal(err)
			}
			if !equalLines(got, want) || len(got) != len(parts) {
				t.Errorf("final %q: %d lines, want %d the same", end, len(got), len(want))
			}
			for i, text := range texts {
				if string(text) != parts[i] {
					t.Errorf("final %q: line %d changed after it was handed out", end, i+1)
				}
			}
		}
	}
}

// TestReaderLinesNoProgress: a reader that gives nothing, and no error,
// a hundred times in a row stops the lines with io.ErrNoProgress rather
// than spinning.
func TestReaderLinesNoProgress(t *testing.T) {
	ls := NewReaderLines("f", iotest.ErrReader(nil))
	if ls.Next() || !errors.Is(ls.Err(), io.ErrNoProgress) {
		t.Fatalf("error %v, want io.ErrNoProgress", ls.Err())
	}
	if !strings.HasPrefix(ls.Err().Error(), "f: ") {
		t.Errorf("error %q does not name the file", ls.Err())
	}
}

// TestLineLimit: a reader's LineLimit bounds a line below MaxLine, and
// the error names the line and the limit.
func TestLineLimit(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	ls := NewReaderLines("r.jsonl", strings.NewReader("{}\n"+long+"\n"))
	ls.LineLimit = 100 << 10
	n := 0
	for ls.Next() {
		n++
	}
	err := ls.Err()
	if n != 1 || err == nil || err.Error() != "r.jsonl:2: line longer than 102400 bytes: expected one JSON value per line" {
		t.Errorf("%d lines, error %v; want 1 line and the limit's error at line 2", n, err)
	}
	ls = NewReaderLines("r.jsonl", strings.NewReader(long+"\n"))
	for ls.Next() {
		n++
	}
	if ls.Err() != nil || n != 2 {
		t.Errorf("without a limit: %d lines, error %v", n, ls.Err())
	}
}
