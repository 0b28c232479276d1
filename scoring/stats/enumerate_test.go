package stats

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// Counting the draw sequences and coin patterns of few units
// (enumerate.go) gives the same comparison, bit for bit, as summing
// every replicate and round: tabular cells with a field undefined on some
// pages, receipts phases with null pages and no pages at all, units only
// one side has, and draw counts below, at and above n^n and 2^n.
func TestEnumeratedMatchesDirect(t *testing.T) {
	var pairs [][2]*Cell
	for n := range 7 {
		a := synthTabular(t, "tabular/m/G", n, 0.8, fmt.Sprint("enum-a", n))
		b := synthTabular(t, "tabular/m/N", n, 0.6, fmt.Sprint("enum-b", n))
		pairs = append(pairs, [2]*Cell{a, b})
		pairs = append(pairs, [2]*Cell{synthReceipts(t, "receipts/a", n, 0, fmt.Sprint("ra", n)),
			synthReceipts(t, "receipts/b", n, 1, fmt.Sprint("rb", n))})
	}
	// Units only one side has: four pages against the last three of five.
	pairs = append(pairs, [2]*Cell{pairs[8][0], dropFirst(t, pairs[10][1], 2)})
	enumerated := map[string]int{}
	for _, p := range pairs {
		for _, br := range [][2]int{{1, 1}, {2, 3}, {9, 8}, {27, 64}, {255, 1000}, {300, 65536}, {2000, 10000}} {
			o := DefaultOptions()
			o.Replicates, o.Permutations, o.Seed = br[0], br[1], uint64(br[0])
			fast, err := compare(p[0], p[1], o, true)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := compare(p[0], p[1], o, false)
			if err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("%s|%s, %d paired units, B=%d R=%d", p[0].ID, p[1].ID, fast.UnitsPaired, o.Replicates, o.Permutations)
			if !reflect.DeepEqual(fast, slow) {
				t.Errorf("%s: enumerated\n%s\nwant\n%s", where, mustMarshal(t, fast), mustMarshal(t, slow))
			}
			n := fast.UnitsPaired
			if sequences(n, o.Replicates) > 0 {
				enumerated["bootstrap"]++
			}
			if 1<<n <= o.Permutations {
				enumerated["permutations"]++
			}
		}
	}
	// Both enumerations ran on a good share of the cases.
	if enumerated["bootstrap"] < 30 || enumerated["permutations"] < 60 {
		t.Errorf("enumerated %v of %d cases: the test no longer reaches the enumerations", enumerated, 7*len(pairs))
	}
}

// synthReceipts builds a receipts phase of n samples with structured
// metrics from a deterministic stream; a page's ROUGE-L F1 is null on
// every third sample from offset.
func synthReceipts(t testing.TB, id string, n, offset int, key string) *Cell {
	t.Helper()
	s := ReceiptsSchema(true)
	b := NewBuilder(id, s)
	g := Stream(0, key)
	for i := range n {
		v := make([]float64, s.Width)
		if (i+offset)%3 != 0 {
			v[RecF1Sum], v[RecF1Count] = uniform(g), 1
		}
		v[RecNumericRef] = float64(g.Index(4))
		v[RecNumericMatched] = float64(g.Index(int(v[RecNumericRef]) + 1))
		v[RecTEDSum], v[RecTEDCount] = uniform(g), 1
		v[RecFieldsRef], v[RecFieldsPred] = float64(g.Index(6)), float64(g.Index(6))
		v[RecFieldsMatched] = float64(g.Index(int(min(v[RecFieldsRef], v[RecFieldsPred])) + 1))
		if err := b.Add(fmt.Sprintf("s%03d", i), v); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// dropFirst returns c without its first k units.
func dropFirst(t testing.TB, c *Cell, k int) *Cell {
	t.Helper()
	b := NewBuilder(c.ID, c.Schema)
	for i, u := range c.Units()[k:] {
		if err := b.Add(u, c.Contribution(k+i)); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

func mustMarshal(t testing.TB, c *Comparison) string {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Counting a cell's draw sequences (Interval for few units) gives the
// same intervals and kept counts, bit for bit, as summing every
// replicate: tabular and receipts cells of 0 to 6 units, statistics
// undefined on some pages, replicate counts below, at and above n^n.
func TestIntervalEnumeratedMatchesDirect(t *testing.T) {
	var cells []*Cell
	for n := range 7 {
		cells = append(cells, synthTabular(t, "tabular/m/G", n, 0.7, fmt.Sprint("ivl-t", n)),
			synthReceipts(t, "receipts/a", n, n%3, fmt.Sprint("ivl-r", n)))
	}
	enumerated := 0
	for _, c := range cells {
		for _, b := range []int{1, 2, 3, 4, 26, 27, 28, 255, 256, 257, 2000} {
			o := DefaultOptions()
			o.Replicates, o.Seed = b, uint64(7*b+len(c.Units()))
			fast, err := interval(c, o, true)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := interval(c, o, false)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fast, slow) {
				fj, _ := json.Marshal(fast)
				sj, _ := json.Marshal(slow)
				t.Errorf("%s, %d units, B=%d: enumerated\n%s\nwant\n%s", c.ID, len(c.Units()), b, fj, sj)
			}
			if sequences(len(c.Units()), b) > 0 {
				enumerated++
				if fast.Stats[0].Interval == nil && len(c.Units()) >= 2 && b >= 2 {
					t.Errorf("%s, %d units, B=%d: f1's interval is null", c.ID, len(c.Units()), b)
				}
			}
		}
	}
	if enumerated < 30 {
		t.Errorf("enumerated %d of %d cases: the test no longer reaches the enumeration", enumerated, 11*len(cells))
	}
}
