package agreement

import (
	"math"
	"testing"
)

// ratingsFrom turns bytes into units of ratings: each byte is a rating
// (0: missing; otherwise one of a few categories) and 255 ends a unit.
func ratingsFrom(data []byte) [][]string {
	var units [][]string
	var cur []string
	for _, b := range data {
		switch {
		case b == 255:
			units = append(units, cur)
			cur = nil
		case b%5 == 0:
			cur = append(cur, Missing)
		default:
			cur = append(cur, string(rune('a'+b%5)))
		}
	}
	return append(units, cur)
}

// FuzzAgreement checks every statistic on arbitrary ratings: no panic,
// α ≤ 1 and finite, κ in [−1, 1], rates in [0, 1], a reason whenever a
// value is undefined.
func FuzzAgreement(f *testing.F) {
	f.Add([]byte{1, 1, 2, 255, 2, 2, 0, 255, 3, 1})
	f.Add([]byte{1, 255, 2})
	f.Add([]byte{})
	f.Add([]byte{1, 1, 255, 1, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		units := ratingsFrom(data)
		a := NominalAlpha(units)
		if a.Alpha == nil {
			if a.Reason == "" {
				t.Fatal("undefined alpha without a reason")
			}
		} else if math.IsNaN(*a.Alpha) || math.IsInf(*a.Alpha, 0) || *a.Alpha > 1 {
			t.Fatalf("alpha %v out of range", *a.Alpha)
		}
		var pairs []Pair
		var decisions []string
		for _, u := range units {
			if len(u) >= 2 {
				pairs = append(pairs, Pair{u[0], u[1]})
			}
			d := Missing
			if len(u) > 0 {
				d = u[len(u)-1]
			}
			decisions = append(decisions, d)
		}
		k := CohenKappa(pairs)
		if k.Kappa == nil {
			if k.Reason == "" {
				t.Fatal("undefined kappa without a reason")
			}
		} else if math.IsNaN(*k.Kappa) || *k.Kappa > 1 || *k.Kappa < -1-1e-12 {
			t.Fatalf("kappa %v out of range", *k.Kappa)
		}
		total := 0
		for _, c := range k.Confusion {
			total += c.N
		}
		if total != k.N || k.N+k.Skipped != len(pairs) {
			t.Fatalf("confusion sums to %d, n %d, skipped %d, pairs %d", total, k.N, k.Skipped, len(pairs))
		}
		rates := []Rate{Changes(units)}
		for _, r := range Dissent([]string{"x", "y", "z"}, units, decisions) {
			rates = append(rates, r)
		}
		for _, r := range rates {
			if r.Count < 0 || r.Count > r.N || (r.Rate == nil) != (r.N == 0) || (r.Rate != nil && (*r.Rate < 0 || *r.Rate > 1)) {
				t.Fatalf("rate %+v out of range", r)
			}
		}
	})
}
