package text

import (
	"math"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// nameSeeds are names as registers and models write them.
var nameSeeds = []string{
	"Leon q.m. Iacob Tedesco", "Leon qm Iacob Tedesco", "Lazaro q Moisè Uzielli",
	"Nicolò q(uonda)m Demetrio Romanò", "Zuanne q(uondam) Piero", "Kin?gsech", "Kinzgsech",
	"Pavel (?)", "Nicolò\u2019 Valier", "  Karl   Müller ", "CONTE Nicolò VALIER, da Venezia.",
	"\u0130stanbul \u212a \u1E9E", "Σίσυφος ς", "a\u00a0b\u2003c\u3000d\u0085e", "q. quondam, qm; q.m",
	"(q)", "Leon (quondam) Iacob", "\xff\xfeLeon", "", "???", "«Marco»—da—Venezia",
}

// FuzzNormalizeName checks that NormalizeName returns valid UTF-8 tokens
// joined by single spaces, with no punctuation but '?', already lower-case,
// and that normalizing again changes nothing — except the one case SPEC
// A.2's order allows: a quondam form that only stripping punctuation laid
// bare ("(q)" → "q") collapses to "qm" on the second pass.
func FuzzNormalizeName(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := NormalizeName(s)
		if !utf8.ValidString(out) {
			t.Fatalf("NormalizeName(%q) = %q: not valid UTF-8", s, out)
		}
		if strings.Contains(out, "  ") || strings.TrimSpace(out) != out {
			t.Fatalf("NormalizeName(%q) = %q: double, leading or trailing space", s, out)
		}
		for _, r := range out {
			if r != ' ' && unicode.IsSpace(r) {
				t.Fatalf("NormalizeName(%q) = %q: holds white space %U", s, out, r)
			}
			if r != '?' && unicode.IsPunct(r) {
				t.Fatalf("NormalizeName(%q) = %q: holds punctuation %U", s, out, r)
			}
		}
		if Lower(out) != out {
			t.Fatalf("NormalizeName(%q) = %q: not lower-case", s, out)
		}
		if got := strings.Join(NameTokens(s), " "); got != out {
			t.Fatalf("NameTokens(%q) joined = %q, NormalizeName = %q", s, got, out)
		}
		again := NormalizeName(out)
		toks := strings.Fields(out)
		for i, tok := range toks {
			if tok == "q" || tok == "quondam" {
				toks[i] = "qm"
			}
		}
		if want := strings.Join(toks, " "); again != want {
			t.Fatalf("not idempotent: NormalizeName(%q) = %q, then %q (want %q)", s, out, again, want)
		}
		if NormalizeName(again) != again {
			t.Fatalf("not idempotent after two passes: %q → %q → %q", s, out, again)
		}
	})
}

// levenshteinRef is the textbook edit distance over code points.
func levenshteinRef(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// FuzzCharAccuracy checks the metric properties of Levenshtein and the range
// of CharAccuracy on three inputs.
func FuzzCharAccuracy(f *testing.F) {
	f.Add("February 9 1769", "February 09 1769", "Febr. 9 1769")
	f.Add("san giovanni grisostomo", "san giouanni grisostomo", "s. giovanni")
	f.Add("lubiana", "lubiano", "")
	f.Add("", "", "")
	f.Add("corfù", "corfu", "Corfù")
	f.Add("abate", "", "capitano")
	f.Add("\xff", "\xfe", "\u00e9")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ab, ba := Levenshtein(a, b), Levenshtein(b, a)
		if ab != ba {
			t.Fatalf("Levenshtein(%q, %q) = %d but reversed %d", a, b, ab, ba)
		}
		if ref := levenshteinRef(a, b); ab != ref {
			t.Fatalf("Levenshtein(%q, %q) = %d, textbook %d", a, b, ab, ref)
		}
		la, lb := RuneCount(a), RuneCount(b)
		if ab > max(la, lb) || ab < max(la-lb, lb-la) {
			t.Fatalf("Levenshtein(%q, %q) = %d outside [|%d-%d|, max]", a, b, ab, la, lb)
		}
		if (ab == 0) != (string([]rune(a)) == string([]rune(b))) {
			t.Fatalf("Levenshtein(%q, %q) = %d", a, b, ab)
		}
		if ac, bc := Levenshtein(a, c), Levenshtein(b, c); ac > ab+bc {
			t.Fatalf("triangle: d(%q,%q)=%d > %d + %d", a, c, ac, ab, bc)
		}
		acc := CharAccuracy(a, b)
		if math.IsNaN(acc) || acc < 0 || acc > 1 {
			t.Fatalf("CharAccuracy(%q, %q) = %v outside [0, 1]", a, b, acc)
		}
		if CharAccuracy(a, a) != 1 {
			t.Fatalf("CharAccuracy(%q, %q) = %v, want 1", a, a, CharAccuracy(a, a))
		}
		if la > 0 {
			if want := math.Max(0, 1-float64(ab)/float64(la)); acc != want {
				t.Fatalf("CharAccuracy(%q, %q) = %v, want %v", a, b, acc, want)
			}
		} else if want := map[bool]float64{true: 1, false: 0}[b == ""]; acc != want {
			t.Fatalf("CharAccuracy(%q, %q) = %v, want %v for an empty GT", a, b, acc, want)
		}
	})
}

