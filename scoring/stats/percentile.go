package stats

// Quantile returns q(p) of SPEC F.4 over v, which must be sorted
// ascending and non-empty: h = (m−1)·p, j = ⌊h⌋,
// q = v[j] + (h−j)·(v[j+1]−v[j]), reading v[m] as v[m−1].
func Quantile(v []float64, p float64) float64 {
	m := len(v)
	h := float64(m-1) * p
	j := int(h)
	if j < 0 {
		j = 0
	}
	if j > m-1 {
		j = m - 1
	}
	next := v[m-1]
	if j+1 < m {
		next = v[j+1]
	}
	// The explicit conversion keeps a compiler from fusing the multiply
	// and add (Go may fuse x*y+z), so every host rounds the same way.
	return v[j] + float64((h-float64(j))*(next-v[j]))
}

// Range is a closed interval [lo, hi], written as a two-element array.
type Range [2]float64

// percentileInterval sorts values in place and returns the level-L
// percentile interval of SPEC F.4, or nil when the interval is null:
// fewer than two units, or fewer kept values than half the replicates.
func percentileInterval(values []float64, units, replicates int, level float64) *Range {
	if units < 2 || len(values) == 0 || 2*len(values) < replicates {
		return nil
	}
	sortFloats(values)
	return &Range{Quantile(values, (1-level)/2), Quantile(values, (1+level)/2)}
}
