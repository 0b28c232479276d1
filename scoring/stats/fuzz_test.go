package stats

import (
	"fmt"
	"testing"
)

// FuzzCompare builds two receipts phases from arbitrary bytes (each
// 5-byte record: a side, a unit, and a page's F1 and numeric counts) and
// checks that intervals and comparisons never panic and stay in range.
func FuzzCompare(f *testing.F) {
	f.Add([]byte{0, 1, 128, 3, 4, 1, 1, 200, 4, 4, 0, 2, 0, 0, 0, 1, 2, 255, 9, 9})
	f.Add([]byte{0, 0, 255, 1, 1})
	f.Add([]byte{})
	f.Add([]byte{2, 7, 0, 0, 0, 2, 7, 0, 0, 0, 3, 7, 255, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := ReceiptsSchema(true)
		sides := [2]*Builder{NewBuilder("a", s), NewBuilder("b", s)}
		for len(data) >= 5 {
			r := data[:5]
			data = data[5:]
			v := make([]float64, s.Width)
			if r[2] != 0 { // 0 is a null page F1
				v[RecF1Sum], v[RecF1Count] = float64(r[2]-1)/254, 1
			}
			v[RecNumericMatched], v[RecNumericRef] = float64(min(r[3], r[4])), float64(r[4])
			v[RecTEDSum], v[RecTEDCount] = float64(r[3]%2), float64(r[3]%3/2)
			v[RecFieldsMatched], v[RecFieldsPred], v[RecFieldsRef] = float64(min(r[3], r[4])%5), float64(r[3]%5), float64(r[4]%5)
			if err := sides[r[0]%2].Add(fmt.Sprint(r[1]%8), v); err != nil {
				t.Fatal(err)
			}
		}
		a, b := sides[0].Build(), sides[1].Build()
		o := Options{Level: 0.9, Replicates: 40, Permutations: 40, Alpha: 0.05}
		ci, err := Interval(a, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range ci.Stats {
			if st.Kept > o.Replicates || (st.Interval != nil && !(st.Interval[0] <= st.Interval[1])) {
				t.Fatalf("%s: kept %d interval %v", st.Name, st.Kept, st.Interval)
			}
		}
		c, err := Compare(a, b, o)
		if err != nil {
			t.Fatal(err)
		}
		if c.UnitsPaired+len(c.UnitsOnlyA) != len(a.Units()) || c.UnitsPaired+len(c.UnitsOnlyB) != len(b.Units()) {
			t.Fatalf("paired %d, only %v %v of %v %v", c.UnitsPaired, c.UnitsOnlyA, c.UnitsOnlyB, a.Units(), b.Units())
		}
		if _, err := NewReport("receipts", o, []*Comparison{c}); err != nil {
			t.Fatal(err)
		}
		for _, st := range c.Stats {
			if st.P != nil && !(*st.P > 0 && *st.P <= 1 && *st.PHolm >= *st.P) {
				t.Fatalf("%s: p %v p_holm %v", st.Path(), *st.P, show(st.PHolm))
			}
			if st.CI != nil && !(st.CI[0] <= st.CI[1]) {
				t.Fatalf("%s: interval %v", st.Path(), *st.CI)
			}
		}
		moved := len(c.Movement.Rose) + len(c.Movement.Fell) + c.Movement.Same
		if moved > c.UnitsPaired {
			t.Fatalf("movement %+v over %d paired units", c.Movement, c.UnitsPaired)
		}
	})
}
