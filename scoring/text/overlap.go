package text

// TokenSetOverlap returns |A∩B| / max(|A|,|B|) over the distinct tokens of
// a and b (SPEC A.2 step 4b). It is 0 when either side has no tokens.
func TokenSetOverlap(a, b []string) float64 {
	na, nb := distinctCount(a), distinctCount(b)
	if na == 0 || nb == 0 {
		return 0
	}
	common := 0
	for i, t := range a {
		if seenBefore(a, i) {
			continue
		}
		for _, u := range b {
			if t == u {
				common++
				break
			}
		}
	}
	return float64(common) / float64(max(na, nb))
}

// distinctCount counts the distinct tokens of a (names have few tokens, so
// a quadratic scan beats a map).
func distinctCount(a []string) int {
	n := 0
	for i := range a {
		if !seenBefore(a, i) {
			n++
		}
	}
	return n
}

func seenBefore(a []string, i int) bool {
	for _, t := range a[:i] {
		if t == a[i] {
			return true
		}
	}
	return false
}
