package agreement

import (
	"math"
	"sort"
)

// Missing is a rating that was not given: an observer who did not rate a
// unit, or a judge that abstained (an uncertain or unusable answer).
const Missing = ""

// Reasons a statistic is undefined.
const (
	ReasonNoPairs     = "no unit has two or more ratings (one rater, or every other rating missing): agreement needs pairs of ratings"
	ReasonNoVariation = "no variation: every pairable rating is the same value, so the expected disagreement is 0 and α = 1 − Do/De is 0/0 (Krippendorff's definition leaves it undefined)"
	ReasonNoKappaPair = "no unit carries both ratings"
	ReasonKappaChance = "no variation: both raters used one and the same category, so chance agreement is 1 and κ = (po − pe)/(1 − pe) is 0/0"
)

// Alpha is Krippendorff's α for nominal data and what it was computed from.
type Alpha struct {
	// Alpha is nil when undefined (Reason says why). It is at most 1; 1 is
	// perfect agreement, 0 agreement at chance level, below 0 systematic
	// disagreement.
	Alpha  *float64 `json:"alpha"`
	Reason string   `json:"reason,omitempty"`
	// Units counts the units with two or more ratings (pairable units);
	// Values the ratings in them (Krippendorff's n).
	Units  int `json:"units"`
	Values int `json:"pairable_values"`
	// Observed and Expected are the disagreements Do and De (shares of
	// mismatching pairs); α = 1 − Do/De.
	Observed float64 `json:"observed_disagreement"`
	Expected float64 `json:"expected_disagreement"`
}

// NominalAlpha returns Krippendorff's α for nominal ratings. units[u] are
// the ratings of unit u, one per rater (any number of raters, [Missing]
// for a rating not given); units with fewer than two ratings are not
// pairable and are left out, as Krippendorff prescribes.
//
// It builds the coincidence matrix o[c][k] = Σ_u (c–k pairs in u)/(m_u − 1)
// over pairable units u with m_u ratings, n_c = Σ_k o[c][k], n = Σ_c n_c,
// and returns α = 1 − (n − 1)·Σ_{c≠k} o[c][k] / Σ_{c≠k} n_c·n_k. It is
// undefined (nil, with a Reason) when no unit is pairable and when all
// pairable ratings are one value (De = 0): Krippendorff's α is then 0/0,
// and this package does not call it 1.
func NominalAlpha(units [][]string) Alpha {
	index := map[string]int{}
	var cats []string
	type unit struct {
		counts map[int]int
		m      int
	}
	var us []unit
	for _, u := range units {
		counts := map[int]int{}
		m := 0
		for _, v := range u {
			if v == Missing {
				continue
			}
			i, ok := index[v]
			if !ok {
				i = len(cats)
				index[v] = i
				cats = append(cats, v)
			}
			counts[i]++
			m++
		}
		if m >= 2 {
			us = append(us, unit{counts, m})
		}
	}
	var a Alpha
	a.Units = len(us)
	if len(us) == 0 {
		a.Reason = ReasonNoPairs
		return a
	}
	// Only the diagonal and the marginals are needed: Σ_{c≠k} o_ck = n − Σ_c o_cc.
	nc := make([]float64, len(cats))
	var diag, n float64
	for _, u := range us {
		w := 1 / float64(u.m-1)
		for c, cnt := range u.counts {
			nc[c] += float64(cnt)
			diag += float64(cnt*(cnt-1)) * w
		}
		n += float64(u.m)
		a.Values += u.m
	}
	var sq float64
	for _, x := range nc {
		sq += x * x
	}
	do := n - diag      // Σ_{c≠k} o_ck
	de := n*n - sq      // Σ_{c≠k} n_c n_k
	a.Observed = do / n // shares of mismatching pairs
	if de <= 0 {
		a.Expected = 0
		a.Reason = ReasonNoVariation
		return a
	}
	a.Expected = de / (n * (n - 1))
	v := 1 - (n-1)*do/de
	if v > 1 { // rounding only: do ≥ 0
		v = 1
	}
	a.Alpha = &v
	return a
}

// Pair is one unit rated by a judge and by a person.
type Pair struct {
	Judge string
	Human string
}

// Cell is one cell of a confusion matrix: the units the judge rated Judge
// and the person rated Human.
type Cell struct {
	Judge string `json:"judge"`
	Human string `json:"human"`
	N     int    `json:"n"`
}

