package text

import "math/bits"

// This file is the path for b of at most 64 runes (names): autojunk never
// acts there (it needs len(b) >= 200), so find_longest_match is the plain
// longest common substring with CPython's tie-break, and bit-parallel rows
// find it without branching per match.
//
// Row i of the match matrix is eq[i], bit j set when a[i] == b[j]. Level t
// of a rectangle holds, per row, the cells where a match of length ≥ t ends
// inside the rectangle: level 1 is eq[i] masked to the rectangle's columns,
// level t+1 is level t AND (level t of the row above, shifted by one
// column). The last level that is not empty has the longest length K, and
// CPython's block is the one ending first in row-major order: the first
// non-empty row of that level, at its lowest bit.

// shortMax is the longest b that takes the bit-parallel path.
const shortMax = 64

// levels is the number of row arrays longestShort needs: levels 0 … 6
// (matches of length ≥ 1, 2, 4, … 64) and one spare.
const levels = 8

// eqRows fills m.eq with the match rows of a against b (len(b) <= 64).
func (m *Matcher) eqRows(a, b []rune) []uint64 {
	// The bits of b's runes: in direct, or by id in peq.
	m.reset(len(b))
	peq := m.peq[:0]
	for j, r := range b {
		if uint32(r) < directRunes {
			m.direct[r] |= 1 << uint(j)
			continue
		}
		id := m.internHashed(r)
		if int(id) == len(peq) {
			peq = append(peq, 0)
		}
		peq[id] |= 1 << uint(j)
	}
	eq := m.eq[:0]
	for _, r := range a {
		var row uint64
		if uint32(r) < directRunes {
			row = m.direct[r]
		} else if id := m.lookupHashed(r); id >= 0 {
			row = peq[id]
		}
		eq = append(eq, row)
	}
	m.clearDirect(b)
	if n := len(a) * levels; cap(m.lv) < n {
		m.lv = make([]uint64, n, n+n/4)
	}
	m.peq, m.eq = peq, eq
	return eq
}

// longestShort is find_longest_match(alo, ahi, blo, bhi) for len(b) <= 64
// (no popular elements, so no extension). It returns k == 0 when no
// element matches.
//
// Level p (lv[p]) holds, per row r of the rectangle, the cells where a
// match of length ≥ 2^p ends: level p+1 is level p AND level p of the row
// 2^p above, shifted by 2^p columns. Once a level is empty, the exact
// length K is found by binary lifting, from the last non-empty level
// down, so a rectangle costs O(rows · log K) word operations.
func (m *Matcher) longestShort(eq []uint64, alo, ahi, blo, bhi int32) (besti, bestj, bestk int32) {
	n := int(ahi - alo)
	lv := m.lv[:n*levels]
	w := ^uint64(0) >> uint(64-(bhi-blo)) << uint(blo)
	var any uint64
	l0 := lv[:n]
	for r, row := range eq[alo:ahi] {
		v := row & w
		l0[r] = v
		any |= v
	}
	if any == 0 {
		return alo, blo, 0
	}
	p := 0 // the last non-empty level
	for p+1 < levels-1 && 1<<(p+1) <= n {
		s := 1 << p
		prev, next := lv[p*n:(p+1)*n], lv[(p+1)*n:(p+2)*n]
		any = 0
		clear(next[:s])
		for r := s; r < n; r++ {
			v := prev[r] & (prev[r-s] << uint(s))
			next[r] = v
			any |= v
		}
		if any == 0 {
			break
		}
		p++
	}
	// x: ends of matches of length ≥ k; y: trial for k + 2^q. They start
	// as level p and the spare, and swap; the levels below p stay intact.
	k := 1 << p
	x, y := lv[p*n:(p+1)*n], lv[(levels-1)*n:levels*n]
	for q := p - 1; q >= 0; q-- {
		s, lq := 1<<q, lv[q*n:(q+1)*n]
		any = 0
		clear(y[:min(k, n)])
		for r := k; r < n; r++ {
			v := x[r] & (lq[r-k] << uint(k))
			y[r] = v
			any |= v
		}
		if any != 0 {
			x, y = y, x
			k += s
		}
	}
	first := k - 1
	for x[first] == 0 {
		first++
	}
	i := alo + int32(first)
	j := int32(bits.TrailingZeros64(x[first]))
	return i - int32(k) + 1, j - int32(k) + 1, int32(k)
}

// rect is a rectangle a[alo:ahi] × b[blo:bhi] in get_matching_blocks'
// queue.
type rect struct{ alo, ahi, blo, bhi int32 }

// matchingShort is MatchingCharacters for len(b) <= 64.
func (m *Matcher) matchingShort(a, b []rune) int {
	eq := m.eqRows(a, b)
	total := 0
	stack := append(m.rects[:0], rect{0, int32(len(a)), 0, int32(len(b))})
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i, j, k := m.longestShort(eq, e.alo, e.ahi, e.blo, e.bhi)
		if k == 0 {
			continue
		}
		total += int(k)
		if e.alo < i && e.blo < j {
			stack = append(stack, rect{e.alo, i, e.blo, j})
		}
		if i+k < e.ahi && j+k < e.bhi {
			stack = append(stack, rect{i + k, e.ahi, j + k, e.bhi})
		}
	}
	m.rects = stack
	return total
}
