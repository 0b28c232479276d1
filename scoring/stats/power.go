package stats

import (
	"math"
	"strconv"
	"strings"
)

// How much a sample can tell (SPEC F.7). A paired comparison's
// randomization test (F.5) estimates the sign-flip test: it can never
// reject below the floor min_p = 2^(1−n), n being the paired units whose
// contributions differ, and with Holm's adjustment over k comparisons the
// first can only be significant when k·min_p ≤ α. The minimum detectable
// effect is the normal approximation (z₁₋α/₂ + z₀.₈)·sd/√n from the
// per-unit differences of the statistic, and the units needed for an
// effect e are the n at which that formula gives e, raised to the
// sign-flip floor.

// Power is the power the minimum detectable effect is computed for.
const Power = 0.8

// FewUnits is the count of units below which an interval is marked
// "few_units" (SPEC F.7): a percentile interval from so few units is
// unreliable, and can exclude zero while the test cannot reject.
const FewUnits = 10

// NormalQuantile returns the p-quantile of the standard normal
// distribution, √2·erfinv(2p−1), for p in (0, 1); NaN outside.
func NormalQuantile(p float64) float64 {
	if !(p > 0 && p < 1) {
		return math.NaN()
	}
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// MinP returns the smallest p-value the sign-flip test on n differing
// units can give, 2^(1−n), and 1 when n ≤ 1.
func MinP(n int) float64 {
	if n <= 1 {
		return 1
	}
	return math.Ldexp(1, 1-n)
}

// mdeOf is MDE for a statistic's spread over m units, and whether it
// is defined.
func mdeOf(sd float64, m int, alpha float64) (float64, bool) {
	if m < 2 {
		return 0, false
	}
	return MDE(sd, m, alpha), true
}

// MDE returns the minimum detectable effect at 80 % power of a two-sided
// paired test at level alpha on n units whose differences have the
// standard deviation sd: (z₁₋α/₂ + z₀.₈)·sd/√n. It is NaN when n < 2.
func MDE(sd float64, n int, alpha float64) float64 {
	if n < 2 {
		return math.NaN()
	}
	return (NormalQuantile(1-alpha/2) + NormalQuantile(Power)) * sd / math.Sqrt(float64(n))
}

// UnitsNeeded returns the paired units a comparison needs to detect the
// difference effect (> 0) at 80 % power, at level alpha, its differences
// having the standard deviation sd, in a Holm family of k comparisons:
// ⌈((z₁₋α/₂ + z₀.₈)·sd/effect)²⌉, and never fewer than 2 nor fewer than
// the sign-flip floor allows (the least n with k·2^(1−n) ≤ α). It is 0
// when effect is not positive, sd is not finite or the count would pass
// MaxUnitsNeeded (then the caller writes null).
func UnitsNeeded(sd, effect, alpha float64, k int) int {
	if !(effect > 0) || math.IsNaN(sd) || math.IsInf(sd, 0) || sd < 0 {
		return 0
	}
	z := NormalQuantile(1-alpha/2) + NormalQuantile(Power)
	x := z * sd / effect
	need := math.Ceil(x * x)
	if !(need <= MaxUnitsNeeded) {
		return 0
	}
	n := max(int(need), 2, floorUnits(alpha, k))
	if n > MaxUnitsNeeded {
		return 0
	}
	return n
}

// MaxUnitsNeeded bounds UnitsNeeded: an effect far below the noise asks
// for more units than any dataset has, and the count is then null.
const MaxUnitsNeeded = 1 << 40

// floorUnits is the least n with k·2^(1−n) ≤ alpha: the fewest differing
// units with which the first of k Holm-adjusted comparisons can be
// significant.
func floorUnits(alpha float64, k int) int {
	k = max(k, 1)
	n := 1
	for float64(k)*MinP(n) > alpha && n < 1100 {
		n++
	}
	return n
}

// pairedSpread returns the sample standard deviation (n−1) of the
// per-unit differences of statistic s, value(B's unit) − value(A's unit),
// over the units where both are defined, and how many those are; sd is
// 0 when fewer than two (m says so). differ counts the units whose components that
// s reads differ between A and B: swapping such a unit's sides can move
// the difference, the others cannot.
func pairedSpread(s *Stat, ca, cb []float64, n, w int) (sd float64, m, differ int) {
	var mean, m2 float64
	for i := range n {
		ua, ub := ca[i*w:(i+1)*w], cb[i*w:(i+1)*w]
		if ua[s.Num] != ub[s.Num] || ua[s.Den] != ub[s.Den] || (s.Kind == F1 || s.Kind == DonutF1) && ua[s.Ref] != ub[s.Ref] {
			differ++
		}
		va, okA := s.value(ua)
		vb, okB := s.value(ub)
		if !okA || !okB {
			continue
		}
		// Welford's update, in unit order.
		m++
		d := vb - va
		delta := d - mean
		mean += delta / float64(m)
		m2 += delta * (d - mean)
	}
	if m < 2 {
		return 0, m, differ
	}
	return math.Sqrt(m2 / float64(m-1)), m, differ
}

// HolmSize is the number of comparisons in the Holm family of the named
// statistic: those of the report where its difference is defined.
func (r *Report) HolmSize(path string) int {
	k := 0
	for _, c := range r.Comparisons {
		if s, ok := c.Get(path); ok && s.Delta != nil {
			k++
		}
	}
	return k
}

// Limits says in words, one line per comparison and floor, which
// statistics cannot be significant however large their difference (SPEC
// F.7): "f1, precision: 3 pages differ, so p cannot go below 0.25, and
// Holm over 4 comparisons needs p ≤ 0.0125." title names a comparison;
// unit is the singular noun of a unit ("page", "sample"). It returns
// nothing when every statistic can be significant.
func (r *Report) Limits(unit string, title func(*Comparison) string) []string {
	var out []string
	for _, c := range r.Comparisons {
		type floor struct{ differ, k int }
		var order []floor
		names := map[floor][]string{}
		for i := range c.Stats {
			s := &c.Stats[i]
			// Nothing differs: there is nothing to detect.
			if s.CanBeSignificant || s.Delta == nil || s.UnitsDiffer == 0 {
				continue
			}
			f := floor{s.UnitsDiffer, r.HolmSize(s.Path())}
			if names[f] == nil {
				order = append(order, f)
			}
			names[f] = append(names[f], s.Path())
		}
		for _, f := range order {
			noun := unit + "s differ"
			if f.differ == 1 {
				noun = unit + " differs"
			}
			line := title(c) + ": " + strings.Join(names[f], ", ") + " cannot be significant: " + strconv.Itoa(f.differ) + " " + noun +
				", so p cannot go below " + strconv.FormatFloat(MinP(f.differ), 'g', 4, 64)
			if f.k > 1 {
				line += ", and Holm over " + strconv.Itoa(f.k) + " comparisons needs p ≤ " + strconv.FormatFloat(r.Alpha/float64(f.k), 'g', 4, 64)
			} else {
				line += ", above α = " + strconv.FormatFloat(r.Alpha, 'g', -1, 64)
			}
			out = append(out, line+".")
		}
	}
	return out
}

// FewUnitsNote is the sentence a report writes under intervals marked
// few_units (SPEC F.7).
func FewUnitsNote(unit string) string {
	return "Marked †: an interval from fewer than " + strconv.Itoa(FewUnits) + " " + unit +
		"s. A percentile interval is unreliable there: it can exclude zero while the test cannot reject."
}
