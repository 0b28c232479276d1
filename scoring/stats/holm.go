package stats

import (
	"fmt"
	"sort"
)

// HolmAdjust returns Holm's step-down adjustment of p (SPEC F.5): with
// p sorted ascending, p(1) ≤ … ≤ p(k), the adjusted p(i) is
// min(1, max over j ≤ i of (k − j + 1)·p(j)). Results are in p's order;
// tied p-values get the same adjusted value.
func HolmAdjust(p []float64) []float64 {
	k := len(p)
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	// sort.SliceStable is already in the page's docscore.wasm; a generic
	// instance of slices.SortStableFunc would add its own code.
	sort.SliceStable(order, func(x, y int) bool { return p[order[x]] < p[order[y]] })
	adj := make([]float64, k)
	running := 0.0
	for j, i := range order {
		running = max(running, float64(k-j)*p[i])
		adj[i] = min(1, running)
	}
	return adj
}

// Report is a comparison report (SPEC F.6): every comparison of one
// family's cells under one set of options, its p-values Holm-adjusted per
// statistic across the comparisons.
type Report struct {
	Kind         string  `json:"kind"` // always "comparison"
	Family       string  `json:"family"`
	Level        float64 `json:"level"`
	Replicates   int     `json:"replicates"`
	Permutations int     `json:"permutations"`
	Seed         uint64  `json:"seed"`
	Alpha        float64 `json:"alpha"`
	// Effect is the difference units_needed is computed for (--effect);
	// 0 leaves both out.
	Effect      float64       `json:"effect,omitempty"`
	Comparisons []*Comparison `json:"comparisons"`
}

// NewReport gathers comparisons made by Compare under o into a report and
// sets each statistic's p_holm, significant and better: the p-values of a
// statistic (by path) are adjusted over every comparison where it is not
// null; a null p stays null and is never significant. Comparisons must
// share one schema's statistics.
func NewReport(family string, o Options, cs []*Comparison) (*Report, error) {
	if cs == nil {
		cs = []*Comparison{}
	}
	r := &Report{Kind: "comparison", Family: family, Level: o.Level, Replicates: o.Replicates,
		Permutations: o.Permutations, Seed: o.Seed, Alpha: o.Alpha, Effect: o.Effect, Comparisons: cs}
	if len(cs) == 0 {
		return r, nil
	}
	for _, c := range cs[1:] {
		if !sameStats(c.Stats, cs[0].Stats) {
			return nil, fmt.Errorf("stats: comparisons %s|%s and %s|%s score different statistics",
				cs[0].A.ID, cs[0].B.ID, c.A.ID, c.B.ID)
		}
	}
	for i := range cs[0].Stats {
		k := 0
		for _, c := range cs {
			if c.Stats[i].Delta != nil {
				k++
			}
		}
		for _, c := range cs {
			sc := &c.Stats[i]
			sc.CanBeSignificant = sc.Delta != nil && sc.MinP*float64(k) <= o.Alpha
			sc.UnitsNeeded = nil
			if n := UnitsNeeded(sc.sd, o.Effect, o.Alpha, k); n > 0 && sc.spread {
				sc.UnitsNeeded = ptr(n)
			}
		}
		var ps []float64
		var at []*StatComparison
		for _, c := range cs {
			if sc := &c.Stats[i]; sc.P != nil {
				ps = append(ps, *sc.P)
				at = append(at, sc)
			}
		}
		for j, adj := range HolmAdjust(ps) {
			sc := at[j]
			sc.PHolm = ptr(adj)
			sc.Significant = adj < o.Alpha
			sc.Better = nil
			if sc.Significant && sc.Delta != nil && *sc.Delta != 0 {
				if (*sc.Delta > 0) != sc.LowerIsBetter {
					sc.Better = ptr("b")
				} else {
					sc.Better = ptr("a")
				}
			}
		}
	}
	return r, nil
}

// sameStats reports whether two comparisons' statistics have the same
// names in the same order.
func sameStats(a, b []StatComparison) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Group != b[i].Group {
			return false
		}
	}
	return true
}

// Regressed reports whether any statistic of any comparison is
// significantly worse on the B side (better is "a"): the condition of
// --fail-on-regression.
func (r *Report) Regressed() bool {
	for _, c := range r.Comparisons {
		for _, s := range c.Stats {
			if s.Better != nil && *s.Better == "a" {
				return true
			}
		}
	}
	return false
}