// FuzzAppendBaseTokens holds AppendBaseTokens to the definition of
// BaseTokens it replaced (strings.FieldsFunc with unicode.IsSpace, then
// the trailing strips), after whatever dst already holds.
func FuzzAppendBaseTokens(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Add("Feb. 09 1769,  ? ?? x?, ;;\u2028[a]\u0085?", true)
	f.Fuzz(func(t *testing.T, s string, gtSide bool) {
		var want []string
		for _, tok := range strings.FieldsFunc(Lower(StraightenApostrophes(s)), unicode.IsSpace) {
			tok = strings.TrimRight(tok, baseTrailing)
			if gtSide {
				tok = strings.TrimSuffix(tok, "?")
			}
			if tok != "" {
				want = append(want, tok)
			}
		}
		prefix := []string{"kept"}
		got := AppendBaseTokens(prefix, s, gtSide)
		if len(got) != len(want)+1 || got[0] != "kept" || strings.Join(got[1:], "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("AppendBaseTokens(%q, %v) = %q, want %q after the prefix", s, gtSide, got, want)
		}
		if b := BaseTokens(s, gtSide); strings.Join(b, "\x00") != strings.Join(want, "\x00") || len(b) != len(want) {
			t.Fatalf("BaseTokens(%q, %v) = %q, want %q", s, gtSide, b, want)
		}
	})
}

// wildcardDistance is the wildcard edit distance by the whole table, as
// SPEC A.6 defines it: the oracle of FuzzWildcardDistance.
func wildcardDistance(gt, model []rune) int {
	d := make([][]int, len(gt)+1)
	for i := range d {
		d[i] = make([]int, len(model)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(gt); i++ {
		for j := 1; j <= len(model); j++ {
			cost := 1
			if gt[i-1] == model[j-1] || gt[i-1] == Wildcard {
				cost = 0
			}
			d[i][j] = min(d[i-1][j-1]+cost, d[i-1][j]+1, d[i][j-1]+1)
		}
	}
	return d[len(gt)][len(model)]
}

// FuzzWildcardDistance holds Distance, which trims the matching ends
// before its table, to the whole table's distance, with the aligner
// reused across calls.
func FuzzWildcardDistance(f *testing.F) {
	for _, p := range [][2]string{
		{"kin?gsech", "kinzgsech"}, {"kin?gsech", "kingsech"}, {"???", ""}, {"", "abc"},
		{"stella vianello", "stella vianello"}, {"stella vianello", "stela vianelo"},
		{"a?a", "aaa"}, {"?a", "a"}, {"a?", "a"}, {"ab?ba", "abba"}, {"abcabc", "cabcab"},
		{"leon q iacob", "leon qm iacob tedesco"}, {"?", "?"}, {"x?y", "?"},
	} {
		f.Add(p[0], p[1])
	}
	var w WildcardAligner
	f.Fuzz(func(t *testing.T, gt, model string) {
		g, m := []rune(gt), []rune(model)
		if len(g)*len(m) > 1<<16 {
			return
		}
		if got, want := w.Distance(g, m), wildcardDistance(g, m); got != want {
			t.Fatalf("Distance(%q, %q) = %d, want %d", gt, model, got, want)
		}
	})
}
