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

// eqRows fills m.eq with the match rows of a against b (len(b) <= 64).
func (m *Matcher) eqRows(a, b []rune) []uint64 {
	m.reset(len(b))
	peq := m.peq[:0]
	for j, r := range b {
		id, ok := m.smallIntern(r)
		if !ok {
			id = m.internHashed(r)
		}
		if int(id) == len(peq) {
			peq = append(peq, 0)
		}
		peq[id] |= 1 << uint(j)
	}
	eq := m.eq[:0]
	for _, r := range a {
		id, ok := m.smallLookup(r)
		if !ok {
			id = m.lookupHashed(r)
		}
		var row uint64
		if id >= 0 {
			row = peq[id]
		}
		eq = append(eq, row)
	}
	if n := len(a) + 1; cap(m.lv0) < n {
		m.lv0 = make([]uint64, n, n+n/4)
		m.lv1 = make([]uint64, n, n+n/4)
	}
	m.peq, m.eq = peq, eq
	return eq
}

// longestShort is find_longest_match(alo, ahi, blo, bhi) for len(b) <= 64
// (no popular elements, so no extension). It returns k == 0 when no
// element matches.
func (m *Matcher) longestShort(eq []uint64, alo, ahi, blo, bhi int32) (besti, bestj, bestk int32) {
	n := int(ahi - alo)
	cur, nxt := m.lv0[:n], m.lv1[:n]
	w := ^uint64(0) >> uint(64-(bhi-blo)) << uint(blo)
	var any uint64
	for r, row := range eq[alo:ahi] {
		v := row & w
		cur[r] = v
		any |= v
	}
	if any == 0 {
		return alo, blo, 0
	}
	// first … last: the rows where the current level is not empty.
	first, last := 0, n-1
	for cur[first] == 0 {
		first++
	}
	for cur[last] == 0 {
		last--
	}
	k := 1
	for first < last {
		// Level k+1 can only be non-empty in rows first+1 … last.
		any = 0
		for r := first + 1; r <= last; r++ {
			v := cur[r] & (cur[r-1] << 1)
			nxt[r] = v
			any |= v
		}
		if any == 0 {
			break
		}
		cur, nxt = nxt, cur
		first++
		for cur[first] == 0 {
			first++
		}
		for cur[last] == 0 {
			last--
		}
		k++
	}
	i := alo + int32(first)
	j := int32(bits.TrailingZeros64(cur[first]))
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
