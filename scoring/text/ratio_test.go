package text

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// vector is one line of testdata/ratio_vectors.jsonl, written by
// scripts/gen_ratio_vectors.py from CPython's difflib.
type vector struct {
	A              string  `json:"a"`
	B              string  `json:"b"`
	Ratio          float64 `json:"ratio"`
	QuickRatio     float64 `json:"quick_ratio"`
	RealQuickRatio float64 `json:"real_quick_ratio"`
	Matching       int     `json:"matching"`
	Kind           string  `json:"kind"`
}

const vectorsFile = "testdata/ratio_vectors.jsonl"

func loadVectors(t testing.TB) []vector {
	t.Helper()
	f, err := os.Open(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vs []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var v vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", vectorsFile, line, err)
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

// isHashed reports whether r goes through the Matcher's hash table.
func isHashed(r rune) bool { return r >= directRunes }

// got holds everything a Matcher says about one pair.
type got struct {
	Ratio, QuickRatio, RealQuickRatio float64
	Matching                          int
}

func measure(m *Matcher, a, b []rune) got {
	return got{m.Ratio(a, b), m.QuickRatio(a, b), m.RealQuickRatio(a, b), m.MatchingCharacters(a, b)}
}

func measureOracle(a, b []rune) got {
	o := newOracle(a, b)
	return got{o.ratio(), o.quickRatio(), o.realQuickRatio(), o.matching()}
}

// same compares floats with == on purpose: the contract is bit equality.
func (g got) same(w got) bool {
	return g.Ratio == w.Ratio && g.QuickRatio == w.QuickRatio &&
		g.RealQuickRatio == w.RealQuickRatio && g.Matching == w.Matching
}

func (g got) String() string {
	return fmt.Sprintf("ratio %v quick %v realquick %v M %d", g.Ratio, g.QuickRatio, g.RealQuickRatio, g.Matching)
}

// TestRatioVectors checks the Matcher (and the oracle) against CPython on
// every generated vector, with float64 equality.
func TestRatioVectors(t *testing.T) {
	vs := loadVectors(t)
	if len(vs) < 5000 {
		t.Fatalf("%s has %d vectors, want at least 5000", vectorsFile, len(vs))
	}
	var m Matcher
	failures, shortB, mediumB, longB, popular, hashed := 0, 0, 0, 0, 0, 0
	for n, v := range vs {
		a, b := []rune(v.A), []rune(v.B)
		want := got{v.Ratio, v.QuickRatio, v.RealQuickRatio, v.Matching}
		for _, c := range []struct {
			who string
			got got
		}{{"Matcher", measure(&m, a, b)}, {"oracle", measureOracle(a, b)}} {
			if !c.got.same(want) {
				failures++
				if failures <= 10 {
					t.Errorf("%s:%d (%s): %s(a=%q, b=%q)\n got  %s\n want %s (CPython)",
						vectorsFile, n+1, v.Kind, c.who, v.A, v.B, c.got, want)
				}
			}
		}
		if slices.ContainsFunc(a, isHashed) && slices.ContainsFunc(b, isHashed) {
			hashed++
		}
		switch {
		case len(b) <= shortMax:
			shortB++
		case len(b) < 200:
			mediumB++
		default:
			longB++
			if m.chain(a, b) {
				popular++
			}
		}
	}
	if failures > 10 {
		t.Errorf("%d failures in all", failures)
	}
	// The file must exercise every path of the Matcher, and the autojunk
	// heuristic must act, not just be possible.
	if shortB < 200 || mediumB < 200 || longB < 200 || popular < 200 || hashed < 100 {
		t.Errorf("len(b) <= %d: %d vectors, up to 199: %d, from 200: %d, with popular elements: %d (want at least 200 each); "+
			"with runes from U+%04X on both sides: %d (want at least 100)",
			shortMax, shortB, mediumB, longB, popular, directRunes, hashed)
	}
}

// TestRatioTable pins notable cases; the values come from CPython 3.11.
func TestRatioTable(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string
		m     int
		ratio float64
	}{
		{"both empty", "", "", 0, 1.0},
		{"one empty", "abc", "", 0, 0.0},
		{"docstring", "abcd", "bcde", 3, 0.75},
		{"earliest in a, then in b", " abcd", "abcd abcd", 5, 10.0 / 14},
		{"recursion on both sides", "abxcd", "abcd", 4, 8.0 / 9},
		{"not symmetric a,b", "qabxcd", "abycdf", 4, 8.0 / 12},
		{"quondam", "Leon qm Iacob Tedesco", "Leon q. Iacob Todesco", 19, 38.0 / 42},
		{"combining mark is a code point", "Niccolò", "Niccolo\u0300", 6, 12.0 / 15},
		{"astral code point", "\U0001F600a", "a\U0001F600", 1, 0.5},
		// len(b) = 200 over "ab": both are popular, so no block is found
		// by the j2len pass, and the extension from (0, 0) matches the
		// common prefix only; autojunk=False would give 100.
		// A block as long as the longest short b (64 runes), and 63.
		{"block of 64", strings.Repeat("abcdefgh", 8) + "x", strings.Repeat("abcdefgh", 8), 64, 128.0 / 129},
		{"block of 64 after x", "x" + strings.Repeat("abcdefgh", 8), strings.Repeat("abcdefgh", 8), 64, 128.0 / 129},
		{"block of 63", "y" + strings.Repeat("abcdefgh", 8)[1:] + "x", strings.Repeat("abcdefgh", 8), 63, 126.0 / 129},
		{"block of 65, b medium", strings.Repeat("abcdefghijklm", 5) + "x", strings.Repeat("abcdefghijklm", 5), 65, 130.0 / 131},
		{"autojunk: popular only", strings.Repeat("ab", 50), strings.Repeat("ba", 100), 0, 0.0},
		{"autojunk: prefix extension", strings.Repeat("ab", 50), strings.Repeat("ab", 100), 100, 200.0 / 300},
	}
	var m Matcher
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := []rune(tt.a), []rune(tt.b)
			if got := m.MatchingCharacters(a, b); got != tt.m {
				t.Errorf("MatchingCharacters = %d, want %d", got, tt.m)
			}
			if got := m.Ratio(a, b); got != tt.ratio {
				t.Errorf("Ratio = %v, want %v", got, tt.ratio)
			}
			if got := Ratio(tt.a, tt.b); got != tt.ratio {
				t.Errorf("package Ratio = %v, want %v", got, tt.ratio)
			}
			if o := newOracle(a, b).matching(); o != tt.m {
				t.Errorf("oracle M = %d, want %d", o, tt.m)
			}
		})
	}
}

