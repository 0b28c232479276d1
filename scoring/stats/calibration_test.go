//go:build !race

// The calibration simulations run one goroutine for a few seconds
// natively; under the race detector they take a minute and have nothing
// to find, so they are not built there (make test runs them in its plain
// and WebAssembly passes).

package stats

import (
	"fmt"
	"math"
	"testing"
)

// The simulated population of register pages: a page has 10–30 ground
// truth records and its own reading quality q, uniform in [0.75, 1]; each
// record is matched with probability q, and the model adds Binomial(4,
// 1/4) extras. So E[matched] = 20·0.875 = 17.5, E[n_model] = 18.5,
// E[n_gt] = 20, and the population's pooled F1 is 2·17.5/(18.5+20).
const simTrueF1 = 2 * 17.5 / (18.5 + 20)

// simSchema is the tabular F1 alone, to keep the simulations quick.
var simSchema = &Schema{Family: "sim", Unit: "page", Width: 3, Components: []string{"matched", "n_model", "n_gt"},
	Stats: []Stat{{Name: "f1", Kind: F1, Num: 0, Den: 1, Ref: 2}}}

type simPage struct {
	ngt int
	q   float64
}

func drawPage(g *SplitMix64) simPage {
	return simPage{ngt: 10 + g.Index(21), q: 0.75 + 0.25*uniform(g)}
}

// read is one model's reading of a page: matched, n_model, n_gt.
func (p simPage) read(g *SplitMix64) []float64 {
	m := 0
	for range p.ngt {
		if uniform(g) < p.q {
			m++
		}
	}
	extras := 0
	for range 4 {
		if uniform(g) < 0.25 {
			extras++
		}
	}
	return []float64{float64(m), float64(m + extras), float64(p.ngt)}
}

// coverage runs studies of n pages each and returns the share whose
// level-0.95 interval holds the population F1.
func coverage(t *testing.T, studies, n, replicates int) float64 {
	g := Stream(0, fmt.Sprintf("calibration/%d", n))
	o := DefaultOptions()
	o.Replicates = replicates
	hit := 0
	for s := range studies {
		b := NewBuilder(fmt.Sprintf("sim/%d", s), simSchema)
		for i := range n {
			if err := b.Add(fmt.Sprint(i), drawPage(g).read(g)); err != nil {
				t.Fatal(err)
			}
		}
		ci, err := Interval(b.Build(), o)
		if err != nil {
			t.Fatal(err)
		}
		if r := ci.Stats[0].Interval; r != nil && r[0] <= simTrueF1 && simTrueF1 <= r[1] {
			hit++
		}
	}
	return float64(hit) / float64(studies)
}

// In 1000 simulated studies of 200 pages, the 95% percentile interval of
// the pooled F1 holds the population's F1 in 93–97% of them (the Monte
// Carlo error of a share near 0.95 over 1000 studies is 0.7 points). The
// coverage at 20 pages is logged, not bounded.
func TestCalibrationCoverage(t *testing.T) {
	const replicates = 500
	c200 := coverage(t, 1000, 200, replicates)
	t.Logf("coverage of the 95%% interval, 1000 studies of 200 pages, B=%d: %.3f (truth F1 %.6f)", replicates, c200, simTrueF1)
	if c200 < 0.93 || c200 > 0.97 {
		t.Errorf("coverage %.3f at 200 pages, want 0.93–0.97", c200)
	}
	c20 := coverage(t, 1000, 20, replicates)
	t.Logf("coverage of the 95%% interval, 1000 studies of 20 pages, B=%d: %.3f", replicates, c20)
}

// Under a true null — each page read twice by the same model, so the two
// sides are exchangeable page by page — the randomization test rejects at
// α = 0.05 in about 5% of 1000 studies of 200 pages: within three Monte
// Carlo standard errors (2.1 points).
func TestCalibrationNullRejection(t *testing.T) {
	const studies, n, alpha = 1000, 200, 0.05
	g := Stream(0, "calibration/null")
	o := DefaultOptions()
	o.Replicates, o.Permutations = 0, 200
	rejected := 0
	for s := range studies {
		ba := NewBuilder(fmt.Sprintf("a/%d", s), simSchema)
		bb := NewBuilder(fmt.Sprintf("b/%d", s), simSchema)
		for i := range n {
			p := drawPage(g)
			if err := ba.Add(fmt.Sprint(i), p.read(g)); err != nil {
				t.Fatal(err)
			}
			if err := bb.Add(fmt.Sprint(i), p.read(g)); err != nil {
				t.Fatal(err)
			}
		}
		c, err := Compare(ba.Build(), bb.Build(), o)
		if err != nil {
			t.Fatal(err)
		}
		if p := c.Stats[0].P; p != nil && *p < alpha {
			rejected++
		}
	}
	rate := float64(rejected) / studies
	se := math.Sqrt(alpha * (1 - alpha) / studies)
	t.Logf("rejection rate under the null, 1000 studies of 200 pages, R=%d: %.3f (α %.2f, 3 SE %.4f)", o.Permutations, rate, alpha, 3*se)
	if math.Abs(rate-alpha) > 3*se {
		t.Errorf("rejection rate %.3f, want %.2f ± %.4f", rate, alpha, 3*se)
	}
}
