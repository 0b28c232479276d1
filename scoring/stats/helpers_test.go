package stats

import (
	"fmt"
	"testing"
)

// synthTabular builds a tabular cell of n pages with two fields from a
// deterministic stream: each page has nGT records, of which a share
// around quality are matched, a few extras, and name edits.
func synthTabular(t testing.TB, id string, n int, quality float64, key string) *Cell {
	t.Helper()
	s := TabularSchema([]string{"title", "children_count"})
	b := NewBuilder(id, s)
	g := Stream(0, key)
	for i := range n {
		page := fmt.Sprintf("p%03d", i)
		ngt := 10 + g.Index(20)
		m := 0
		for range ngt {
			if uniform(g) < quality {
				m++
			}
		}
		extras := g.Index(3)
		v := make([]float64, s.Width)
		v[TabMatched], v[TabNModel], v[TabNGT] = float64(m), float64(m+extras), float64(ngt)
		v[TabNameEdits], v[TabNameRefChars] = float64(g.Index(5)), float64(15*m)
		v[TabFields], v[TabFields+1] = float64(m)*uniform(g), float64(m)
		if i%3 == 0 { // children_count is scorable on a third of the pages
			v[TabFields+2], v[TabFields+3] = float64(g.Index(m+1)), float64(m)
		}
		if err := b.Add(page, v); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// uniform returns a float in [0, 1) from the top 53 bits of g.
func uniform(g *SplitMix64) float64 { return float64(g.Next()>>11) / (1 << 53) }

// withID returns c under another id (same units and contributions).
func withID(c *Cell, id string) *Cell {
	d := *c
	d.ID = id
	return &d
}
