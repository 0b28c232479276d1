package text

import (
	"math"
	"sync"
)

// This file reimplements the parts of CPython's difflib.SequenceMatcher
// (Lib/difflib.py, isjunk=None, autojunk=True) that ratio(), quick_ratio()
// and real_quick_ratio() need, without maps, recursion or allocation once
// the Matcher's buffers have grown:
//
//   - __chain_b's b2j map becomes ids per rune (a scratch array for runes
//     below directRunes, a stamped hash table for the others) and the
//     positions of each id in b, ascending, in one flat slice.
//   - get_matching_blocks' queue becomes a reusable slice stack, and its
//     calls of find_longest_match on ever smaller rectangles become cuts of
//     the maximal diagonal runs that one j2len pass recorded (below), or,
//     for b of at most 64 runes, bit-parallel passes (ratio_short.go).
//
// The tie-breaking is CPython's: of the longest blocks the j2len pass sees,
// the one that starts earliest in a, then earliest in b; popular elements
// of b (autojunk, len(b) >= 200) are left out of that pass, and the block
// found is then extended on both sides through equal elements, popular ones
// included. With isjunk=None no element is in bjunk, so CPython's two
// junk-only extension loops never run.

// Matcher computes Ratcliff–Obershelp ratios exactly as CPython's difflib
// does, reusing its buffers across calls.
// The zero value is ready to use. A Matcher is not safe for concurrent use.
type Matcher struct {
	// Per-rune scratch for runes below directRunes: the id (plus one), the
	// count or the bit mask of the rune in the current b. Every call sets
	// entries for b's runes only and zeroes them again before it returns,
	// so the array is all zero between calls.
	direct [directRunes]uint64

	// rune → id for the other runes: an open-addressing table whose slots
	// are stamped with gen, so a new generation empties it without
	// clearing.
	gen   uint32
	slots []slot
	shift uint // hash shift: 32 - log2(len(slots))
	ids   int32

	// b2j, flattened.
	bid   []int32    // id of b[j]
	count []int32    // occurrences of id in b, -1 when popular
	end   []int32    // first slot of id in pos
	pos   []int32    // b2j: the positions of each id, ascending, id by id
	rows  []posRange // slots in pos of a[i]'s positions (b2j.get(a[i]))

	// j2len by diagonal d = j - i + len(a): row stamp << 32 | index in runs
	// of the run ending on that diagonal in that row. Stamps grow across
	// calls, so nothing is ever cleared (except when tick wraps).
	diag []uint64
	tick uint32

	runs []run // maximal diagonal runs of matches, cut as rectangles split
	// The bit-parallel path for short b (ratio_short.go).
	peq   []uint64 // per id: the positions of id in b, as bits
	eq    []uint64 // per row of a: the positions in b equal to a[i]
	lv    []uint64 // the levels of a rectangle, len(a) words each
	rects []rect   // get_matching_blocks' queue
	stack []span
}

// slot is an entry of the rune → id hash table, live when gen is current.
type slot struct {
	key rune
	id  int32
	gen uint32
}

// span is a rectangle a[alo:ahi] × b[blo:bhi] waiting in
// get_matching_blocks' queue, with its runs (runs[lo:hi], already cut to
// it) and its best block before extension.
type span struct {
	alo, ahi, blo, bhi int32
	lo, hi             int32
	bi, bj, bk         int32
}

// run is a diagonal run of matches: a[i:i+n] == b[j:j+n].
type run struct{ i, j, n int32 }

// posRange is a range of slots in Matcher.pos.
type posRange struct{ lo, hi int32 }

// directRunes bounds the runes that index Matcher.direct: Latin with its
// combining marks, Greek, Cyrillic, Armenian and Hebrew, the bulk of the
// names docscore compares. Other runes go through the hash table.
const directRunes = 0x600

// minSlots is the smallest hash table.
const minSlots = 64

// grow32 returns s with length n, reallocating only when it is too short.
func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, n+n/4)
	}
	return s[:n]
}

