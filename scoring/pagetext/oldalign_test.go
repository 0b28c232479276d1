package pagetext

// oldAlign is Align as it was before the bit-parallel band: the
// diagonal-transition method, then the bit-parallel distance over the
// full width and a scalar band of width d with checkpointed rows.
func oldAlign(a, b []int32, symbols int, lim AlignLimits) (int, []Op, error) {
	if lim.FrontCells <= 0 {
		lim.FrontCells = 1 << 23 // its default: about 2,900 edits
	}
	d, ops, ok, err := alignFronts(a, b, lim)
	if err != nil || ok {
		return d, ops, err
	}
	if d, err = distance(a, b, symbols, lim); err != nil {
		return 0, nil, err
	}
	ops, err = oldAlignBand(a, b, d, lim)
	return d, ops, err
}

// oldAlignBand is the scalar band this package aligned with before the
// bit-parallel one, kept as an oracle and a benchmark baseline. It traces
// the same script back through a dynamic programme restricted to the diagonals an optimal path can use (|k| + |m−n−k| ≤
// d), keeping every K-th row and recomputing the K rows of a block as the
// trace back enters it. Cells outside the band count as infinite: every
// cell of an optimal path is inside it, so its values and the trace
// back's choices are those of the full programme.
func oldAlignBand(a, b []int32, d int, lim AlignLimits) ([]Op, error) {
	n, m := len(a), len(b)
	kLo, _, w := band(n, m, d)
	K := checkpointEvery(n)
	nCheck := n/K + 1
	const inf = int32(1 << 30)
	// row i's cell for diagonal k is at [k-kLo]; j = i + k.
	fill := func(i int, prev, cur []int32) {
		for x := range w {
			k := kLo + x
			j := i + k
			if j < 0 || j > m {
				cur[x] = inf
				continue
			}
			if i == 0 {
				cur[x] = int32(j)
				continue
			}
			best := inf
			if j > 0 && prev[x] < inf { // (i-1, j-1): same diagonal
				c := prev[x]
				if a[i-1] != b[j-1] {
					c++
				}
				best = c
			}
			if x+1 < w && prev[x+1] < inf { // (i-1, j): diagonal k+1
				best = min(best, prev[x+1]+1)
			}
			if x > 0 && j > 0 && cur[x-1] < inf { // (i, j-1): diagonal k-1
				best = min(best, cur[x-1]+1)
			}
			cur[x] = best
		}
	}
	checks := make([]int32, nCheck*w)
	row := make([]int32, w)
	prev := make([]int32, w)
	for i := 0; i <= n; i++ {
		if i%256 == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		fill(i, prev, row)
		if i%K == 0 {
			copy(checks[(i/K)*w:], row)
		}
		prev, row = row, prev
	}
	block := make([]int32, (K+1)*w)
	at := func(base, i, j int) int32 {
		x := j - i - kLo
		if x < 0 || x >= w || j < 0 || j > m {
			return inf
		}
		return block[(i-base)*w+x]
	}
	ops := make([]Op, 0, max(n, m))
	i, j := n, m
	for i > 0 || j > 0 {
		base := (i - 1) / K * K
		if i == 0 {
			base = 0
		}
		copy(block[:w], checks[(base/K)*w:(base/K+1)*w])
		for r := base + 1; r <= min(base+K, n); r++ {
			if (r-base)%256 == 1 {
				if err := lim.cancelled(); err != nil {
					return nil, err
				}
			}
			fill(r, block[(r-1-base)*w:(r-base)*w], block[(r-base)*w:(r-base+1)*w])
		}
		for (i > base || (i == 0 && j > 0)) && (i > 0 || j > 0) {
			cur := at(base, i, j)
			switch {
			case i > 0 && j > 0 && a[i-1] == b[j-1]:
				i, j = i-1, j-1
				ops = append(ops, Op{Match, int32(i), int32(j)})
			case i > 0 && j > 0 && at(base, i-1, j-1)+1 == cur:
				i, j = i-1, j-1
				ops = append(ops, Op{Sub, int32(i), int32(j)})
			case i > 0 && at(base, i-1, j)+1 == cur:
				i--
				ops = append(ops, Op{Del, int32(i), -1})
			default:
				j--
				ops = append(ops, Op{Ins, -1, int32(j)})
			}
		}
	}
	reverse(ops)
	return ops, nil
}
