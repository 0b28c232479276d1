package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/docscore/docscore/internal/mdread"
)

// differential returns what Parse reads from src with the reader given, in
// a form to compare.
func differential(f *File, err error) string {
	return fmt.Sprintf("rows %+v\nrejected %+v\nprose %v\nwarnings %v\nerr %v", f.Rows, f.rejected, f.prose, f.Warnings, err)
}

// addRuleFiles seeds f with every rule file and Markdown document kept in
// testdata.
func addRuleFiles(f *testing.F) {
	for _, pattern := range []string{"testdata/valid/*.md", "testdata/invalid/*.md", "testdata/rulefiles/*.md"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		if len(files) == 0 {
			f.Fatalf("no files match %s", pattern)
		}
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
}

// FuzzMarkdownAgainstGomarkdown holds the hand-written Markdown reader to
// the gomarkdown-based one it replaced: the same rows, lines, warnings and
// errors, except on the input classes doc.go names.
func FuzzMarkdownAgainstGomarkdown(f *testing.F) {
	addRuleFiles(f)
	for _, s := range trickyMarkdown {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if d := differenceFromGomarkdown(src); d != "" {
			t.Fatal(d)
		}
	})
}

// TestMarkdownAgainstGomarkdown runs the differential check on every seed
// without fuzzing, so that `go test` alone covers it.
func TestMarkdownAgainstGomarkdown(t *testing.T) {
	var inputs [][]byte
	for _, pattern := range []string{"testdata/valid/*.md", "testdata/invalid/*.md", "testdata/rulefiles/*.md"} {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, src)
		}
	}
	if len(inputs) < 20 {
		t.Fatalf("only %d rule files in testdata", len(inputs))
	}
	for _, s := range trickyMarkdown {
		inputs = append(inputs, []byte(s))
	}
	for _, src := range inputs {
		if d := differenceFromGomarkdown(src); d != "" {
			t.Error(d)
		}
	}
}

// differenceFromGomarkdown describes how Parse and the gomarkdown reader
// read src differently; "" when they agree or src is outside the subset.
// A table gomarkdown's reader found by searching for its header's text
// (in a block quote or list item, or with no plain text in its header) it
// is given the line Parse found, where that line holds the header's text:
// its search could stop at an earlier line holding the same words
// (doc.go), and then read the extra cells of the wrong lines.
func differenceFromGomarkdown(src []byte) string {
	got, gotErr := Parse("f.md", src)
	want, wantErr := parseGomarkdown("f.md", src, tableLines(src))
	g, w := differential(got, gotErr), differential(want, wantErr)
	if g == w && reflect.DeepEqual(got.Rows, want.Rows) || outsideSubset(src) {
		return ""
	}
	return fmt.Sprintf("readers differ on %q\nnew:\n%s\ngomarkdown:\n%s", src, g, w)
}

// tableLines returns the header lines of the tables mdread.Read finds in
// src, in order.
func tableLines(src []byte) []int {
	var lines []int
	for _, b := range mdread.Read(normalize(src)) {
		if b.Table {
			lines = append(lines, b.Line)
		}
	}
	return lines
}

// outsideSubset reports whether src holds Markdown the hand-written reader
// deliberately reads differently (doc.go).
func outsideSubset(src []byte) bool {
	buf := normalize(src)
	// A cell whose markup is over the reader's work budget is taken as
	// written.
	if mdread.OverBudget(buf) {
		return true
	}
	for _, b := range mdread.Read(buf) {
		// A footer line ("|===|", or a lone "|"): gomarkdown's reader
		// counted the rows after it from the header, one line short.
		if b.Table && b.Footer {
			return true
		}
	}
	return inlineOutsideSubset(buf)
}

// Inline Markdown the reader deliberately reads as plain text (doc.go):
// named entities other than the six it knows, HTML blocks other than
// comments, reference links and definitions, autolinks and bare URLs, and
// a link with white space before its destination.
var (
	namedEntity  = regexp.MustCompile(`&[A-Za-z][A-Za-z0-9]*;`)
	htmlBlock    = regexp.MustCompile(`(?m)^[ \t>*+\-0-9.]*(?:<[A-Za-z/?]|<![^-])`)
	referenceDef = regexp.MustCompile(`\]\s*[:\[]`)
	autolink     = regexp.MustCompile(`(?i)<[a-z][a-z0-9+.\-]{1,31}:|<[^ <>@]+@|https?://|ftp://|www\.|mailto:|@[a-z0-9]`)
	spacedLink   = regexp.MustCompile(`\]\s+\(`)
)

