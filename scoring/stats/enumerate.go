package stats

import (
	"cmp"
	"slices"
)

// When a comparison pairs few units, its draws repeat: a bootstrap
// replicate of n units is one of n^n index sequences, a randomization
// round one of 2^n coin patterns (the benchmark corpus's cells have 3
// pages: 27 sequences for 2,000 replicates, 8 patterns for 10,000
// rounds). Compare then draws from the streams exactly as SPEC F.3 says,
// counts how often each sequence or pattern comes up, and sums each one
// that came up once, in the order a replicate or round sums it: the same
// numbers, bit for bit, as summing every replicate and round
// (TestEnumeratedMatchesDirect), at a fraction of the cost.

// maxPatternUnits bounds the units whose coin patterns are counted (2^n
// counters).
const maxPatternUnits = 16

// sequences returns n^n, the number of index sequences of a replicate of
// n units, when it is at most limit; else 0.
func sequences(n, limit int) int {
	if n < 1 {
		return 0
	}
	size := 1
	for range n {
		if size *= n; size > limit {
			return 0
		}
	}
	return size
}

// bootstrapEnumerated is bootstrap for size = n^n sequences: it draws the
// replicates' indices from g and counts each sequence k (draw j picks
// index k / n^j mod n), then sums each sequence drawn once, in draw
// order. Each statistic's differences come back sorted, as many times
// each as its sequence was drawn.
func (p *paired) bootstrapEnumerated(g *SplitMix64, replicates, size int) [][]float64 {
	n, w := p.n, p.w
	drawn := make([]int32, size)
	countSequences(g, n, replicates, drawn)
	type diffs struct {
		d     float64
		times int32
	}
	found := make([][]diffs, len(p.st))
	for k, times := range drawn {
		if times == 0 {
			continue
		}
		clear(p.sa)
		clear(p.sb)
		q := k
		for range n {
			j := q % n * w
			addInto(p.sa, p.ca[j:j+w])
			addInto(p.sb, p.cb[j:j+w])
			q /= n
		}
		for i := range p.st {
			if dv, ok := diff(&p.st[i], p.sa, p.sb); ok {
				found[i] = append(found[i], diffs{dv, times})
			}
		}
	}
	values := make([][]float64, len(p.st))
	for i, f := range found {
		slices.SortFunc(f, func(x, y diffs) int { return cmp.Compare(x.d, y.d) })
		values[i] = make([]float64, 0, replicates)
		for _, e := range f {
			for range e.times {
				values[i] = append(values[i], e.d)
			}
		}
	}
	return values
}

// permuteEnumerated is permute for n ≤ maxPatternUnits units: it draws
// the rounds' coins from g and counts each pattern (bit i set: unit i's
// sides swapped), then sums each pattern drawn once, in unit order, and
// tallies it as many times as it was drawn.
func (p *paired) permuteEnumerated(g *SplitMix64, rounds int, d []float64, kept, count []int) {
	n, w := p.n, p.w
	drawn := make([]int32, 1<<n)
	countPatterns(g, n, rounds, drawn)
	for pattern, times := range drawn {
		if times == 0 {
			continue
		}
		clear(p.sa)
		clear(p.sb)
		for i := range n {
			x, y := p.ca[i*w:(i+1)*w], p.cb[i*w:(i+1)*w]
			if pattern>>i&1 == 1 {
				x, y = y, x
			}
			addInto(p.sa, x)
			addInto(p.sb, y)
		}
		p.tally(d, kept, count, int(times))
	}
}

// countSequences draws replicates sequences of n indices into n units
// from g and counts each in drawn (n^n counters): sequence k's draw j is
// k / n^j mod n. It allocates nothing.
func countSequences(g *SplitMix64, n, replicates int, drawn []int32) {
	for range replicates {
		k, place := 0, 1
		for range n {
			k += g.Index(n) * place
			place *= n
		}
		drawn[k]++
	}
}

// countPatterns draws rounds rounds of n coins from g and counts each
// pattern in drawn (2^n counters): bit i is unit i's coin. It allocates
// nothing.
func countPatterns(g *SplitMix64, n, rounds int, drawn []int32) {
	for range rounds {
		pattern := uint64(0)
		for i := range n {
			// g.Coin() without a branch: the coins are random, and a
			// branch on them is mispredicted half the time.
			pattern |= g.Next() >> 63 << i
		}
		drawn[pattern]++
	}
}

// sortedInterval is percentileInterval of values already sorted: the
// same test for a null interval, the same quantiles, no sort. (Kept
// apart from percentileInterval, which the page's core links: splitting
// it there cost 1 KB of docscore.wasm's gzip budget.)
func sortedInterval(values []float64, units, replicates int, level float64) *Range {
	if units < 2 || len(values) == 0 || 2*len(values) < replicates {
		return nil
	}
	return &Range{Quantile(values, (1-level)/2), Quantile(values, (1+level)/2)}
}
