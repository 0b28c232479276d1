package doccheck

import (
	"reflect"
	"strings"
	"testing"
)

func TestMatchOutput(t *testing.T) {
	tests := []struct {
		name      string
		want, got string
		ok        bool
		firstBad  int
	}{
		{"equal", "a\nb", "a\nb", true, 0},
		{"trailing spaces ignored", "a \nb", "a\nb\t", true, 0},
		{"a changed line", "a\nb\nc", "a\nx\nc", false, 2},
		{"a missing line", "a\nb", "a", false, 2},
		{"a line left over", "a", "a\nb", false, 2},
		{"ellipsis takes none", "a\n…\nb", "a\nb", true, 0},
		{"ellipsis takes many", "a\n…\nd", "a\nb\nc\nd", true, 0},
		{"ellipsis at the end", "a\n…", "a\nb\nc", true, 0},
		{"ellipsis at the start", "…\nc", "a\nb\nc", true, 0},
		{"two ellipses", "…\nb\n…\nd\n…", "a\nb\nc\nd\ne", true, 0},
		{"ellipsis but a changed tail", "a\n…\nz", "a\nb\nc", false, 3},
		{"empty", "", "", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, bad := MatchOutput(Lines(tt.want), Lines(tt.got))
			if ok != tt.ok || bad != tt.firstBad {
				t.Errorf("MatchOutput(%q, %q) = %v, %d; want %v, %d", tt.want, tt.got, ok, bad, tt.ok, tt.firstBad)
			}
		})
	}
}

func TestParseConsole(t *testing.T) {
	md := "text\n```console\n$ docscore a \\\n    --b 'c d'\nout 1\n…\n$ echo $?\n0\n```\n"
	blocks := Blocks(md)
	if len(blocks) != 1 || blocks[0].Info != "console" || blocks[0].Line != 2 {
		t.Fatalf("Blocks = %+v", blocks)
	}
	steps, err := ParseConsole(blocks[0])
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{Line: 3, Command: "docscore a --b 'c d'", Want: []string{"out 1", "…"}},
		{Line: 7, Command: "echo $?", Want: []string{"0"}},
	}
	if !reflect.DeepEqual(steps, want) {
		t.Errorf("ParseConsole = %+v\nwant %+v", steps, want)
	}
	if _, err := ParseConsole(Block{Line: 9, Lines: []string{"output first"}}); err == nil || !strings.Contains(err.Error(), "line 10") {
		t.Errorf("output before a command: err = %v, want one naming line 10", err)
	}
}

func TestBlocksLongerFences(t *testing.T) {
	md := "````markdown\n```\ninner\n```\n````\n```sh\nx\n```"
	got := Blocks(md)
	if len(got) != 2 || got[0].Info != "markdown" || len(got[0].Lines) != 3 || got[1].Info != "sh" || got[1].Line != 6 {
		t.Errorf("Blocks = %+v", got)
	}
}

func TestLinksAndAnchors(t *testing.T) {
	md := "# Title\n\nSee [a](docs/a.md#one-two), `[no](x.md)` and ![pic](p.png \"t\").\n```\n[code](c.md)\n# not a heading\n```\n## One, two!\n## One, two!\n"
	links := Links(md)
	want := []Link{{3, "docs/a.md#one-two"}, {3, "p.png"}}
	if !reflect.DeepEqual(links, want) {
		t.Errorf("Links = %+v, want %+v", links, want)
	}
	anchors := Anchors(md)
	for _, a := range []string{"title", "one-two", "one-two-1"} {
		if !anchors[a] {
			t.Errorf("Anchors lacks %q: %v", a, anchors)
		}
	}
	if anchors["not-a-heading"] {
		t.Errorf("Anchors took a heading from a code block: %v", anchors)
	}
}

// FuzzConsole feeds Markdown through the block, console and output parsers:
// none may panic, and output always matches itself.
func FuzzConsole(f *testing.F) {
	f.Add("```console\n$ docscore a \\\n b\nout\n…\n```\n")
	f.Add("````\n```\n$ 'x\n````\n[l](a#b)\n# H\n")
	f.Add("```console\nno command\n```")
	f.Fuzz(func(t *testing.T, md string) {
		for _, b := range Blocks(md) {
			steps, err := ParseConsole(b)
			if err != nil {
				continue
			}
			for _, s := range steps {
				if ok, _ := MatchOutput(s.Want, s.Want); !ok {
					t.Errorf("output %q does not match itself", s.Want)
				}
			}
		}
		Links(md)
		Anchors(md)
	})
}
