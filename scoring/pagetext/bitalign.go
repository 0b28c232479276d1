package pagetext

import "math/bits"

// The bit-parallel banded alignment: Myers' and Hyyrö's bit-vectors
// (64 rows of the dynamic programme a machine word), column by column
// over b, restricted to the blocks of rows that the diagonals of a band
// cross, as Edlib computes it (Šošić and Šikić 2017). Every K-th column's
// vectors are kept; the trace back recomputes the K columns of a segment
// from its checkpoint and reads each value it needs off the vectors with
// a population count.
//
// Cells outside the computed blocks are never read as smaller than their
// true value: a block entering the band starts from the block above it
// plus one a row, the first block's top from the cell to its left plus
// one. So every computed value is at least the full programme's, and a
// cell on an optimal path, whose optimal prefix lies in the band, has
// exactly the full programme's. The trace back's choices at such a cell
// compare neighbours that are exact when they are on an optimal path and
// too large to be chosen otherwise: the script is the full programme's.

// denseEqWords bounds the words of the dense match table (symbols of a
// times blocks); past it, the match vectors are looked up in a sparse
// table, one entry a (symbol, block) pair that occurs.
var denseEqWords = 1 << 20 // 8 MB

// bitBand is one banded programme over a (rows) and b (columns).
type bitBand struct {
	a, b     []int32
	n, m, nb int // lengths, blocks of 64 rows
	kLo, kHi int // the band's diagonals k = j − i
	lastBit  uint
	// The match vectors of symbol s (row[s] ≥ 0): dense[row*nb:][:nb],
	// or occBlk/occMask[occ[row]:occ[row+1]] by block with scratch
	// holding one column's.
	row     []int32
	dense   []uint64
	zero    []uint64
	occ     []int32
	occBlk  []int32
	occMask []uint64
	scratch []uint64
	K       int // columns between checkpoints
	lim     AlignLimits
	// One column's vectors by block: P and M the vertical deltas +1 and
	// −1, S the value at the block's last row.
	P, M []uint64
	S    []int32
}

// newBitBand builds the match table of a (symbol ids < symbols).
func newBitBand(a, b []int32, symbols int, lim AlignLimits) *bitBand {
	n, m := len(a), len(b)
	s := &bitBand{a: a, b: b, n: n, m: m, nb: (n + 63) / 64, lastBit: uint((n - 1) % 64), lim: lim}
	s.K = max(1, checkpointEvery(m))
	s.P, s.M, s.S = make([]uint64, s.nb), make([]uint64, s.nb), make([]int32, s.nb)
	s.row = make([]int32, symbols)
	for i := range s.row {
		s.row[i] = -1
	}
	rows := int32(0)
	for _, x := range a {
		if s.row[x] < 0 {
			s.row[x] = rows
			rows++
		}
	}
	s.zero = make([]uint64, s.nb)
	if int(rows)*s.nb <= denseEqWords {
		s.dense = make([]uint64, int(rows)*s.nb)
		for i, x := range a {
			s.dense[int(s.row[x])*s.nb+i/64] |= 1 << uint(i%64)
		}
		return s
	}
	// Sparse: count the (symbol, block) pairs, then fill them in block
	// order.
	s.occ = make([]int32, rows+1)
	last := make([]int32, rows)
	for i := range last {
		last[i] = -1
	}
	for i, x := range a {
		r := s.row[x]
		if last[r] != int32(i/64) {
			last[r] = int32(i / 64)
			s.occ[r+1]++
		}
	}
	for r := range rows {
		s.occ[r+1] += s.occ[r]
	}
	s.occBlk = make([]int32, s.occ[rows])
	s.occMask = make([]uint64, s.occ[rows])
	next := append([]int32(nil), s.occ[:rows]...)
	for i := range last {
		last[i] = -1
	}
	for i, x := range a {
		r := s.row[x]
		blk := int32(i / 64)
		if last[r] != blk {
			last[r] = blk
			s.occBlk[next[r]] = blk
			next[r]++
		}
		s.occMask[next[r]-1] |= 1 << uint(i%64)
	}
	s.scratch = make([]uint64, s.nb)
	return s
}

