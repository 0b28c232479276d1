package text

// Temporary literal port of CPython's difflib ratio; replaced by the fast
// exact Matcher from the difflib branch.

// Matcher computes Ratcliff–Obershelp ratios exactly as CPython's difflib.
type Matcher struct{}

// Ratio returns difflib.SequenceMatcher(None, a, b).ratio().
func (m *Matcher) Ratio(a, b []rune) float64 {
	la, lb := len(a), len(b)
	if la+lb == 0 {
		return 1
	}
	return 2.0 * float64(matching(a, b)) / float64(la+lb)
}

// QuickRatio returns an upper bound on Ratio.
func (m *Matcher) QuickRatio(a, b []rune) float64 {
	la, lb := len(a), len(b)
	if la+lb == 0 {
		return 1
	}
	avail := map[rune]int{}
	for _, r := range b {
		avail[r]++
	}
	n := 0
	for _, r := range a {
		if avail[r] > 0 {
			avail[r]--
			n++
		}
	}
	return 2.0 * float64(n) / float64(la+lb)
}

// Ratio returns difflib.SequenceMatcher(None, a, b).ratio().
func Ratio(a, b string) float64 {
	var m Matcher
	return m.Ratio([]rune(a), []rune(b))
}

func matching(a, b []rune) int {
	n := len(b)
	b2j := map[rune][]int{}
	for i, r := range b {
		b2j[r] = append(b2j[r], i)
	}
	popular := map[rune]bool{}
	if n >= 200 {
		ntest := n/100 + 1
		for r, idx := range b2j {
			if len(idx) > ntest {
				popular[r] = true
			}
		}
		for r := range popular {
			delete(b2j, r)
		}
	}
	var rec func(alo, ahi, blo, bhi int) int
	rec = func(alo, ahi, blo, bhi int) int {
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
		for besti > alo && bestj > blo && a[besti-1] == b[bestj-1] {
			besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
		}
		for besti+bestsize < ahi && bestj+bestsize < bhi && a[besti+bestsize] == b[bestj+bestsize] {
			bestsize++
		}
		if bestsize == 0 {
			return 0
		}
		total := bestsize
		if alo < besti && blo < bestj {
			total += rec(alo, besti, blo, bestj)
		}
		if besti+bestsize < ahi && bestj+bestsize < bhi {
			total += rec(besti+bestsize, ahi, bestj+bestsize, bhi)
		}
		return total
	}
	return rec(0, len(a), 0, len(b))
}
