package pagetext

// Distance is the Levenshtein distance between two sequences of symbol
// ids (cluster or word ids, each ≥ 0 and < symbols), by Myers' and
// Hyyrö's bit-parallel algorithm: a column of 64 cells of the dynamic
// programme per machine word, block by block down the pattern, so that
// it takes O(⌈len(a)/64⌉·len(b)) steps and O(symbols + len(b)) memory.
func Distance(a, b []int32, symbols int) int {
	d, _ := distance(a, b, symbols, AlignLimits{})
	return d
}

// distance is Distance, asking lim.Cancel before each block of 64 rows.
func distance(a, b []int32, symbols int, lim AlignLimits) (int, error) {
	if len(a) == 0 {
		return len(b), nil
	}
	if len(b) == 0 {
		return len(a), nil
	}
	peq := make([]uint64, symbols) // the current block's match vectors
	h := make([]int8, len(b))      // the horizontal deltas at the block's top, then bottom
	for j := range h {
		h[j] = 1 // row 0: D[0][j] − D[0][j−1] = 1
	}
	for lo := 0; lo < len(a); lo += 64 {
		if err := lim.cancelled(); err != nil {
			return 0, err
		}
		hi := min(lo+64, len(a))
		for i := lo; i < hi; i++ {
			peq[a[i]] |= 1 << uint(i-lo)
		}
		high := uint64(1) << uint(hi-lo-1)
		pv, mv := ^uint64(0), uint64(0) // column 0: vertical deltas all +1
		for j, s := range b {
			eq := peq[s]
			hin := h[j]
			var hneg uint64
			if hin < 0 {
				hneg = 1
			}
			xv := eq | mv
			eq |= hneg
			xh := (((eq & pv) + pv) ^ pv) | eq
			ph := mv | ^(xh | pv)
			mh := pv & xh
			var hout int8
			if ph&high != 0 {
				hout = 1
			} else if mh&high != 0 {
				hout = -1
			}
			ph <<= 1
			mh <<= 1
			mh |= hneg
			if hin > 0 {
				ph |= 1
			}
			pv = mh | ^(xv | ph)
			mv = ph & xv
			h[j] = hout
		}
		for i := lo; i < hi; i++ {
			peq[a[i]] = 0
		}
	}
	d := len(a)
	for _, x := range h {
		d += int(x)
	}
	return d, nil
}