// Kappa is Cohen's κ between a judge and people, with its confusion matrix.
type Kappa struct {
	// Kappa is nil when undefined (Reason says why).
	Kappa  *float64 `json:"kappa"`
	Reason string   `json:"reason,omitempty"`
	// N counts the units both rated; Skipped those where either rating was
	// Missing.
	N       int `json:"n"`
	Skipped int `json:"skipped"`
	// Observed is the share of units rated alike (po); Expected the share
	// expected by chance from the two raters' marginals (pe).
	Observed float64 `json:"observed_agreement"`
	Expected float64 `json:"expected_agreement"`
	// Confusion lists the non-empty cells, sorted by judge then human
	// rating: a sparse judge × human matrix.
	Confusion []Cell `json:"confusion"`
}

// CohenKappa returns Cohen's κ = (po − pe)/(1 − pe) over the pairs whose
// two ratings are both given: po is the share rated alike, pe = Σ_c
// (judge's share of c)·(human's share of c). It is undefined (nil, with a
// Reason) with no complete pair, and when pe = 1 (both raters used one and
// the same category).
func CohenKappa(pairs []Pair) Kappa {
	k := Kappa{Confusion: []Cell{}}
	cells := map[Pair]int{}
	rows, cols := map[string]int{}, map[string]int{}
	agree := 0
	for _, p := range pairs {
		if p.Judge == Missing || p.Human == Missing {
			k.Skipped++
			continue
		}
		k.N++
		cells[p]++
		rows[p.Judge]++
		cols[p.Human]++
		if p.Judge == p.Human {
			agree++
		}
	}
	for p, n := range cells {
		k.Confusion = append(k.Confusion, Cell{Judge: p.Judge, Human: p.Human, N: n})
	}
	sort.Slice(k.Confusion, func(i, j int) bool {
		a, b := k.Confusion[i], k.Confusion[j]
		if a.Judge != b.Judge {
			return a.Judge < b.Judge
		}
		return a.Human < b.Human
	})
	if k.N == 0 {
		k.Reason = ReasonNoKappaPair
		return k
	}
	n := float64(k.N)
	k.Observed = float64(agree) / n
	// Sum in sorted category order so the result never depends on map order.
	labels := make([]string, 0, len(rows))
	for c := range rows {
		labels = append(labels, c)
	}
	sort.Strings(labels)
	var pe float64
	for _, c := range labels {
		pe += float64(rows[c]) / n * float64(cols[c]) / n
	}
	k.Expected = pe
	if pe >= 1-1e-12 {
		k.Reason = ReasonKappaChance
		return k
	}
	v := (k.Observed - pe) / (1 - pe)
	v = math.Min(v, 1)
	k.Kappa = &v
	return k
}

// Rate is Count events out of N trials; Rate is nil when N is 0.
type Rate struct {
	Count int      `json:"count"`
	N     int      `json:"n"`
	Rate  *float64 `json:"rate"`
}

// NewRate returns count/n (nil when n is 0).
func NewRate(count, n int) Rate {
	r := Rate{Count: count, N: n}
	if n > 0 {
		v := float64(count) / float64(n)
		r.Rate = &v
	}
	return r
}

// Dissent returns, for every rater, how often its rating differed from the
// decision: units[u][r] is rater r's rating of unit u (raters[r] names
// it), decisions[u] the decision on unit u. A unit counts for a rater only
// when both its rating and the decision are given (not [Missing]). Rows
// shorter than raters are padded with Missing; extra ratings and units
// without a decision are ignored.
func Dissent(raters []string, units [][]string, decisions []string) map[string]Rate {
	count := make([]int, len(raters))
	n := make([]int, len(raters))
	for u, row := range units {
		if u >= len(decisions) || decisions[u] == Missing {
			continue
		}
		for r := range raters {
			if r >= len(row) || row[r] == Missing {
				continue
			}
			n[r]++
			if row[r] != decisions[u] {
				count[r]++
			}
		}
	}
	out := make(map[string]Rate, len(raters))
	for r, name := range raters {
		prev := out[name]
		out[name] = NewRate(prev.Count+count[r], prev.N+n[r])
	}
	return out
}

// Changes returns the share of units whose repeated ratings are not all
// the same: groups[u] are the ratings one rater gave unit u on repeated
// asking (samples, or the references in another order). Missing ratings
// are ignored; a unit with fewer than two given ratings is not counted.
func Changes(groups [][]string) Rate {
	count, n := 0, 0
	for _, g := range groups {
		first, m, changed := Missing, 0, false
		for _, v := range g {
			if v == Missing {
				continue
			}
			if m == 0 {
				first = v
			} else if v != first {
				changed = true
			}
			m++
		}
		if m < 2 {
			continue
		}
		n++
		if changed {
			count++
		}
	}
	return NewRate(count, n)
}
