package tables

import (
	"html"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/mdread"
)

// markdownSeeds are tables at the edges of what the two readers read:
// fences (not code here), headings, lists, quotes, footers, spans, inline
// markup, entities and escapes.
var markdownSeeds = []string{
	"| a | b |\n|---|---|\n| 1 | 2 |\n",
	"```markdown\n| a | b |\n|---|---|\n| 1 | **2** |\n```\n",
	"Here:\n| a | b |\n|:-|-:|\n| *x* | ~~y~~ |\n| `c|d` | e \\| f |\n",
	"- | a | b |\n  |---|---|\n  | 1 | 2 |\n\n- item\n\n  | c |\n  |---|\n  | 3 |\n",
	"> | a | b |\n> |---|---|\n> | 1 | 2 |\n",
	"    | a | b |\n    |---|---|\n",
	"#| a | b |\n|---|---|\n| 1 | 2 |\n",
	"|---|---|\n| 1 | 2 |\n| 3 |\n",
	"| a | b | c |\n|---|---|---|\n| 1 || 2 |\n|===|===|===|\n| s | t | u |\n|===|\n| v |\n",
	"| ***a*** | **b *c*** | _d_ | __e__ | a_b_c |\n|-|-|-|-|-|\n| &amp; &eacute; &#233; &#x41; &bogus; | [l *k*](u) | ![*alt*](i.png) | `` a ` b `` | <b>x</b> |\n",
	"text\n\n: not a definition\n\n| a |\n|---|\n| 1 |\n",
	"a\n===\n| a |\n|---|\n| **1 |\n",
	"1. one\n2. two\n\n   | a | b |\n   |---|---|\n   | 1 | 2 |\n",
	"| a | b |\r\n|---|---|\r\n| 1 | 2 |\r\n",
}

// markdownOutsideSubset reports inline Markdown the reader deliberately
// reads apart from gomarkdown (doc.go): HTML blocks, reference links and
// definitions, autolinks and bare URLs, a link with white space before
// its destination, and a link in a link's text.
var (
	mdHTMLBlock    = regexp.MustCompile(`(?m)^[ \t>*+\-0-9.]*(?:<[A-Za-z/?]|<![^-])`)
	mdReferenceDef = regexp.MustCompile(`\]\s*[:\[]`)
	mdAutolink     = regexp.MustCompile(`(?i)<[a-z][a-z0-9+.\-]{1,31}:|<[^ <>@]+@|https?://|ftp://|www\.|mailto:|@[a-z0-9]`)
	mdSpacedLink   = regexp.MustCompile(`\]\s+\(`)
	mdNestedLink   = regexp.MustCompile(`\[[^\]]*\[`)
)

func markdownOutsideSubset(s string) bool {
	return mdHTMLBlock.MatchString(s) || mdReferenceDef.MatchString(s) || mdAutolink.MatchString(s) ||
		mdSpacedLink.MatchString(s) || mdNestedLink.MatchString(s)
}

// FuzzMarkdownAgainstGomarkdown holds parseMarkdown to the gomarkdown
// reader the package used before (gomarkdown_test.go): the same tables,
// in the same tree, outside the deliberate differences.
func FuzzMarkdownAgainstGomarkdown(f *testing.F) {
	for _, s := range markdownSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if markdownOutsideSubset(s) {
			t.Skip("outside the subset both readers read alike")
		}
		if overBudget(s) {
			t.Skip("a cell's markup is over the reader's work budget, taken as written")
		}
		// No node cap: the readers count nodes differently, and the trees
		// are what is compared.
		got, err := parseMarkdown(s, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		want, err := parseGomarkdown(s, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := tablesHTML(got), tablesHTML(want); g != w {
			t.Errorf("%q:\n got %s\nwant %s", s, g, w)
		}
	})
}

// overBudget reports whether a cell of s is read as written because its
// markup is over the reader's work budget.
func overBudget(s string) bool {
	for _, t := range mdread.ReadTables(mdread.NormalizeNewlines([]byte(s))) {
		rows := t.Rows
		if t.Header != nil {
			rows = append(rows, *t.Header)
		}
		for _, r := range rows {
			for _, c := range r.Cells {
				if _, read := mdread.ReadInline(c.Content, html.UnescapeString); !read {
					return true
				}
			}
		}
	}
	return false
}