// eq returns the match vectors of symbol x, indexed by block, valid for
// blocks f..l; done undoes what it set.
func (s *bitBand) eq(x int32, f, l int) []uint64 {
	r := s.row[x]
	if r < 0 {
		return s.zero
	}
	if s.dense != nil {
		return s.dense[int(r)*s.nb : int(r+1)*s.nb]
	}
	lo, hi := int(s.occ[r]), int(s.occ[r+1])
	for lo < hi { // the first entry at block f or after
		mid := int(uint(lo+hi) >> 1)
		if int(s.occBlk[mid]) < f {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	for e := lo; e < int(s.occ[r+1]) && int(s.occBlk[e]) <= l; e++ {
		s.scratch[s.occBlk[e]] = s.occMask[e]
	}
	return s.scratch
}

// done clears what eq set in the sparse table's scratch column.
func (s *bitBand) done(x int32, f, l int) {
	if s.dense == nil && s.row[x] >= 0 {
		clear(s.scratch[f : l+1])
	}
}

// setBand makes the band the diagonals a path of k edits can use.
func (s *bitBand) setBand(k int) {
	s.kLo, s.kHi, _ = band(s.n, s.m, k)
}

// blocks is the first and last block of column c (≥ 1) the band crosses.
func (s *bitBand) blocks(c int) (f, l int) {
	return (max(1, c-s.kHi) - 1) / 64, (min(s.n, c-s.kLo) - 1) / 64
}

// costs are the words one forward pass computes and the widest column.
func (s *bitBand) costs() (words int64, widest int) {
	for c := 1; c <= s.m; c++ {
		f, l := s.blocks(c)
		words += int64(l - f + 1)
		widest = max(widest, l-f+1)
	}
	return words, widest
}

// step advances blocks f..l of (P, M, S) from column c−1 to column c
// (1 ≤ c ≤ m), after starting the blocks from prevL+1 on, new to the band,
// from the block above. S[x] is the value at block x's last row.
func (s *bitBand) step(P, M []uint64, S []int32, c, prevL, f, l int) {
	for x := prevL + 1; x <= l; x++ {
		top := int32(c - 1) // row 0
		if x > 0 {
			top = S[x-1]
		}
		P[x], M[x] = ^uint64(0), 0
		S[x] = top + int32(min(64, s.n-64*x))
	}
	sym := s.b[c-1]
	eq := s.eq(sym, f, l)
	// hin is row 0's delta, or the first block's top from its left
	// plus one.
	hin, hb := int64(1), uint(63)
	ps, ms, ss, es := P[f:l+1], M[f:l+1], S[f:l+1], eq[f:l+1]
	ms, ss, es = ms[:len(ps)], ss[:len(ps)], es[:len(ps)]
	for x := range ps {
		if x == len(ps)-1 && l == s.nb-1 {
			hb = s.lastBit
		}
		// myersBlock, inlined by hand.
		pv, mv, e := ps[x], ms[x], es[x]
		hneg := uint64(hin) >> 63
		hpos := uint64(-hin) >> 63
		xv := e | mv
		e |= hneg
		xh := (((e & pv) + pv) ^ pv) | e
		ph := mv | ^(xh | pv)
		mh := pv & xh
		hout := int64(ph>>hb&1) - int64(mh>>hb&1)
		ph = ph<<1 | hpos
		mh = mh<<1 | hneg
		ps[x], ms[x] = mh|^(xv|ph), ph&xv
		ss[x] += int32(hout)
		hin = hout
	}
	s.done(sym, f, l)
}

// checkpoints are the vectors of every K-th column, from column 0.
type checkpoints struct {
	off  []int // column c·K's blocks f..l at P[off[c]:], f = first[c]
	P, M []uint64
	S    []int32
}

// forward runs the band over every column, keeping checkpoints, and
// returns the value at (n, m), at least the distance, exactly it when
// the band holds an optimal path.
func (s *bitBand) forward() (int, *checkpoints, error) {
	_, widest := s.costs()
	nCheck := s.m/s.K + 1
	cp := &checkpoints{off: make([]int, nCheck+1)}
	cp.P = make([]uint64, 0, nCheck*widest)
	cp.M = make([]uint64, 0, nCheck*widest)
	cp.S = make([]int32, 0, nCheck*widest)
	P, M, S := s.P, s.M, s.S
	prevL := -1
	for c := 1; c <= s.m; c++ {
		if (c-1)%256 == 0 {
			if err := s.lim.cancelled(); err != nil {
				return 0, nil, err
			}
		}
		f, l := s.blocks(c)
		s.step(P, M, S, c, prevL, f, l)
		prevL = l
		if c%s.K == 0 {
			cp.P = append(cp.P, P[f:l+1]...)
			cp.M = append(cp.M, M[f:l+1]...)
			cp.S = append(cp.S, S[f:l+1]...)
			cp.off[c/s.K+1] = len(cp.P)
		}
	}
	return int(S[s.nb-1]), cp, nil
}

// segment is columns base..top's vectors, blocks f..min(l, cap) of each.
type segment struct {
	base, cap int
	off, f    []int
	P, M      []uint64
	S         []int32
}

// recompute fills seg with columns base..top from the checkpoint at
// base, blocks up to cap (the rows above the trace back's).
func (s *bitBand) recompute(cp *checkpoints, seg *segment, base, top, cap int) error {
	seg.base, seg.cap = base, cap
	seg.off, seg.f = seg.off[:0], seg.f[:0]
	seg.P, seg.M, seg.S = seg.P[:0], seg.M[:0], seg.S[:0]
	P, M, S := s.P, s.M, s.S
	prevL := -1
	seg.off = append(seg.off, 0)
	if base > 0 {
		f, l := s.blocks(base)
		o := cp.off[base/s.K]
		copy(P[f:l+1], cp.P[o:])
		copy(M[f:l+1], cp.M[o:])
		copy(S[f:l+1], cp.S[o:])
		prevL = min(l, cap)
		seg.f = append(seg.f, f)
		if f <= prevL {
			seg.P = append(seg.P, P[f:prevL+1]...)
			seg.M = append(seg.M, M[f:prevL+1]...)
			seg.S = append(seg.S, S[f:prevL+1]...)
		}
	} else {
		seg.f = append(seg.f, 0)
	}
	seg.off = append(seg.off, len(seg.P))
	for c := base + 1; c <= top; c++ {
		if (c-base-1)%256 == 0 {
			if err := s.lim.cancelled(); err != nil {
				return err
			}
		}
		f, l := s.blocks(c)
		l = min(l, cap)
		if f <= l {
			s.step(P, M, S, c, prevL, f, l)
			prevL = l
			seg.P = append(seg.P, P[f:l+1]...)
			seg.M = append(seg.M, M[f:l+1]...)
			seg.S = append(seg.S, S[f:l+1]...)
		}
		seg.f = append(seg.f, f)
		seg.off = append(seg.off, len(seg.P))
	}
	return nil
}

const bandInf = 1 << 30

// value is the programme's value at (i, c), base ≤ c ≤ top: exact on row
// 0 and column 0, read off the column's vectors inside its blocks,
// infinite outside them.
func (s *bitBand) value(seg *segment, i, c int) int {
	if i == 0 {
		return c
	}
	if c == 0 {
		return i
	}
	x := (i - 1) / 64
	at := c - seg.base
	f := seg.f[at]
	idx := seg.off[at] + x - f
	if x < f || idx >= seg.off[at+1] {
		return bandInf
	}
	bottom := min(64*(x+1), s.n)
	// rows i+1..bottom are bits i−64x .. bottom−1−64x.
	mask := (uint64(1)<<uint(bottom-i) - 1) << uint(i-64*x)
	return int(seg.S[idx]) - bits.OnesCount64(seg.P[idx]&mask) + bits.OnesCount64(seg.M[idx]&mask)
}

// alignBits aligns a and b with the band of k edits: the distance and the
// script when the distance is at most k, otherwise an upper bound of the
// distance (more than k) and no script.
func alignBits(a, b []int32, symbols, k int, lim AlignLimits) (int, []Op, error) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		ops := make([]Op, 0, n+m)
		for i := range n {
			ops = append(ops, Op{Del, int32(i), -1})
		}
		for j := range m {
			ops = append(ops, Op{Ins, -1, int32(j)})
		}
		return n + m, ops, nil
	}
	s := newBitBand(a, b, symbols, lim)
	s.setBand(k)
	d, cp, err := s.forward()
	if err != nil || d > k {
		return d, nil, err
	}
	ops := make([]Op, 0, max(n, m))
	seg := &segment{}
	i, j := n, m
	for j > 0 && i > 0 {
		base := (j - 1) / s.K * s.K
		if err := s.recompute(cp, seg, base, j, (i-1)/64); err != nil {
			return 0, nil, err
		}
		for j > base && i > 0 {
			cur := s.value(seg, i, j)
			switch {
			case a[i-1] == b[j-1]:
				i, j = i-1, j-1
				ops = append(ops, Op{Match, int32(i), int32(j)})
			case s.value(seg, i-1, j-1)+1 == cur:
				i, j = i-1, j-1
				ops = append(ops, Op{Sub, int32(i), int32(j)})
			case s.value(seg, i-1, j)+1 == cur:
				i--
				ops = append(ops, Op{Del, int32(i), -1})
			default:
				j--
				ops = append(ops, Op{Ins, -1, int32(j)})
			}
		}
	}
	for i > 0 {
		i--
		ops = append(ops, Op{Del, int32(i), -1})
	}
	for j > 0 {
		j--
		ops = append(ops, Op{Ins, -1, int32(j)})
	}
	reverse(ops)
	return d, ops, nil
}
