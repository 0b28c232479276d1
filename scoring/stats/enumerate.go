package stats

import "sort"

// When a comparison pairs few units, its draws repeat: a bootstrap
// replicate of n units is one of n^n index sequences, a randomization
// round one of 2^n coin patterns (the benchmark corpus's cells have 3
// pages: 27 sequences for 2,000 replicates, 8 patterns for 10,000
// rounds). Compare then draws from the streams exactly as SPEC F.3 says,
// counts how often each sequence or pattern comes up, and sums each one
// that came up once, in the order a replicate or round sums it: the same
// numbers, bit for bit, as summing every replicate and round
// (TestEnumeratedMatchesDirect), at a fraction of the cost. Interval
// counts a cell's replicates the same way (TestIntervalEnumeratedMatchesDirect):
// in the browser, where the direct path sorts 2,000 values per statistic
// with the interface sort (sort_js.go), that is most of its cost.

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

// bootstrapEnumerated is bootstrap for size = n^n sequences
// (eachSequence). Each statistic's differences come back as the distinct
// sequences' values with their counts, sorted by value: the replicates'
// values without writing each out.
func (p *paired) bootstrapEnumerated(g *SplitMix64, replicates, size int) [][]weighted {
	found := make([][]weighted, len(p.st))
	eachSequence(g, p.n, p.w, replicates, size, [][]float64{p.ca, p.cb}, [][]float64{p.sa, p.sb}, func(times int) {
		for i := range p.st {
			if dv, ok := diff(&p.st[i], p.sa, p.sb); ok {
				found[i] = append(found[i], weighted{dv, times})
			}
		}
	})
	return sortWeighted(found)
}

// eachSequence draws replicates sequences of n indices from g and counts
// each sequence k (draw j picks index k / n^j mod n; size = n^n); then,
// for each sequence drawn, it sums each of comps' contributions into the
// sums of the same index, in draw order, as a replicate would, and calls
// visit with the number of replicates that drew it.
func eachSequence(g *SplitMix64, n, w, replicates, size int, comps, sums [][]float64, visit func(times int)) {
	drawn := make([]int32, size)
	countSequences(g, n, replicates, drawn)
	for k, times := range drawn {
		if times == 0 {
			continue
		}
		for _, s := range sums {
			clear(s)
		}
		q := k
		for range n {
			j := q % n * w
			for c, s := range sums {
				addInto(s, comps[c][j:j+w])
			}
			q /= n
		}
		visit(int(times))
	}
}

// sortWeighted sorts each statistic's values ascending. (sort.Slice, not
// a generic sort: the page's core links it already.)
func sortWeighted(found [][]weighted) [][]weighted {
	for _, f := range found {
		sort.Slice(f, func(x, y int) bool { return f[x].d < f[y].d })
	}
	return found
}

// weighted is a value that times replicates gave.
type weighted struct {
	d     float64
	times int
}

// weightedInterval is percentileInterval of the values f stands for (f
// sorted by value), and their number: the same null test and the same
// quantiles, bit for bit, without writing the values out.
func weightedInterval(f []weighted, units, replicates int, level float64) (kept int, r *Range) {
	for _, e := range f {
		kept += e.times
	}
	if units < 2 || kept == 0 || 2*kept < replicates {
		return kept, nil
	}
	return kept, &Range{weightedQuantile(f, kept, (1-level)/2), weightedQuantile(f, kept, (1+level)/2)}
}

// weightedQuantile is Quantile over the m values f stands for.
func weightedQuantile(f []weighted, m int, p float64) float64 {
	h := float64(m-1) * p
	j := min(max(int(h), 0), m-1)
	vj, next := valueAt(f, j), valueAt(f, min(j+1, m-1))
	// As in Quantile, the conversion keeps the multiply and add unfused.
	return vj + float64((h-float64(j))*(next-vj))
}

// valueAt is value i of those f stands for.
func valueAt(f []weighted, i int) float64 {
	for _, e := range f {
		if i < e.times {
			return e.d
		}
		i -= e.times
	}
	return f[len(f)-1].d
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
// k / n^j mod n. It allocates nothing. (Both counters step g's state in
// a local, g.Index and g.Next inlined by hand: the state then stays in
// a register, and the outputs' mixing overlaps.)
func countSequences(g *SplitMix64, n, replicates int, drawn []int32) {
	s, un := g.state, uint64(n)
	for range replicates {
		k, place := 0, 1
		for range n {
			s += golden
			k += int(mix(s)%un) * place
			place *= n
		}
		drawn[k]++
	}
	g.state = s
}

// countPatterns draws rounds rounds of n coins from g and counts each
// pattern in drawn (2^n counters): bit i is unit i's coin. It allocates
// nothing. The coins are drawn up to 64 at a time into a word, each
// shifted in from the top (g.Coin() without a branch, which the random
// coins would mispredict half the time, nor a shift by a variable), and
// each round takes the next n of them.
func countPatterns(g *SplitMix64, n, rounds int, drawn []int32) {
	s, mask := g.state, uint64(len(drawn)-1)
	var buf uint64            // coins drawn and not yet counted, the next at bit 0
	have, left := 0, rounds*n // coins in buf; coins still to draw
	for range rounds {
		if have < n {
			k := min(64-have, left)
			var w uint64
			for range k {
				s += golden
				w = w>>1 | mix(s)>>63<<63
			}
			buf |= w >> (64 - k) << have
			have += k
			left -= k
		}
		drawn[buf&mask]++
		buf >>= n
		have -= n
	}
	g.state = s
}
