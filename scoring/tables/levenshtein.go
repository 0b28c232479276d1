package tables

// lev computes unit-cost edit distances of token sequences (interned
// ids): Hyyrö's bit-parallel form of Myers' algorithm when the shorter
// sequence, after a common prefix and suffix are stripped, fits in a
// 64-bit word, a one-row dynamic programme otherwise. Its buffers are
// reused; it is not safe for concurrent use.
type lev struct {
	peq []uint64 // per token id: the positions of the id in the pattern
	row []int32
}

// distance returns the edit distance of a and b; every id is below ids.
func (l *lev) distance(a, b []int32, ids int) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	for len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(b) == 0 {
		return len(a)
	}
	if len(b) <= 64 {
		return l.myers(b, a, ids)
	}
	return l.dp(a, b)
}

// myers is the distance of a pattern p of 1 to 64 tokens and a text t.
func (l *lev) myers(p, t []int32, ids int) int {
	if len(l.peq) < ids {
		l.peq = make([]uint64, ids+ids/2)
	}
	peq := l.peq
	for i, c := range p {
		peq[c] |= 1 << uint(i)
	}
	m := len(p)
	last := uint64(1) << uint(m-1)
	pv, mv := ^uint64(0), uint64(0)
	score := m
	for _, c := range t {
		eq := peq[c]
		xv := eq | mv
		xh := (((eq & pv) + pv) ^ pv) | eq
		ph := mv | ^(xh | pv)
		mh := pv & xh
		if ph&last != 0 {
			score++
		} else if mh&last != 0 {
			score--
		}
		ph = ph<<1 | 1
		mh <<= 1
		pv = mh | ^(xv | ph)
		mv = ph & xv
	}
	for _, c := range p {
		peq[c] = 0
	}
	return score
}

// dp is the textbook distance in one reused row, b the shorter.
func (l *lev) dp(a, b []int32) int {
	if cap(l.row) < len(b)+1 {
		l.row = make([]int32, len(b)+1)
	}
	row := l.row[:len(b)+1]
	for j := range row {
		row[j] = int32(j)
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = int32(i)
		ai := a[i-1]
		for j := 1; j <= len(b); j++ {
			old := row[j]
			v := diag
			if ai != b[j-1] {
				v = min(diag, row[j], row[j-1]) + 1
			}
			row[j] = v
			diag = old
		}
	}
	return int(row[len(b)])
}
