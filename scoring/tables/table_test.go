package tables

import (
	"strings"
	"testing"
)

func TestParseFormats(t *testing.T) {
	tests := []struct {
		name, text string
		f          Format
		want       []string // each table written back as HTML
	}{
		{"fragment", `<table><tr><td>a</td><td>b</td></tr></table>`, HTML,
			[]string{`<table><tr><td>a</td><td>b</td></tr></table>`}},
		{"no implied tbody, cells closed by cells", `<table><tr><td>a<td>b<tr><td>c</table>`, HTML,
			[]string{`<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>`}},
		{"two tables, nested kept inside", `<p>x</p><table><tr><td><table><tr><td>n</td></tr></table></td></tr></table><div><table><tr><th colspan="2">h</th></tr></table></div>`, HTML,
			[]string{`<table><tr><td><table><tr><td>n</td></tr></table></td></tr></table>`, `<table><tr><th colspan="2">h</th></tr></table>`}},
		{"comments dropped, entities decoded", `<table><!-- c --><tr><td>a &amp; b&nbsp;</td></tr></table>`, HTML,
			[]string{"<table><tr><td>a &amp; b\u00a0</td></tr></table>"}},
		{"stray end tags ignored", `<table><tr><td>a</b></td></tr></tbody></table>`, HTML,
			[]string{`<table><tr><td>a</td></tr></table>`}},
		{"none", `<p>no table</p>`, HTML, nil},
		{"markdown", "# T\n\n| A | **B** |\n|---|---|\n| 1 | *2* |\n| 3 |\n\ntext\n\n| x |\n|---|\n| y |\n", Markdown,
			[]string{`<table><thead><tr><td>A</td><td><b>B</b></td></tr></thead><tbody><tr><td>1</td><td><i>2</i></td></tr><tr><td>3</td><td></td></tr></tbody></table>`,
				`<table><thead><tr><td>x</td></tr></thead><tbody><tr><td>y</td></tr></tbody></table>`}},
		{"csv", "\ufeffA,B\n1,\"2,5\"\n", CSV,
			[]string{`<table><thead><tr><td>A</td><td>B</td></tr></thead><tbody><tr><td>1</td><td>2,5</td></tr></tbody></table>`}},
		{"csv empty", "", CSV, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("f", tc.text, tc.f, ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d tables, want %d", len(got), len(tc.want))
			}
			for i, tb := range got {
				if tb.ID != "#"+string(rune('1'+i)) {
					t.Errorf("table %d: id %q", i, tb.ID)
				}
				if h := tb.Root.HTMLText(); h != tc.want[i] {
					t.Errorf("table %d:\n got %s\nwant %s", i, h, tc.want[i])
				}
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	_, err := Parse("bad.csv", "a,b\n\"x,y\n", CSV, ParseOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "bad.csv:2:") {
		t.Errorf("bad CSV: %v, want bad.csv:2:…", err)
	}
	_, err = Parse("big.html", strings.Repeat("<table><tr><td>x</td></tr></table>", 50), HTML, ParseOptions{MaxNodes: 100})
	if err == nil || !strings.Contains(err.Error(), "work cap") {
		t.Errorf("over the cap: %v", err)
	}
	if _, err := Parse("x", "", "pdf", ParseOptions{}); err == nil {
		t.Error("unknown format accepted")
	}
}

func TestTEDSCases(t *testing.T) {
	tab := func(s string) *Node { return mustTable(t, s) }
	tests := []struct {
		name     string
		pred, gt *Node
		o        TEDSOptions
		want     float64
	}{
		{"identical", tab(`<table><tr><td>a</td></tr></table>`), tab(`<table><tr><td>a</td></tr></table>`), TEDSOptions{}, 1},
		{"no prediction", nil, tab(`<table><tr><td>a</td></tr></table>`), TEDSOptions{}, 0},
		{"two empty tables", tab(`<table></table>`), tab(`<table></table>`), TEDSOptions{}, 1},
		{"empty against one", tab(`<table></table>`), tab(`<table><tr><td>a</td></tr></table>`), TEDSOptions{}, 0},
		// One cell of three tokens renamed: 1/3 over 3 elements (tr, td, td).
		{"content", tab(`<table><tr><td>abc</td><td>x</td></tr></table>`), tab(`<table><tr><td>abd</td><td>x</td></tr></table>`), TEDSOptions{}, 1 - (1.0/3)/3},
		{"structure only ignores content", tab(`<table><tr><td>abc</td></tr></table>`), tab(`<table><tr><td>xyz</td></tr></table>`), TEDSOptions{StructureOnly: true}, 1},
		{"colspan differs", tab(`<table><tr><td colspan="2">a</td></tr></table>`), tab(`<table><tr><td>a</td></tr></table>`), TEDSOptions{}, 0.5},
		// th is structural: its content is not compared, its tag is.
		{"th content ignored", tab(`<table><tr><th>a</th></tr></table>`), tab(`<table><tr><th>b</th></tr></table>`), TEDSOptions{}, 1},
		{"th against td", tab(`<table><tr><th>a</th></tr></table>`), tab(`<table><tr><td>a</td></tr></table>`), TEDSOptions{}, 0.5},
		{"th as td", tab(`<table><tr><th>a</th></tr></table>`), tab(`<table><tr><td>a</td></tr></table>`), TEDSOptions{THAsTD: true}, 1},
	}
	for _, tc := range tests {
		got, err := TEDS(tc.pred, tc.gt, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: TEDS = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTEDSWorkCap(t *testing.T) {
	big := mustTable(t, "<table>"+strings.Repeat("<tr><td>x</td><td>y</td></tr>", 200)+"</table>")
	if _, err := TEDS(big, big, TEDSOptions{MaxCells: 1000}); err != ErrTooLarge {
		t.Errorf("over the cap: err = %v, want ErrTooLarge", err)
	}
	if _, err := GriTS(big, big, GriTSOptions{MaxGridPairs: 1000}); err != ErrTooLarge {
		t.Errorf("GriTS over the cap: err = %v, want ErrTooLarge", err)
	}
}

// TestTEDSProperties checks identity (1), range and that TEDS-S is at
// least TEDS on the samples.
func TestTEDSProperties(t *testing.T) {
	var s Scorer
	for k, p := range loadSamples(t) {
		g, pr := mustTable(t, p.gt), mustTable(t, p.pred)
		self, _ := s.TEDS(g, g, TEDSOptions{})
		v, _ := s.TEDS(pr, g, TEDSOptions{})
		vs, _ := s.TEDS(pr, g, TEDSOptions{StructureOnly: true})
		if self != 1 || v < 0 || v > 1 || vs < v {
			t.Errorf("%s: self %v, TEDS %v, TEDS-S %v", k, self, v, vs)
		}
	}
}