// randomPair draws a pair for the property sweep: mostly name-sized
// strings, sometimes a long b (autojunk) or a long a, over small alphabets
// (many ties) or large ones.
func randomPair(r *rand.Rand) (a, b []rune) {
	alphabets := [][]rune{
		[]rune("ab"), []rune("abc"), []rune("ab?"), []rune("a b"),
		[]rune("abcdefghij "), []rune("eeeeaio nrstlc?"),
		[]rune("aàáâbcçdeèéfghiìíjklmnoòópqrstuùúüvwxyzß \u0300\u0301\U0001F600"),
	}
	alpha := alphabets[r.IntN(len(alphabets))]
	str := func(n int) []rune {
		s := make([]rune, n)
		for i := range s {
			s[i] = alpha[r.IntN(len(alpha))]
		}
		return s
	}
	la, lb := r.IntN(40), r.IntN(40)
	switch r.IntN(13) {
	case 0:
		lb = 190 + r.IntN(260)
	case 1:
		la = 190 + r.IntN(260)
	case 2:
		la, lb = 190+r.IntN(200), 190+r.IntN(200)
	case 3:
		lb = 60 + r.IntN(140)
	case 4:
		la, lb = 60+r.IntN(140), 60+r.IntN(140)
	case 5: // b inside a: blocks as long as b, up to a machine word and past it
		b = str(40 + r.IntN(30))
		a = append(append(str(r.IntN(5)), b...), str(r.IntN(5))...)
		return a, b
	}
	a, b = str(la), str(lb)
	if r.IntN(2) == 0 && la > 0 { // b as a damaged copy of a
		b = append([]rune(nil), a...)
		for range r.IntN(1 + la/4) {
			i := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[i] = alpha[r.IntN(len(alpha))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				b = append(b[:i], append([]rune{alpha[r.IntN(len(alpha))]}, b[i:]...)...)
			}
			if len(b) == 0 {
				break
			}
		}
		for len(b) > 0 && len(b) < lb && lb >= 60 { // keep the long cases long
			b = append(b, b...)
		}
	}
	return a, b
}