// reset starts a new, empty rune → id mapping for a b of n runes.
func (m *Matcher) reset(n int) {
	if len(m.slots) < 2*n || len(m.slots) < minSlots {
		size, bits := minSlots, uint(6)
		for size < 2*n {
			size <<= 1
			bits++
		}
		m.slots = make([]slot, size)
		m.shift = 32 - bits
		m.gen = 0
	}
	m.gen++
	if m.gen == 0 { // wrapped: stale stamps could match again
		clear(m.slots)
		m.gen = 1
	}
	m.ids = 0
}

// internHashed returns the id of r (at or above directRunes), giving it
// the next id when r is new in this generation.
func (m *Matcher) internHashed(r rune) int32 {
	mask := uint32(len(m.slots) - 1)
	for h := (uint32(r) * 0x9E3779B1) >> m.shift; ; h = (h + 1) & mask {
		s := &m.slots[h]
		if s.gen != m.gen {
			id := m.ids
			m.ids++
			*s = slot{key: r, id: id, gen: m.gen}
			return id
		}
		if s.key == r {
			return s.id
		}
	}
}

// lookupHashed returns the id of r (at or above directRunes), or -1 when
// r is not in b.
func (m *Matcher) lookupHashed(r rune) int32 {
	mask := uint32(len(m.slots) - 1)
	for h := (uint32(r) * 0x9E3779B1) >> m.shift; ; h = (h + 1) & mask {
		s := &m.slots[h]
		if s.gen != m.gen {
			return -1
		}
		if s.key == r {
			return s.id
		}
	}
}

// chain indexes b like CPython's __chain_b and gives every element of a
// its range of positions in pos (empty when the element is not in b2j). It
// reports whether autojunk removed any popular element.
func (m *Matcher) chain(a, b []rune) (popular bool) {
	m.reset(len(b))
	bid := grow32(m.bid, len(b))
	for j, r := range b {
		if uint32(r) < directRunes {
			p := &m.direct[r]
			if *p == 0 {
				m.ids++
				*p = uint64(m.ids)
			}
			bid[j] = int32(*p) - 1
		} else {
			bid[j] = m.internHashed(r)
		}
	}
	ids := int(m.ids)
	count := grow32(m.count, ids)
	clear(count)
	for _, id := range bid {
		count[id]++
	}
	if n := len(b); n >= 200 {
		ntest := int32(n/100 + 1)
		for id, c := range count {
			if c > ntest {
				count[id] = -1 // popular: out of b2j
				popular = true
			}
		}
	}
	// end[id] = one past the last slot of id in pos; filling backwards
	// moves it to the first slot, so that pos[end[id]:…] ends up ascending.
	end := grow32(m.end, ids)
	total := int32(0)
	for id, c := range count {
		total += max(c, 0)
		end[id] = total
	}
	pos := grow32(m.pos, int(total))
	for j := len(b) - 1; j >= 0; j-- {
		if id := bid[j]; count[id] >= 0 {
			end[id]--
			pos[end[id]] = int32(j)
		}
	}
	// Now end[id] is the first slot of id; its last is end[id]+count[id].
	rows := m.rows
	if cap(rows) < len(a) {
		rows = make([]posRange, len(a), len(a)+len(a)/4)
	}
	rows = rows[:len(a)]
	for i, r := range a {
		var id int32
		if uint32(r) < directRunes {
			id = int32(m.direct[r]) - 1
		} else {
			id = m.lookupHashed(r)
		}
		if id >= 0 && count[id] > 0 {
			rows[i] = posRange{end[id], end[id] + count[id]}
		} else {
			rows[i] = posRange{}
		}
	}
	m.clearDirect(b)
	m.bid, m.count, m.end, m.pos, m.rows = bid, count, end, pos, rows
	return popular
}

