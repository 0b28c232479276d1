package stats

import (
	"bytes"
	"encoding/json"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func quick() Options {
	o := DefaultOptions()
	o.Replicates, o.Permutations = 300, 400
	return o
}

// A cell compared with itself differs by exactly 0 on every statistic,
// with p = 1, and no unit moves.
func TestCompareWithItself(t *testing.T) {
	a := synthTabular(t, "tabular/m/G", 15, 0.8, "self")
	c, err := Compare(a, withID(a, "tabular/m/N"), quick())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Stats {
		if s.Delta == nil || *s.Delta != 0 || s.P == nil || *s.P != 1 {
			t.Errorf("%s: delta %v p %v, want 0 and 1", s.Path(), show(s.Delta), show(s.P))
		}
		if s.CI == nil || *s.CI != (Range{0, 0}) {
			t.Errorf("%s: interval %v, want [0 0]", s.Path(), s.CI)
		}
	}
	if len(c.Movement.Rose)+len(c.Movement.Fell) != 0 || c.Movement.Same != 15 {
		t.Errorf("movement %+v, want 15 the same", c.Movement)
	}
}

// Swapping the sides' contributions (the streams, keyed by the ids, left
// as they are) negates every difference exactly, keeps every p-value and
// kept count exactly, mirrors every interval and exchanges rose and fell.
func TestCompareSwapSides(t *testing.T) {
	a := synthTabular(t, "tabular/m/G", 20, 0.8, "a")
	b := synthTabular(t, "tabular/m/G", 20, 0.85, "b")
	o := quick()
	ab, err := Compare(withID(a, "x"), withID(b, "y"), o)
	if err != nil {
		t.Fatal(err)
	}
	ba, err := Compare(withID(b, "x"), withID(a, "y"), o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ab.Stats {
		s, r := ab.Stats[i], ba.Stats[i]
		if *r.Delta != -*s.Delta {
			t.Errorf("%s: delta %v swapped %v", s.Path(), *s.Delta, *r.Delta)
		}
		if *r.P != *s.P || r.Kept != s.Kept {
			t.Errorf("%s: p %v kept %v, swapped %v %v", s.Path(), *s.P, s.Kept, *r.P, r.Kept)
		}
		if math.Abs(r.CI[0]+s.CI[1]) > 1e-12 || math.Abs(r.CI[1]+s.CI[0]) > 1e-12 {
			t.Errorf("%s: interval %v, swapped %v", s.Path(), *s.CI, *r.CI)
		}
	}
	if !slices.Equal(ab.Movement.Rose, ba.Movement.Fell) || !slices.Equal(ab.Movement.Fell, ba.Movement.Rose) ||
		ab.Movement.Same != ba.Movement.Same {
		t.Errorf("movement %+v, swapped %+v", ab.Movement, ba.Movement)
	}
	// With the ids swapped too, the streams differ (SPEC F.3 keys the
	// ordered pair): the deltas still flip exactly.
	ba2, err := Compare(withID(b, "y"), withID(a, "x"), o)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ab.Stats {
		if *ba2.Stats[i].Delta != -*ab.Stats[i].Delta {
			t.Errorf("%s: delta %v, ids swapped %v", ab.Stats[i].Path(), *ab.Stats[i].Delta, *ba2.Stats[i].Delta)
		}
	}
}

// Adding a model to a report changes no other cell's interval or
// comparison: every stream is keyed by its own ids.
func TestAddingACellChangesNoOther(t *testing.T) {
	o := quick()
	x := synthTabular(t, "tabular/m1/G", 12, 0.8, "x")
	y := synthTabular(t, "tabular/m1/N", 12, 0.7, "y")
	z := synthTabular(t, "tabular/a0/G", 12, 0.9, "z") // sorts first
	report := func(cells ...*Cell) (cis []string, cmps []string) {
		for _, c := range cells {
			ci, err := Interval(c, o)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(ci)
			cis = append(cis, string(b))
		}
		for i := range cells {
			for j := i + 1; j < len(cells); j++ {
				c, err := Compare(cells[i], cells[j], o)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(c) // before Holm: p_holm null
				cmps = append(cmps, string(b))
			}
		}
		return cis, cmps
	}
	ci2, cmp2 := report(x, y)
	ci3, cmp3 := report(z, x, y)
	if ci2[0] != ci3[1] || ci2[1] != ci3[2] {
		t.Errorf("intervals changed by adding a cell:\n%s\n%s", ci2[0], ci3[1])
	}
	if cmp2[0] != cmp3[2] {
		t.Errorf("comparison x|y changed by adding a cell:\n%s\n%s", cmp2[0], cmp3[2])
	}
}

// The interval brackets the point estimate on ordinary data, and the
// seed moves it.
func TestIntervalBracketsEstimate(t *testing.T) {
	c := synthTabular(t, "tabular/m/G", 40, 0.85, "bracket")
	o := quick()
	ci, err := Interval(c, o)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := c.Values()
	for i, s := range ci.Stats {
		if !ok[i] || s.Interval == nil {
			t.Fatalf("%s: undefined", s.Name)
		}
		if !(s.Interval[0] <= v[i] && v[i] <= s.Interval[1]) {
			t.Errorf("%s: estimate %v outside %v", s.Name, v[i], *s.Interval)
		}
	}
	o.Seed = 1
	ci1, _ := Interval(c, o)
	if *ci1.Stats[2].Interval == *ci.Stats[2].Interval {
		t.Errorf("seed 1 gave the f1 interval of seed 0: %v", *ci.Stats[2].Interval)
	}
}

func show(p *float64) any {
	if p == nil {
		return "null"
	}
	return *p
}

// CompareAll on several threads gives the report of one thread, byte for
// byte, and the error of the first failed comparison in the pairs' order.
func TestCompareAllInParallel(t *testing.T) {
	var named []Named
	for i, q := range []float64{0.5, 0.6, 0.7, 0.8, 0.9} {
		model := string(rune('a' + i))
		c := synthTabular(t, "tabular/"+model+"/G", 12+i, q, model)
		named = append(named, Named{Cell: c, Model: &model, Phase: "G"})
	}
	var pairs []Pair
	for i := range named {
		for _, b := range named[i+1:] {
			pairs = append(pairs, Pair{A: named[i], B: b})
		}
	}
	run := func(procs int, pairs []Pair) ([]byte, error) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		r, err := CompareAll("tabular", pairs, quick(), nil)
		if err != nil {
			return nil, err
		}
		return r.JSON()
	}
	one, err := run(1, pairs)
	if err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{2, 4, 16} {
		got, err := run(procs, pairs)
		if err != nil || !bytes.Equal(got, one) {
			t.Errorf("GOMAXPROCS %d: %d bytes (err %v), one thread %d bytes", procs, len(got), err, len(one))
		}
	}

	// Cells whose fields differ cannot be compared: pairs 3 and 7 fail.
	other := TabularSchema([]string{"title"})
	b := NewBuilder("tabular/z/G", other)
	if err := b.Add("p000", make([]float64, other.Width)); err != nil {
		t.Fatal(err)
	}
	z := "z"
	bad := slices.Clone(pairs)
	bad[3].B = Named{Cell: b.Build(), Model: &z, Phase: "G"}
	bad[7].A = bad[3].B
	_, want := run(1, bad)
	if want == nil || !strings.Contains(want.Error(), "tabular/"+*pairs[3].A.Model+"/G") {
		t.Fatalf("one thread: error %v, want pair 3's", want)
	}
	for _, procs := range []int{2, 4, 16} {
		if _, err := run(procs, bad); err == nil || err.Error() != want.Error() {
			t.Errorf("GOMAXPROCS %d: error %v, want %v", procs, err, want)
		}
	}
}
