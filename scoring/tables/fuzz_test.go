package tables

import "testing"

// FuzzParseAndScore reads arbitrary text in each format and scores it
// against itself and a fixed table: nothing panics, TEDS of a table with
// itself is 1, TEDS lies in [-1, 1] and GriTS in [0, 1].
func FuzzParseAndScore(f *testing.F) {
	f.Add(demoTrue, uint8(0))
	f.Add("<table><tr><td rowspan=x colspan=3>a<b>b</td><th>c</table>", uint8(0))
	f.Add("| a | b |\n|---|---|\n| 1 | 2 |\n", uint8(1))
	f.Add("a,b\n1,2\n3\n", uint8(2))
	f.Add("<td>before a row</td><tr><td colspan=0>x</td></tr>", uint8(0))
	ref := mustTable(f, `<table><thead><tr><td>A</td><td>B</td></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>`)
	f.Fuzz(func(t *testing.T, s string, fm uint8) {
		format := []Format{HTML, Markdown, CSV}[int(fm)%3]
		tabs, err := Parse("f", s, format, ParseOptions{MaxNodes: 2000})
		if err != nil {
			return
		}
		for _, tb := range tabs {
			self, err := TEDS(tb.Root, tb.Root, TEDSOptions{MaxCells: 1 << 18})
			if err == nil && self != 1 {
				t.Fatalf("TEDS(t, t) = %v for %s", self, tb.Root.HTMLText())
			}
			v, err := TEDS(tb.Root, ref, TEDSOptions{MaxCells: 1 << 18})
			// TEDS is not clamped, as PubTabNet's is not: a deep chain
			// against a wide table costs more than the larger count, but
			// never more than both counts together.
			if err == nil && (v < -1 || v > 1) {
				t.Fatalf("TEDS = %v", v)
			}
			g, err := GriTS(tb.Root, ref, GriTSOptions{MaxGridPairs: 1 << 14, MaxSpan: 20})
			if err == nil && (g.Top < 0 || g.Top > 1 || g.Con < 0 || g.Con > 1) {
				t.Fatalf("GriTS = %+v", g)
			}
		}
	})
}