// scan is find_longest_match(0, len(a), 0, len(b))'s j2len pass, which
// also records every maximal diagonal run of matches through b2j (runs,
// in the order the scan starts them). It returns the best block before
// extension, with CPython's tie-break: rows ascending, b2j positions
// ascending, only a strictly longer block replaces the best.
func (m *Matcher) scan(a, b []rune) (besti, bestj, bestk int32) {
	// Row i is stamped tick+1+i; tick itself is never written, so row 0
	// sees no earlier match. Stamps only grow, so nothing is cleared.
	if m.tick > math.MaxUint32-uint32(len(a))-2 {
		clear(m.diag)
		m.tick = 0
	}
	m.tick++
	base := m.tick
	m.tick += uint32(len(a))
	nd := len(a) + len(b)
	if cap(m.diag) < nd {
		m.diag = make([]uint64, nd, nd+nd/4) // stamp 0 is never live
	}
	diag := m.diag[:nd]
	pos, rows := m.pos, m.rows[:len(a)]
	runs := m.runs[:0]
	off := int32(len(a)) // diagonal j-i ≥ -len(a)+1
	for i := range int32(len(a)) {
		s := base + 1 + uint32(i)
		rg := rows[i]
		for _, j := range pos[rg.lo:rg.hi] {
			d := &diag[j-i+off]
			var k int32
			if uint32(*d>>32) == s-1 { // the run on this diagonal goes on
				r := &runs[uint32(*d)]
				r.n++
				k = r.n
				*d = uint64(s)<<32 | uint64(uint32(*d))
			} else {
				k = 1
				*d = uint64(s)<<32 | uint64(len(runs))
				runs = append(runs, run{i, j, 1})
			}
			if k > bestk {
				besti, bestj, bestk = i-k+1, j-k+1, k
			}
		}
	}
	m.runs = runs
	return besti, bestj, bestk
}

// MatchingCharacters returns M, the sum of the sizes of the blocks that
// CPython's SequenceMatcher(None, a, b).get_matching_blocks() returns.
//
// get_matching_blocks calls find_longest_match on ever smaller
// rectangles. Here the one j2len pass over the whole of a and b records
// the maximal diagonal runs; a rectangle's j2len pass would see exactly
// those runs cut to the rectangle, so the runs are cut down as the
// rectangles split, and each rectangle's best block is found while its
// runs are cut. With autojunk, the block is then extended through equal
// elements as CPython does.
func (m *Matcher) MatchingCharacters(a, b []rune) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if equal(a, b) {
		// The first block found spans both: with autojunk, the earliest
		// longest run of non-popular runes lies on the diagonal and the
		// extension then covers everything.
		return len(a)
	}
	if len(b) <= shortMax {
		return m.matchingShort(a, b)
	}
	popular := m.chain(a, b)
	bi, bj, bk := m.scan(a, b)
	runs := m.runs
	total := 0
	stack := append(m.stack[:0], span{
		alo: 0, ahi: int32(len(a)), blo: 0, bhi: int32(len(b)),
		lo: 0, hi: int32(len(runs)), bi: bi, bj: bj, bk: bk,
	})
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i, j, k := e.bi, e.bj, e.bk
		if popular {
			for i > e.alo && j > e.blo && a[i-1] == b[j-1] {
				i, j, k = i-1, j-1, k+1
			}
			for i+k < e.ahi && j+k < e.bhi && a[i+k] == b[j+k] {
				k++
			}
		}
		if k == 0 {
			continue
		}
		total += int(k)
		// The rectangles get_matching_blocks queues next; an empty one
		// (not queued) gets no runs below either.
		l := span{alo: e.alo, ahi: i, blo: e.blo, bhi: j, bi: e.alo, bj: e.blo}
		r := span{alo: i + k, ahi: e.ahi, blo: j + k, bhi: e.bhi, bi: i + k, bj: j + k}
		// Cut e's runs to the two rectangles, in place: runs[e.lo:lt]
		// end up in l, runs[lt:gt] in r, the rest in neither. No run
		// reaches into both: it would cross the block's rows and be
		// longer than the block. Order does not matter, as the best
		// block is chosen by explicit comparison.
		lt, mid, gt := e.lo, e.lo, e.hi
		for mid < gt {
			x := runs[mid]
			d, end := x.j-x.i, x.i+x.n
			lo, hi := max(x.i, l.alo, l.blo-d), min(end, l.ahi, l.bhi-d)
			if n := hi - lo; n > 0 {
				if n > l.bk || n == l.bk && (lo < l.bi || lo == l.bi && lo+d < l.bj) {
					l.bi, l.bj, l.bk = lo, lo+d, n
				}
				runs[mid] = runs[lt]
				runs[lt] = run{lo, lo + d, n}
				lt++
				mid++
				continue
			}
			lo, hi = max(x.i, r.alo, r.blo-d), min(end, r.ahi, r.bhi-d)
			if n := hi - lo; n > 0 {
				if n > r.bk || n == r.bk && (lo < r.bi || lo == r.bi && lo+d < r.bj) {
					r.bi, r.bj, r.bk = lo, lo+d, n
				}
				runs[mid] = run{lo, lo + d, n}
				mid++
				continue
			}
			gt--
			runs[mid] = runs[gt]
		}
		l.lo, l.hi = e.lo, lt
		r.lo, r.hi = lt, gt
		// Without autojunk, a rectangle without runs has no block, and
		// one with a single run has that run as its only block. With
		// autojunk, the extension may find more.
		if l.alo < l.ahi && l.blo < l.bhi { // else not queued by CPython
			if popular || l.hi-l.lo > 1 {
				stack = append(stack, l)
			} else {
				total += int(l.bk)
			}
		}
		if r.alo < r.ahi && r.blo < r.bhi {
			if popular || r.hi-r.lo > 1 {
				stack = append(stack, r)
			} else {
				total += int(r.bk)
			}
		}
	}
	m.stack = stack
	return total
}