func inlineOutsideSubset(src []byte) bool {
	for _, m := range namedEntity.FindAll(src, -1) {
		switch string(m) {
		case "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&nbsp;":
		default:
			return true
		}
	}
	return htmlBlock.Match(src) || referenceDef.Match(src) || autolink.Match(src) || spacedLink.Match(src)
}

// TestMarkdownSpacedLink: "[text] (destination)" is text, as GFM reads
// it, where gomarkdown read a link (doc.go); "[text](destination)" is
// still its text.
func TestMarkdownSpacedLink(t *testing.T) {
	src := []byte("# Equivalences\n| field | forms | canonical | status |\n|-|-|-|-|\n| title | [ab] (x) / [c](y) | d | OPEN |\n")
	f, err := Parse("f.md", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rows) != 1 || !reflect.DeepEqual(f.Rows[0].Forms, []string{"[ab] (x)", "c"}) {
		t.Fatalf("rows %+v, want one with forms [ab] (x) and c", f.Rows)
	}
	if !outsideSubset(src) {
		t.Error("outsideSubset: false for a spaced link, which the readers read apart")
	}
}

// trickyMarkdown are variants of rule files at the edges of the subset.
var trickyMarkdown = []string{
	"## Ignore\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |",
	"## Equivalences\n\n| field | forms | canonical | status |\n|---|---|---|---|\n| `*` | `a` / `b` | `c` | `OPEN` |\n",
	"# Equivalences\n> | field | forms | canonical | status | witness |\n> |---|---|---|---|---|\n> | title | ab. | abate | settled | w |\n",
	"## Ignore\n\n```markdown\nnever closed\n\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n",
	"## Ignore\n\n> ~~~\n> in a quote\n\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n~~~\n",
	"## Ignore\n\n````\n```\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n`````\n",
	"## Equivalences\n| field | forms | canonical | status |\n|-|-|-|-|\n| title | `a|b` \\| c | d | OPEN | extra | `x|y` |\n> | e | f |\n",
	"## 1. Ignore rules\n| fld | tok | pos | sd | st |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n",
	"## Equivalences\n| field | forms | canonical | status | Notes | token | side |\n|-|-|-|-|-|-|-|\n| nome | a /  / b | | draft | n | t | s |\n",
	"# No rules\n\n<!--\n```\n-->\n| field | token | position | side | status |\n|-|-|-|-|-|\n",
	// Paragraphs, lists and quotes around tables.
	"## Ignore\nSome prose\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n",
	"## Ignore\n- a list item\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n",
	"## Ignore\n- a list item\n\n  | field | token | position | side | status |\n  |-|-|-|-|-|\n  | name | a | leading | model | settled |\n",
	"## Ignore\n1. item\n\n   more\n\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n",
	"Equivalences\n============\n\n| field | forms | canonical | status |\n|-|-|-|-|\n| title | ab. | abate | settled |\n",
	"Ignore rules\n---\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n|===|===|\n| name | b | leading | model | OPEN |\n",
	"## Equivalences {#eq}\n| field | forms | canonical | status |\n|:-|:-:|-:|-|\n| title | *ab.* / **abb.** / _abate_ | abate | settled |\n| title | a &amp; b / &#233; / &#x41; | ab | OPEN |\n| title | \\* / \\_ / \\\\ | x | OPEN |\n",
	"## Equivalences\n| field | forms | canonical | status |\n|-|-|-|-|\n| place_of_stay | s.ta / s_ta | santa | settled |\n| title || abate | settled |\n| title | a |\n",
	"    | indented | code |\n    |-|-|\n## Ignore\n\t| field | token | position | side | status |\n| field | token | position | side | status |\n|-|-|-|-|-|\n| name | a | leading | model | settled |\n",
	"## Ignore\n> quoted prose\n>\n> | field | token | position | side | status |\n> |-|-|-|-|-|\n> | name | a | leading | model | settled |\n> | name | b | trailing | model | settled |\n\n## Other\n| field | token | position | side | status |\n|-|-|-|-|-|\n",
	"## Equivalences\n| field | forms | canonical | status |\n|-|-|-|-|\n| title | [ab.](http://x) / `a` b | abate | settled |\n",
	// A list item or quote whose last row ends the file without a newline.
	"- x\n# Equivalences\nfield|forms|canonical|status\n-|-|-|-\na|b|c|OPEN\na|b|c|OPEN|0|0",
	"# Equivalences\n> field|forms|canonical|status\n> -|-|-|-\n> a|b|c|OPEN\n> a|b|c|OPEN|0|0",
	"# Ignore ##\n***\n| field | token | position | side | status |\n| - | - | - | - | - |\n| name | a | leading | model | settled |\n",
}