// TestRatioOracleSweep checks the Matcher against the oracle on a seeded
// random sweep, with one Matcher reused across all lengths.
func TestRatioOracleSweep(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 6000
	if testing.Short() {
		n = 1000
	}
	var m Matcher
	failures := 0
	for range n {
		a, b := randomPair(r)
		if g, w := measure(&m, a, b), measureOracle(a, b); !g.same(w) {
			failures++
			if failures <= 10 {
				t.Errorf("a=%q b=%q\n got  %s\n want %s (oracle)", string(a), string(b), g, w)
			}
		}
	}
	if failures > 10 {
		t.Errorf("%d failures in all", failures)
	}
}

// TestLongestShort checks the bit-parallel find_longest_match against the
// oracle's on random rectangles, blocks of up to 64 runes included. (A
// block found one rune short can still give the right M, so this is
// checked block by block, not only through Ratio.)
func TestLongestShort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var m Matcher
	for range 3000 {
		a, b := randomPair(r)
		if len(b) > shortMax {
			b = b[:shortMax]
		}
		if r.IntN(4) == 0 && len(b) > 0 { // b inside a
			a = append(append([]rune("xy"[:r.IntN(3)]), b...), []rune("yx"[:r.IntN(3)])...)
		}
		if len(a) == 0 || len(b) == 0 {
			continue
		}
		eq := m.eqRows(a, b)
		o := newOracle(a, b)
		for range 5 {
			alo := r.IntN(len(a))
			ahi := alo + 1 + r.IntN(len(a)-alo)
			blo := r.IntN(len(b))
			bhi := blo + 1 + r.IntN(len(b)-blo)
			if r.IntN(3) == 0 {
				alo, ahi, blo, bhi = 0, len(a), 0, len(b)
			}
			i, j, k := m.longestShort(eq, int32(alo), int32(ahi), int32(blo), int32(bhi))
			if w := o.findLongestMatch(alo, ahi, blo, bhi); (match{int(i), int(j), int(k)}) != w {
				t.Fatalf("a=%q b=%q [%d:%d]×[%d:%d]: got %v, want %v (oracle)",
					string(a), string(b), alo, ahi, blo, bhi, match{int(i), int(j), int(k)}, w)
			}
		}
	}
}

// checkProperties asserts what holds for every pair.
func checkProperties(t *testing.T, m *Matcher, a, b []rune) {
	t.Helper()
	g := measure(m, a, b)
	for _, x := range []float64{g.Ratio, g.QuickRatio, g.RealQuickRatio} {
		if !(x >= 0 && x <= 1) {
			t.Fatalf("a=%q b=%q: %s out of [0, 1]", string(a), string(b), g)
		}
	}
	if g.QuickRatio < g.Ratio || g.RealQuickRatio < g.QuickRatio {
		t.Fatalf("a=%q b=%q: want Ratio <= QuickRatio <= RealQuickRatio, got %s", string(a), string(b), g)
	}
	if g.Matching < 0 || g.Matching > min(len(a), len(b)) {
		t.Fatalf("a=%q b=%q: M = %d out of [0, %d]", string(a), string(b), g.Matching, min(len(a), len(b)))
	}
	if g.Ratio != ratio(g.Matching, len(a)+len(b)) {
		t.Fatalf("a=%q b=%q: Ratio %v is not 2M/T for M = %d", string(a), string(b), g.Ratio, g.Matching)
	}
	if len(a) > 0 {
		if r := m.Ratio(a, a); r != 1 {
			t.Fatalf("Ratio(a, a) = %v for a=%q, want 1", r, string(a))
		}
	}
}

func TestRatioProperties(t *testing.T) {
	var m Matcher
	for _, v := range loadVectors(t) {
		checkProperties(t, &m, []rune(v.A), []rune(v.B))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		a, b := randomPair(r)
		checkProperties(t, &m, a, b)
		checkProperties(t, &m, b, a)
	}
}

// TestMatcherReuse checks that one Matcher, used for pairs of ever
// changing lengths, answers as a fresh one does.
func TestMatcherReuse(t *testing.T) {
	vs := loadVectors(t)
	r := rand.New(rand.NewPCG(5, 6))
	r.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
	var reused Matcher
	for _, v := range vs {
		a, b := []rune(v.A), []rune(v.B)
		// Interleave the methods, as a scorer would.
		q := reused.QuickRatio(a, b)
		g := measure(&reused, a, b)
		var fresh Matcher
		if w := measure(&fresh, a, b); !g.same(w) || q != w.QuickRatio {
			t.Fatalf("a=%q b=%q: reused %s (quick first %v), fresh %s", v.A, v.B, g, q, w)
		}
	}
	// The per-rune scratch must be left zero after every call.
	for r, v := range reused.direct {
		if v != 0 {
			t.Fatalf("direct[%U] = %d after use, want 0", r, v)
		}
	}
}

