package pagetext

import (
	"math/bits"
	"sync/atomic"
)

// pruneFallbacks counts the pruned passes that did not reach the end,
// which the proof in forward's comment says never happens (the tests
// check it).
var pruneFallbacks atomic.Int64

// floorFallbacks counts the trace back's segments recomputed without
// their floor, which traceFloor's comment says never happens (the tests
// check it).
var floorFallbacks atomic.Int64

// floorsRaised counts the segments whose floor was above the first block
// forward computed (the tests check that they exercise it).
var floorsRaised atomic.Int64

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
	// Column c's computed blocks fc[c]..lc[c]; lp[c] the last it passed
	// on to column c+1 (lp[0] = −1).
	fc, lc, lp []int32
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
// from the block above. S[x] is the value at block x's last row. hin is
// the horizontal delta above block f: 1 for row 0, and for a first block
// below it (its top taken as the cell to its left plus one). It returns
// the delta below block l.
func (s *bitBand) step(P, M []uint64, S []int32, c, prevL, f, l int, hin int64) int64 {
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
	hb := uint(63)
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
	return hin
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
//
// With prune (k known to be at least the distance), it is Ukkonen's
// cutoff as Edlib applies it: a block at either end of a column whose
// every cell's value plus the least cost from it to the end (the
// diagonals between them) is over k holds no cell of an optimal path and
// is left out of the next column; the last block grows into the band one
// block at a time while the cell below it could still be on one. A cell of
// an optimal path has its exact value and that sum at most k, so it is
// never left out. Without prune, a column is the band's blocks.
func (s *bitBand) forward(k int, prune bool) (int, *checkpoints, error) {
	_, widest := s.costs()
	nCheck := s.m/s.K + 1
	cp := &checkpoints{off: make([]int, nCheck+1)}
	cp.P = make([]uint64, 0, nCheck*widest)
	cp.M = make([]uint64, 0, nCheck*widest)
	cp.S = make([]int32, 0, nCheck*widest)
	s.fc, s.lc, s.lp = make([]int32, s.m+1), make([]int32, s.m+1), make([]int32, s.m+1)
	s.lp[0] = -1
	P, M, S := s.P, s.M, s.S
	fPost, lPost := 0, -1 // the blocks the previous column passes on
	for c := 1; c <= s.m; c++ {
		if (c-1)%256 == 0 {
			if err := s.lim.cancelled(); err != nil {
				return 0, nil, err
			}
		}
		f, l := s.blocks(c)
		lb := l
		if prune && c > 1 {
			fb := f
			f, l = max(fPost, f), min(lPost+1, l)
			if fb == 0 && s.row0(c-1, k) {
				f = 0 // an optimal path could come down from row 0
			}
			if f > l {
				return bandInf, nil, nil
			}
		}
		hout := s.step(P, M, S, c, lPost, f, l, 1)
		t := s.n - s.m + c // the row whose cell is on the end's diagonal
		for prune && l < lb && int(S[l])+1+abs(min(64*(l+1), s.n)+1-t) <= k {
			// The cell below the last block could be on an optimal
			// path (from the one above it): its block joins, started
			// from column c−1's value of the block above.
			x := l + 1
			P[x], M[x] = ^uint64(0), 0
			S[x] = S[l] - int32(hout) + int32(min(64, s.n-64*x))
			hout = s.step(P, M, S, c, x, x, x, hout)
			l = x
		}
		s.fc[c], s.lc[c] = int32(f), int32(l)
		fPost, lPost = f, l
		if prune {
			for fPost <= lPost && s.bound(fPost, c) > k {
				fPost++
			}
			for lPost >= fPost && s.bound(lPost, c) > k {
				lPost--
			}
			if fPost > lPost {
				if !s.row0(c, k) {
					return bandInf, nil, nil
				}
				fPost, lPost = 0, -1 // an optimal path could be on row 0
			}
		}
		s.lp[c] = int32(lPost)
		if c%s.K == 0 {
			cp.P = append(cp.P, P[f:l+1]...)
			cp.M = append(cp.M, M[f:l+1]...)
			cp.S = append(cp.S, S[f:l+1]...)
			cp.off[c/s.K+1] = len(cp.P)
		}
	}
	if s.lc[s.m] != int32(s.nb-1) {
		return bandInf, nil, nil
	}
	return int(S[s.nb-1]), cp, nil
}

// row0 reports whether the cell (0, c), outside every block, could be on
// a path of at most k edits: its value c plus the diagonals to the end.
// Once it could not, it cannot in any later column.
func (s *bitBand) row0(c, k int) bool {
	return c+abs(s.n-s.m+c) <= k
}

// bound is at most the least, over block x's cells in column c, of the
// value plus the diagonals between the cell and the end.
func (s *bitBand) bound(x, c int) int {
	return blockBound(int(s.S[x]), s.P[x], s.M[x], x, s.n, s.n-s.m+c)
}

// blockBound is at most the least, over the rows i of block x (of a
// programme of n rows) whose vectors are P and M and whose last row's
// value is S, of the value plus |i − t|: the values change by at most one
// a row from the block's last row (S) and from the row above it (T).
func blockBound(S int, P, M uint64, x, n, t int) int {
	top, bottom := 64*x+1, min(64*x+64, n)
	mask := ^uint64(0)
	if bottom-64*x < 64 {
		mask = 1<<uint(bottom-64*x) - 1
	}
	T := S - bits.OnesCount64(P&mask) + bits.OnesCount64(M&mask)
	at := func(i int) int {
		i = min(max(i, top), bottom)
		return max(S-(bottom-i), T-(i-top+1)) + abs(i-t)
	}
	q := (T + top - 1 + bottom - S) / 2 // where the two slopes cross
	return min(at(top), at(bottom), at(t), at(q), at(q+1))
}

// traceFloor is the first block the trace back needs in columns
// base..j (base a checkpoint's column) to go on from (i, j), whose value
// is cur: every path that is optimal to (i, j) enters column base at a
// row r with value(r, base) + |(i − r) − (j − base)| ≤ cur, and its rows
// only grow from there. The checkpoint's values are exact on such paths
// (forward's comment), so a block whose blockBound is over cur holds no
// row of one; neither does any block above the first that could. 0 when
// row 0 could (its value at column base is base).
func (s *bitBand) traceFloor(cp *checkpoints, base, i, j, cur int) int {
	t := i - (j - base)
	if base == 0 || base+abs(t) <= cur {
		return 0
	}
	f, l := int(s.fc[base]), min(int(s.lc[base]), (i-1)/64)
	o := cp.off[base/s.K]
	for x := f; x <= l; x++ {
		if k := o + x - f; blockBound(int(cp.S[k]), cp.P[k], cp.M[k], x, s.n, t) <= cur {
			if x > f {
				floorsRaised.Add(1)
			}
			return x
		}
	}
	return f // not reached on an optimal path: no floor
}

// segment is columns base..top's vectors, blocks f..min(l, cap) of each.
type segment struct {
	base, cap int
	off, f    []int
	P, M      []uint64
	S         []int32
}

// recompute fills seg with columns base..top from the checkpoint at
// base, blocks floor..cap (from traceFloor to the rows above the trace
// back's). ok is false when a column's first block would start below
// the blocks the column before it computed, which traceFloor's reasoning
// rules out on an optimal path (floorFallbacks counts them): the caller
// recomputes without the floor.
func (s *bitBand) recompute(cp *checkpoints, seg *segment, base, top, floor, cap int) (ok bool, err error) {
	seg.base, seg.cap = base, cap
	seg.off, seg.f = seg.off[:0], seg.f[:0]
	seg.P, seg.M, seg.S = seg.P[:0], seg.M[:0], seg.S[:0]
	P, M, S := s.P, s.M, s.S
	seg.off = append(seg.off, 0)
	if base > 0 {
		f, l := int(s.fc[base]), int(s.lc[base])
		o := cp.off[base/s.K]
		copy(P[f:l+1], cp.P[o:])
		copy(M[f:l+1], cp.M[o:])
		copy(S[f:l+1], cp.S[o:])
		l = min(l, cap)
		f = max(f, floor)
		seg.f = append(seg.f, f)
		if f <= l {
			seg.P = append(seg.P, P[f:l+1]...)
			seg.M = append(seg.M, M[f:l+1]...)
			seg.S = append(seg.S, S[f:l+1]...)
		}
	} else {
		seg.f = append(seg.f, 0)
	}
	seg.off = append(seg.off, len(seg.P))
	prevF := seg.f[0]
	for c := base + 1; c <= top; c++ {
		if (c-base-1)%256 == 0 {
			if err := s.lim.cancelled(); err != nil {
				return false, err
			}
		}
		// The blocks forward computed from the floor on, started afresh
		// past those the previous column passed on.
		f, l := max(int(s.fc[c]), floor), min(int(s.lc[c]), cap)
		prevL := min(int(s.lp[c-1]), cap)
		if f <= l && floor > 0 && (f < prevF || prevL+1 < f) {
			floorFallbacks.Add(1)
			return false, nil
		}
		if f <= l {
			prevF = f
			s.step(P, M, S, c, prevL, f, l, 1)
			seg.P = append(seg.P, P[f:l+1]...)
			seg.M = append(seg.M, M[f:l+1]...)
			seg.S = append(seg.S, S[f:l+1]...)
		}
		seg.f = append(seg.f, f)
		seg.off = append(seg.off, len(seg.P))
	}
	return true, nil
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
//
// With prune, k must be at least the distance (an upper bound from an
// earlier pass): the pass leaves out the blocks no optimal path crosses.
func alignBits(a, b []int32, symbols, k int, prune bool, lim AlignLimits) (int, []Op, error) {
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
	d, cp, err := s.forward(k, prune)
	if err == nil && prune && d > k {
		// k was not at least the distance after all (a caller's bug):
		// the full band gives the same script.
		pruneFallbacks.Add(1)
		d, cp, err = s.forward(k, false)
	}
	if err != nil || d > k {
		return d, nil, err
	}
	ops := make([]Op, 0, max(n, m))
	seg := &segment{}
	i, j := n, m
	cur := d // the value at (i, j)
	for j > 0 && i > 0 {
		base := (j - 1) / s.K * s.K
		ok, err := s.recompute(cp, seg, base, j, s.traceFloor(cp, base, i, j, cur), (i-1)/64)
		if err == nil && !ok {
			_, err = s.recompute(cp, seg, base, j, 0, (i-1)/64)
		}
		if err != nil {
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
		if i > 0 && j > 0 {
			cur = s.value(seg, i, j)
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