// Ratio returns SequenceMatcher(None, a, b).ratio(): 2·M/(len(a)+len(b)),
// or 1 when both are empty. a is the first sequence (the ground truth in
// docscore), b the second; the ratio is not symmetric.
func (m *Matcher) Ratio(a, b []rune) float64 {
	return ratio(m.MatchingCharacters(a, b), len(a)+len(b))
}

// QuickRatio returns SequenceMatcher(None, a, b).quick_ratio(): the ratio
// of the multiset intersection of a and b, an upper bound on Ratio.
func (m *Matcher) QuickRatio(a, b []rune) float64 {
	if len(a) == 0 || len(b) == 0 {
		return ratio(0, len(a)+len(b))
	}
	// Counts of b's runes: in direct, or by id in count.
	m.reset(len(b))
	count := grow32(m.count, len(b)) // ids < len(b)
	clear(count)
	for _, r := range b {
		if uint32(r) < directRunes {
			m.direct[r]++
		} else {
			count[m.internHashed(r)]++
		}
	}
	matches := 0
	for _, r := range a {
		if uint32(r) < directRunes {
			if c := m.direct[r]; c > 0 {
				m.direct[r] = c - 1
				matches++
			}
		} else if id := m.lookupHashed(r); id >= 0 && count[id] > 0 {
			count[id]--
			matches++
		}
	}
	m.clearDirect(b)
	m.count = count
	return ratio(matches, len(a)+len(b))
}

// RealQuickRatio returns SequenceMatcher(None, a, b).real_quick_ratio():
// the ratio when every element of the shorter sequence matched, an upper
// bound on QuickRatio.
func (m *Matcher) RealQuickRatio(a, b []rune) float64 {
	return ratio(min(len(a), len(b)), len(a)+len(b))
}

// Ratio returns SequenceMatcher(None, a, b).ratio() over the code points of
// a and b. Invalid UTF-8 counts one U+FFFD per bad byte, as []rune does. It
// allocates the rune slices; use a Matcher in loops.
func Ratio(a, b string) float64 {
	m := matchers.Get().(*Matcher)
	defer matchers.Put(m)
	return m.Ratio([]rune(a), []rune(b))
}

// matchers holds spare Matchers for Ratio: a Matcher is some 12 KiB.
var matchers = sync.Pool{New: func() any { return new(Matcher) }}

// ratio is CPython's _calculate_ratio: 2.0 * matches / length, 1.0 when
// length is 0.
func ratio(matches, length int) float64 {
	if length == 0 {
		return 1.0
	}
	return 2.0 * float64(matches) / float64(length)
}

// clearDirect zeroes the entries of m.direct that b's runes set.
func (m *Matcher) clearDirect(b []rune) {
	for _, r := range b {
		if uint32(r) < directRunes {
			m.direct[r] = 0
		}
	}
}

// equal reports whether a and b hold the same runes.
func equal(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