// TestMatcherGenerationWrap runs calls across the wrap of the table's
// generation counter, where stale slots must not be seen as live.
func TestMatcherGenerationWrap(t *testing.T) {
	var m Matcher
	// Runes at or above directRunes: only they go through the table.
	a, b := []rune("東京 Leon qm 😀 Iacob Tedesco"), []rune("東京 Leon q. Iacob 😀 Todesco 大阪")
	want := measure(&m, a, b)
	if want.Matching != newOracle(a, b).matching() {
		t.Fatalf("M %d, oracle %d", want.Matching, newOracle(a, b).matching())
	}
	m.gen = math.MaxUint32 - 3
	for range 8 {
		if g := measure(&m, a, b); !g.same(want) {
			t.Fatalf("gen %d: %s, want %s", m.gen, g, want)
		}
		if g := measure(&m, b, a); g.Matching != newOracle(b, a).matching() {
			t.Fatalf("gen %d: swapped M %d", m.gen, g.Matching)
		}
	}
}

// TestRatioString checks the string form, invalid UTF-8 included: it
// compares code points as []rune decodes them.
func TestRatioString(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Leon qm Iacob Tedesco", "Leon q. Iacob Todesco"},
		{"Mos\xe8", "Mosè"},
		{"\xff\xfe", "\xfe\xff"},
		{"", "\xc3"},
	}
	for _, tt := range tests {
		want := newOracle([]rune(tt.a), []rune(tt.b)).ratio()
		if got := Ratio(tt.a, tt.b); got != want {
			t.Errorf("Ratio(%q, %q) = %v, want %v", tt.a, tt.b, got, want)
		}
	}
}

// TestMatcherAllocs checks that a warmed-up Matcher allocates nothing.
func TestMatcherAllocs(t *testing.T) {
	var m Matcher
	pairs := benchPairs()
	for _, p := range pairs { // warm up: buffers grow to the largest pair
		m.Ratio(p.a, p.b)
	}
	for _, c := range []struct {
		name string
		f    func(a, b []rune)
	}{
		{"Ratio", func(a, b []rune) { m.Ratio(a, b) }},
		{"QuickRatio", func(a, b []rune) { m.QuickRatio(a, b) }},
		{"RealQuickRatio", func(a, b []rune) { m.RealQuickRatio(a, b) }},
	} {
		i := 0
		allocs := testing.AllocsPerRun(1000, func() {
			p := pairs[i%len(pairs)]
			c.f(p.a, p.b)
			i++
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per call, want 0", c.name, allocs)
		}
	}
}

// FuzzRatio checks, for any pair of strings, that the Matcher agrees with
// the oracle and the ratios stay in range; b is also repeated to 200 runes
// or more so that the autojunk heuristic is exercised.
func FuzzRatio(f *testing.F) {
	f.Add("Leon qm Iacob Tedesco", "Leon q. Iacob Todesco")
	f.Add("Francesco Kin?gsech", "Francesco Kiningsech")
	f.Add("Niccolò ?lelingen", "Nicolo\u0300 Lelingen")
	f.Add("ser Moise qm Salamon Luzzatto", "Moife q Salamon Luzato")
	f.Add("abcd", "bcde")
	f.Add("", "\xff")
	f.Add("ababab", "ba")
	f.Add(strings.Repeat("Leon Tedesco", 6), strings.Repeat("Leon Tedesco", 5)+"Leon")
	var m Matcher
	f.Fuzz(func(t *testing.T, sa, sb string) {
		a, b := []rune(sa), []rune(sb)
		const limit = 600 // keep the map-based oracle quick
		a, b = a[:min(len(a), limit)], b[:min(len(b), limit)]
		check := func(a, b []rune) {
			if g, w := measure(&m, a, b), measureOracle(a, b); !g.same(w) {
				t.Fatalf("a=%q b=%q\n got  %s\n want %s (oracle)", string(a), string(b), g, w)
			}
			checkProperties(t, &m, a, b)
		}
		check(a, b)
		if len(b) > 0 && len(b) < 200 {
			long := make([]rune, 0, 200+len(b))
			for len(long) < 200 {
				long = append(long, b...)
			}
			check(a, long)
		}
	})
}
