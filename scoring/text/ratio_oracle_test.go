package text

import (
	"cmp"
	"slices"
)

// oracle is a slow, literal transliteration of CPython's
// difflib.SequenceMatcher (Lib/difflib.py) with isjunk=None and
// autojunk=True: maps for b2j, j2len and the counts, the queue of
// get_matching_blocks, the sort and the merge of adjacent blocks. The fast
// Matcher is checked against it.
type oracle struct {
	a, b     []rune
	b2j      map[rune][]int
	bjunk    map[rune]bool // always empty: isjunk is None
	bpopular map[rune]bool
}

type match struct{ i, j, k int }

func newOracle(a, b []rune) *oracle {
	o := &oracle{a: a, b: b}
	o.chainB()
	return o
}

// chainB is __chain_b.
func (o *oracle) chainB() {
	b := o.b
	o.b2j = map[rune][]int{}
	for i, elt := range b {
		o.b2j[elt] = append(o.b2j[elt], i)
	}
	o.bjunk = map[rune]bool{}
	o.bpopular = map[rune]bool{}
	n := len(b)
	if n >= 200 { // autojunk
		ntest := n/100 + 1
		for elt, idxs := range o.b2j {
			if len(idxs) > ntest {
				o.bpopular[elt] = true
			}
		}
		for elt := range o.bpopular {
			delete(o.b2j, elt)
		}
	}
}

// findLongestMatch is find_longest_match(alo, ahi, blo, bhi).
func (o *oracle) findLongestMatch(alo, ahi, blo, bhi int) match {
	a, b, b2j, isbjunk := o.a, o.b, o.b2j, func(r rune) bool { return o.bjunk[r] }
	besti, bestj, bestsize := alo, blo, 0
	j2len := map[int]int{}
	for i := alo; i < ahi; i++ {
		newj2len := map[int]int{}
		for _, j := range b2j[a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := j2len[j-1] + 1
			newj2len[j] = k
			if k > bestsize {
				besti, bestj, bestsize = i-k+1, j-k+1, k
			}
		}
		j2len = newj2len
	}
	for besti > alo && bestj > blo && !isbjunk(b[bestj-1]) && a[besti-1] == b[bestj-1] {
		besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
	}
	for besti+bestsize < ahi && bestj+bestsize < bhi && !isbjunk(b[bestj+bestsize]) && a[besti+bestsize] == b[bestj+bestsize] {
		bestsize++
	}
	for besti > alo && bestj > blo && isbjunk(b[bestj-1]) && a[besti-1] == b[bestj-1] {
		besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
	}
	for besti+bestsize < ahi && bestj+bestsize < bhi && isbjunk(b[bestj+bestsize]) && a[besti+bestsize] == b[bestj+bestsize] {
		bestsize++
	}
	return match{besti, bestj, bestsize}
}

// getMatchingBlocks is get_matching_blocks, dummy last triple included.
func (o *oracle) getMatchingBlocks() []match {
	la, lb := len(o.a), len(o.b)
	type quad struct{ alo, ahi, blo, bhi int }
	queue := []quad{{0, la, 0, lb}}
	var blocks []match
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		x := o.findLongestMatch(q.alo, q.ahi, q.blo, q.bhi)
		i, j, k := x.i, x.j, x.k
		if k > 0 {
			blocks = append(blocks, x)
			if q.alo < i && q.blo < j {
				queue = append(queue, quad{q.alo, i, q.blo, j})
			}
			if i+k < q.ahi && j+k < q.bhi {
				queue = append(queue, quad{i + k, q.ahi, j + k, q.bhi})
			}
		}
	}
	slices.SortFunc(blocks, func(x, y match) int {
		return cmp.Or(cmp.Compare(x.i, y.i), cmp.Compare(x.j, y.j), cmp.Compare(x.k, y.k))
	})
	i1, j1, k1 := 0, 0, 0
	var nonAdjacent []match
	for _, m := range blocks {
		if i1+k1 == m.i && j1+k1 == m.j {
			k1 += m.k
		} else {
			if k1 > 0 {
				nonAdjacent = append(nonAdjacent, match{i1, j1, k1})
			}
			i1, j1, k1 = m.i, m.j, m.k
		}
	}
	if k1 > 0 {
		nonAdjacent = append(nonAdjacent, match{i1, j1, k1})
	}
	return append(nonAdjacent, match{la, lb, 0})
}

func calculateRatio(matches, length int) float64 {
	if length != 0 {
		return 2.0 * float64(matches) / float64(length)
	}
	return 1.0
}

func (o *oracle) matching() int {
	sum := 0
	for _, m := range o.getMatchingBlocks() {
		sum += m.k
	}
	return sum
}

func (o *oracle) ratio() float64 { return calculateRatio(o.matching(), len(o.a)+len(o.b)) }

// quickRatio is quick_ratio.
func (o *oracle) quickRatio() float64 {
	fullbcount := map[rune]int{}
	for _, elt := range o.b {
		fullbcount[elt]++
	}
	avail := map[rune]int{}
	matches := 0
	for _, elt := range o.a {
		numb, ok := avail[elt]
		if !ok {
			numb = fullbcount[elt]
		}
		avail[elt] = numb - 1
		if numb > 0 {
			matches++
		}
	}
	return calculateRatio(matches, len(o.a)+len(o.b))
}

// realQuickRatio is real_quick_ratio.
func (o *oracle) realQuickRatio() float64 {
	la, lb := len(o.a), len(o.b)
	return calculateRatio(min(la, lb), la+lb)
}