// TestMarkdownWorkBound: markup that makes the reader's searches
// quadratic (runs of "[" or "**" that nothing closes) costs a bounded
// multiple of its length, and the cell is then taken as written.
func TestMarkdownWorkBound(t *testing.T) {
	for _, p := range []string{"[a", "**a ", "![a", "[a](("} {
		cell := strings.TrimSpace(strings.Repeat(p, 100_000/len(p)))
		got, err := parseMarkdown("| h |\n|---|\n| "+cell+" |\n", DefaultMaxNodes)
		if err != nil || len(got) != 1 {
			t.Fatalf("%q: %d tables, %v", p, len(got), err)
		}
		td := got[0].Children[1].Children[0].Children[0]
		if len(td.Children) != 1 || td.Children[0].Text != cell {
			t.Errorf("%q ×%d: the cell is not its text as written", p, len(cell)/len(p))
		}
		if _, read := mdread.ReadInline([]byte(cell), html.UnescapeString); read {
			t.Errorf("%q: read within the budget", p)
		}
	}
	// An ordinary cell is read.
	if m, read := mdread.ReadInline([]byte("**a** [b](c) `d`"), html.UnescapeString); !read || len(m) != 7 {
		t.Errorf("ordinary markup: %v, read %v", m, read)
	}
}

func tablesHTML(ns []*Node) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(n.HTMLText())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestMarkdownReading pins what the reader makes of a Markdown text,
// among it where it deliberately reads apart from gomarkdown (doc.go).
func TestMarkdownReading(t *testing.T) {
	tests := []struct {
		name, text, want string
		gomarkdownAgrees bool
	}{
		{"in a fence", "```markdown\n| a | b |\n|---|---|\n| 1 | **2** |\n```\n",
			"<table><thead><tr><td>a</td><td>b</td></tr></thead><tbody><tr><td>1</td><td><b>2</b></td></tr></tbody></table>\n", true},
		{"spans and footers", "| a | b | c |\n|---|---|---|\n| 1 || 2 |\n|===|===|===|\n| s | t | u |\n",
			"<table><thead><tr><td>a</td><td>b</td><td>c</td></tr></thead><tbody><tr><td colspan=\"2\">1</td><td>2</td></tr></tbody><tfoot><tr><td>s</td><td>t</td><td>u</td></tr></tfoot></table>\n", true},
		{"inline markup", "| ***a*** | ~~b~~ | `c|d` | &eacute;&#x41; | ![*i*](p) |\n|-|-|-|-|-|\n",
			"<table><thead><tr><td><b><i>a</i></b></td><td><strike>b</strike></td><td><code>c|d</code></td><td>éA</td><td>*i*</td></tr></thead></table>\n", true},
		{"no header row", "|---|---|\n| 1 | 2 |\n",
			"<table><tbody><tr><td>1</td><td>2</td></tr></tbody></table>\n", true},
		{"HTML block read as text", "<div>\n| a |\n|---|\n| 1 |\n</div>\n",
			"<table><thead><tr><td>a</td></tr></thead><tbody><tr><td>1</td></tr></tbody></table>\n", false},
		{"autolink kept as written", "| a |\n|---|\n| <http://x.org> |\n",
			"<table><thead><tr><td>a</td></tr></thead><tbody><tr><td>&lt;http://x.org&gt;</td></tr></tbody></table>\n", false},
		{"CR newlines", "| a |\r|---|\r| 1 |\r",
			"<table><thead><tr><td>a</td></tr></thead><tbody><tr><td>1</td></tr></tbody></table>\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseMarkdown(tt.text, DefaultMaxNodes)
			if err != nil {
				t.Fatal(err)
			}
			if g := tablesHTML(got); g != tt.want {
				t.Errorf("got  %s\nwant %s", g, tt.want)
			}
			old, err := parseGomarkdown(tt.text, DefaultMaxNodes)
			if err != nil {
				t.Fatal(err)
			}
			if agree := tablesHTML(old) == tt.want; agree != tt.gomarkdownAgrees {
				t.Errorf("gomarkdown agrees: %v, want %v (it reads %s)", agree, tt.gomarkdownAgrees, tablesHTML(old))
			}
		})
	}
	_, err := Parse("big.md", strings.Repeat("| a | b |\n|---|---|\n| 1 | 2 |\n\n", 30), Markdown, ParseOptions{MaxNodes: 100})
	if err == nil || !strings.HasPrefix(err.Error(), "big.md") || !strings.Contains(err.Error(), "work cap") {
		t.Errorf("over the cap: %v", err)
	}
}
