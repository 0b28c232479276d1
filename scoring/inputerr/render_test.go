package inputerr

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRender(t *testing.T) {
	long := strings.Repeat("a", 150) + "X" + strings.Repeat("b", 150)
	tests := []struct {
		name, src string
		n, col    int
		want      string
	}{
		{"caret", `{"id": x}`, 3, 8, "    3 | {\"id\": x}\n      |        ^"},
		{"first column", "x", 12, 1, "   12 | x\n      | ^"},
		{"no column", "abc", 7, 0, "    7 | abc"},
		{"past the end", "ab", 1, 9, "    1 | ab\n      |   ^"},
		{"crlf", "ab\r", 1, 2, "    1 | ab\n      |  ^"},
		{"tab kept", "\ta\tb", 1, 4, "    1 | \ta\tb\n      | \t \t^"},
		{"accents", "çéx", 1, 3, "    1 | çéx\n      |   ^"},
		{"combining", "e\u0301x", 1, 3, "    1 | e\u0301x\n      |  ^"},
		{"wide", "日本x", 1, 3, "    1 | 日本x\n      |     ^"},
		{"control", "a\x1bb", 1, 3, "    1 | a\ufffdb\n      |   ^"},
		{"not utf-8", "a\xff\xfeb", 1, 4, "    1 | a\ufffd\ufffdb\n      |    ^"},
		{"wide number", "x", 123456, 1, " 123456 | x\n        | ^"},
		{"long, column late", long, 1, 151, "    1 | …" + long[117:217] + "…\n      |  " + strings.Repeat(" ", 33) + "^"},
		{"long, column early", long, 1, 2, "    1 | " + long[:100] + "…\n      |  ^"},
		{"long, no column", long, 1, 0, "    1 | " + long[:100] + "…"},
		{"long, past the end", long, 1, 999, "    1 | …" + long[201:] + "\n      |  " + strings.Repeat(" ", 100) + "^"},
	}
	for _, tt := range tests {
		if got := Render(tt.src, tt.n, tt.col); got != tt.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

func TestErrorShowsTheSourceLine(t *testing.T) {
	e := At("runs.jsonl", 3, 8, `{"id": x}`, "invalid JSON: %s", "bad")
	want := "runs.jsonl:3:8: invalid JSON: bad\n    3 | {\"id\": x}\n      |        ^"
	if e.Error() != want {
		t.Errorf("Error() =\n%s\nwant\n%s", e.Error(), want)
	}
	if e.Head() != "runs.jsonl:3:8: invalid JSON: bad" {
		t.Errorf("Head() = %q", e.Head())
	}
	l := List{e, New("b", 2, "y")}
	if l.Error() != want+"\nb:2: y" {
		t.Errorf("List.Error() = %q", l.Error())
	}
}

// FuzzRender: any line and column render without panicking, on two lines
// at most, the excerpt bounded, and the caret under the column's
// character.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"", "x", `{"id": x}`, "\ta\tb", "日本x", "a\xffb", strings.Repeat("ab", 200), "a\r"} {
		f.Add(s, 1, 0)
		f.Add(s, 7, 3)
	}
	f.Fuzz(func(t *testing.T, src string, n, col int) {
		out := Render(src, n, col)
		lines := strings.Split(out, "\n")
		if len(lines) > 2 || (col > 0) != (len(lines) == 2) {
			t.Fatalf("Render(%q, %d, %d) has %d lines", src, n, col, len(lines))
		}
		if c := utf8.RuneCountInString(lines[0]); c > MaxExcerpt+40 {
			t.Fatalf("excerpt of %d characters", c)
		}
		if len(lines) == 2 && !strings.HasSuffix(lines[1], "^") {
			t.Fatalf("no caret: %q", lines[1])
		}
	})
}

func TestRenderHugeColumn(t *testing.T) {
	const maxInt = int(^uint(0) >> 1)
	if got, want := Render("abc", 1, maxInt), "    1 | abc\n      |    ^"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
