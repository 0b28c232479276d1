package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestMinPIsAPowerOfTwo(t *testing.T) {
	for _, c := range []struct {
		n    int
		want float64
	}{{0, 1}, {1, 1}, {2, 0.5}, {3, 0.25}, {4, 0.125}, {11, 1.0 / 1024}, {60, math.Ldexp(1, -59)}} {
		got := MinP(c.n)
		if got != c.want {
			t.Errorf("MinP(%d) = %v, want %v", c.n, got, c.want)
		}
		if _, e := math.Frexp(got); math.Ldexp(1, e-1) != got {
			t.Errorf("MinP(%d) = %v is not a power of two", c.n, got)
		}
	}
}

func TestUnitsNeeded(t *testing.T) {
	z := NormalQuantile(0.975) + NormalQuantile(0.8) // 2.8016
	for _, c := range []struct {
		name       string
		sd, effect float64
		alpha      float64
		k, want    int
	}{
		// ((2.8016·0.05)/0.01)² = 196.2 → 197.
		{"normal formula", 0.05, 0.01, 0.05, 1, int(math.Ceil(math.Pow(z*0.05/0.01, 2)))},
		// sd 0: only the sign-flip floor binds: 2^(1−n)·4 ≤ 0.05 at n = 8.
		{"floor of four comparisons", 0, 0.01, 0.05, 4, 8},
		{"floor of one comparison", 0, 0.01, 0.05, 1, 6},
		{"no effect", 0.05, 0, 0.05, 1, 0},
		{"an effect far under the noise", 1, 1e-9, 0.05, 1, 0},
	} {
		if got := UnitsNeeded(c.sd, c.effect, c.alpha, c.k); got != c.want {
			t.Errorf("%s: UnitsNeeded(%v, %v, %v, %d) = %d, want %d", c.name, c.sd, c.effect, c.alpha, c.k, got, c.want)
		}
	}
	if got := UnitsNeeded(0.05, 0.01, 0.05, 1); got != 197 {
		t.Errorf("UnitsNeeded(0.05, 0.01) = %d, want 197", got)
	}
}

// TestSampleCannotBeSignificant is the case: three paired pages
// that all differ give a floor of 0.25, and with four comparisons no
// statistic can be significant whatever the difference.
func TestSampleCannotBeSignificant(t *testing.T) {
	var cs []*Comparison
	o := DefaultOptions()
	o.Effect = 0.01
	for k := range 4 {
		a := synthTabular(t, "tabular/m/G", 3, 0.5, fmt.Sprint("few-a", k))
		b := synthTabular(t, "tabular/m/N", 3, 0.95, fmt.Sprint("few-b", k))
		c, err := Compare(a, b, o)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	r, err := NewReport("tabular", o, cs)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Comparisons {
		s, _ := c.Get("f1")
		if s.MinP != 0.25 || s.CanBeSignificant || s.Significant || !c.FewUnits {
			t.Errorf("f1: min_p %v, can_be_significant %v, significant %v, few_units %v; want 0.25, false, false, true",
				s.MinP, s.CanBeSignificant, s.Significant, c.FewUnits)
		}
		if s.MDE == nil || s.UnitsNeeded == nil || *s.UnitsNeeded < 8 {
			t.Errorf("f1: mde %v, units_needed %v; want both, units_needed at least the floor 8", s.MDE, s.UnitsNeeded)
		}
	}
	if lim := r.Limits("page", func(c *Comparison) string { return c.A.ID }); len(lim) == 0 {
		t.Error("Limits says nothing of comparisons that cannot be significant")
	}
}

// TestPowerAtTheMDE checks the 80 % claim of SPEC F.7 by simulation: for
// a true difference equal to the MDE a dataset reports, the
// randomization test rejects at α = 0.05 in about 80 % of datasets drawn
// like it. A mean statistic (receipts' mean page F1) is what the normal
// approximation describes; a pooled ratio (tabular F1) is only
// approximated by its per-page differences, and the figure is logged.
func TestPowerAtTheMDE(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const n, datasets, pilots, sd = 30, 400, 50, 0.1
	o := DefaultOptions()
	o.Replicates, o.Permutations = 0, 999

	mean := func(rng *rand.Rand, effect float64) (a, b *Cell) {
		s := ReceiptsSchema(false)
		ba, bb := NewBuilder("receipts/a", s), NewBuilder("receipts/b", s)
		for i := range n {
			x := 2 + rng.NormFloat64()*0.3
			d := effect + rng.NormFloat64()*sd
			id := fmt.Sprintf("s%03d", i)
			va, vb := make([]float64, s.Width), make([]float64, s.Width)
			va[RecF1Sum], va[RecF1Count] = x, 1
			vb[RecF1Sum], vb[RecF1Count] = x+d, 1
			must(t, ba.Add(id, va))
			must(t, bb.Add(id, vb))
		}
		return ba.Build(), bb.Build()
	}
	pooled := func(rng *rand.Rand, effect float64) (a, b *Cell) {
		s := TabularSchema(nil)
		ba, bb := NewBuilder("tabular/m/G", s), NewBuilder("tabular/m/N", s)
		for i := range n {
			ngt := 20 + rng.IntN(20)
			pa := 0.6 + rng.NormFloat64()*0.05
			pb := pa + effect + rng.NormFloat64()*sd
			id := fmt.Sprintf("p%03d", i)
			for _, side := range []struct {
				b *Builder
				p float64
			}{{ba, pa}, {bb, pb}} {
				m := math.Round(math.Max(0, math.Min(1, side.p)) * float64(ngt))
				v := make([]float64, s.Width)
				v[TabMatched], v[TabNModel], v[TabNGT] = m, float64(ngt), float64(ngt)
				must(t, side.b.Add(id, v))
			}
		}
		return ba.Build(), bb.Build()
	}
	for _, c := range []struct {
		name, stat string
		make       func(*rand.Rand, float64) (a, b *Cell)
		lo, hi     float64
	}{
		{"mean page F1", "rouge_l_f1_mean", mean, 0.68, 0.88},
		{"pooled F1", "f1", pooled, 0.60, 0.90},
	} {
		rng := rand.New(rand.NewPCG(1, 2))
		// The MDE datasets drawn like these report, averaged over pilots
		// (one pilot's estimate of the spread moves it by ±15 %).
		effect := 0.0
		for range pilots {
			a, b := c.make(rng, 0)
			pilot, err := Compare(a, b, o)
			must(t, err)
			s, _ := pilot.Get(c.stat)
			effect += *s.MDE / pilots
		}
		rejected := 0
		for k := range datasets {
			a, b := c.make(rng, effect)
			o.Seed = uint64(k)
			cmp, err := Compare(a, b, o)
			must(t, err)
			s, _ := cmp.Get(c.stat)
			if s.P != nil && *s.P < o.Alpha {
				rejected++
			}
		}
		power := float64(rejected) / datasets
		t.Logf("%s: true difference = reported MDE %.4f on %d units: the test rejected in %.1f%% of %d datasets",
			c.name, effect, n, 100*power, datasets)
		if power < c.lo || power > c.hi {
			t.Errorf("%s: power %.3f at the MDE, want within [%v, %v]", c.name, power, c.lo, c.hi)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
