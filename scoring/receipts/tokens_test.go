package receipts

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string // numeric tokens prefixed with "#"
	}{
		{"-5.000 DISC", []string{"#-5.000", "disc"}},
		{"+12", []string{"#+12"}},
		{"79,300 79,500", []string{"#79,300", "#79,500"}},
		{"1.000 1000", []string{"#1.000", "#1000"}},
		{"12:30", []string{"#12:30"}},
		{"12/10/2019 10:09", []string{"#12/10/2019", "#10:09"}},
		{"Telp. 021-7190456", []string{"telp", "#021-7190456"}},
		{"x2", []string{"x", "#2"}},
		{"2x", []string{"#2", "x"}},
		{"10%", []string{"#10"}},
		{"1.", []string{"#1"}},
		{"1.2.", []string{"#1.2"}},
		{",5", []string{"#5"}},
		{"a-5", []string{"a", "#-5"}},
		{"5-a", []string{"#5", "a"}},
		{"--5", []string{"#-5"}},
		{"5--3", []string{"#5", "#-3"}},
		{"+-5", []string{"#-5"}},
		{"3.5e4", []string{"#3.5", "e", "#4"}},
		{"Rp.12.000", []string{"rp", "#12.000"}},
		{"SUB_TOTAL", []string{"sub", "total"}},
		{"CAFÉ LATTE", []string{"café", "latte"}},
		{"CAFE\u0301", []string{"cafe\u0301"}}, // a combining mark stays inside the word
		{"Straße STRASSE", []string{"strasse", "strasse"}},
		{"ΣΊΣΥΦΟΣ", []string{"σίσυφοσ"}}, // full folding: final sigma folds to σ
		{"İ", []string{"i\u0307"}},
		{"١٢٣,٤٥", []string{"#١٢٣,٤٥"}}, // Arabic-Indic digits are decimal digits
		{"½ ²", nil},                    // not decimal digits, not letters
		{"", nil},
		{"  \t\n", nil},
	}
	for _, tc := range tests {
		var got []string
		for _, tok := range Tokenize(tc.in) {
			if tok.Numeric {
				got = append(got, "#"+tok.Text)
			} else {
				got = append(got, tok.Text)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// tokenRE is SPEC B.3's token definition as a regular expression; Go's
// regexp prefers the leftmost alternative, as the spec's "numeric strings
// first" does.
var tokenRE = regexp.MustCompile(`([+-]?\p{Nd}+(?:[.,:/-]\p{Nd}+)*)|[\p{L}\p{M}]+`)

// regexTokens is the oracle for Tokenize.
func regexTokens(text string) []Token {
	folded := Fold(text)
	var out []Token
	for _, m := range tokenRE.FindAllStringSubmatchIndex(folded, -1) {
		out = append(out, Token{Text: folded[m[0]:m[1]], Numeric: m[2] >= 0})
	}
	return out
}

func TestTokenizeMatchesRegexOracle(t *testing.T) {
	alphabet := []string{"1", "2", "0", "٣", "-", "+", ".", ",", ":", "/", "a", "Z", "é", "\u0301", "ß", " ", "%", "x", "_", "\n"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for n := rng.IntN(24); n > 0; n-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		in := b.String()
		got, want := Tokenize(in), regexTokens(in)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Tokenize(%q) = %v, regexp oracle %v", in, got, want)
		}
	}
}

func TestLCSEdgeCases(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a b c", "", 0},
		{"", "a b c", 0},
		{"a b c", "a b c", 3},
		{"a b c", "x y z", 0},
		{"a b c d", "b d", 2},
		{"a a a", "a", 1},
		{"x a y b z c", "a b c", 3},
		{"c b a", "a b c", 1},
	}
	for _, tc := range tests {
		a, b := strings.Fields(tc.a), strings.Fields(tc.b)
		if got := LCS(a, b); got != tc.want {
			t.Errorf("LCS(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := LCSDP(a, b); got != tc.want {
			t.Errorf("LCSDP(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// randomTokens draws n tokens from an alphabet of k.
func randomTokens(rng *rand.Rand, n, k int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('a' + rng.IntN(k)))
	}
	return out
}

// TestLCSBitParallelEqualsDP is the property test: on random sequences of
// lengths around the 64-position word and 256-position group edges, with
// small and large alphabets, the bit-parallel LCS equals the DP oracle.
func TestLCSBitParallelEqualsDP(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 7))
	for i := 0; i < 2000; i++ {
		n := rng.IntN(300)
		m := rng.IntN(300)
		if i%10 == 0 {
			m = []int{63, 64, 65, 255, 256, 257, 511, 513}[rng.IntN(8)] // word and group edges
		}
		k := 1 + rng.IntN(26)
		a, b := randomTokens(rng, n, k), randomTokens(rng, m, k)
		if got, want := LCS(a, b), LCSDP(a, b); got != want {
			t.Fatalf("case %d (n=%d m=%d k=%d): LCS = %d, DP = %d", i, n, m, k, got, want)
		}
	}
}

func TestLCSLongPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	a, b := randomTokens(rng, 3000, 20), randomTokens(rng, 2500, 20)
	if got, want := LCS(a, b), LCSDP(a, b); got != want {
		t.Fatalf("LCS = %d, DP = %d", got, want)
	}
}

func f(v float64) *float64 { return &v }

func TestRougeL(t *testing.T) {
	tests := []struct {
		name      string
		pred, ref string
		want      Rouge
	}{
		{"both empty", "", "", Rouge{}},
		{"empty prediction", "", "a b", Rouge{RefTokens: 2, Precision: f(0), Recall: f(0), F1: f(0)}},
		{"empty reference", "a b", "", Rouge{PredTokens: 2, Precision: f(0)}},
		{"identical", "a b c", "a b c", Rouge{PredTokens: 3, RefTokens: 3, LCS: 3, Precision: f(1), Recall: f(1), F1: f(1)}},
		{"extra text lowers precision only", "x a b y", "a b", Rouge{PredTokens: 4, RefTokens: 2, LCS: 2, Precision: f(0.5), Recall: f(1), F1: f(2 * 2.0 / 6)}},
		{"disjoint", "x", "a", Rouge{PredTokens: 1, RefTokens: 1, Precision: f(0), Recall: f(0), F1: f(0)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := RougeL(strings.Fields(tc.pred), strings.Fields(tc.ref))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("RougeL = %s, want %s", showRouge(got), showRouge(tc.want))
			}
		})
	}
}

func showRouge(r Rouge) string {
	p := func(f *float64) string {
		if f == nil {
			return "null"
		}
		return fmt.Sprint(*f)
	}
	return fmt.Sprintf("{pred %d ref %d lcs %d P %s R %s F1 %s}", r.PredTokens, r.RefTokens, r.LCS, p(r.Precision), p(r.Recall), p(r.F1))
}

func TestNumericRecall(t *testing.T) {
	tests := []struct {
		name, pred, ref string
		matched, total  int
		missing         []string
		recall          *float64
	}{
		{"thousands separators differ", "79,300", "79,500", 0, 1, []string{"79,500"}, f(0)},
		{"decimal and plain differ", "1000", "1.000", 0, 1, []string{"1.000"}, f(0)},
		{"sign counts", "5.000", "-5.000", 0, 1, []string{"-5.000"}, f(0)},
		{"multiset", "2 3", "2 2 3 4", 2, 4, []string{"2", "4"}, f(0.5)},
		{"missing in reference order", "", "9 1 5", 0, 3, []string{"9", "1", "5"}, f(0)},
		{"no reference numbers", "1 2", "TOTAL", 0, 0, []string{}, nil},
		{"words are not numbers", "total 10", "TOTAL 10", 1, 1, []string{}, f(1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := NumericRecall(Tokenize(tc.pred), Tokenize(tc.ref))
			if n.Matched != tc.matched || n.Ref != tc.total || !reflect.DeepEqual(n.Missing, tc.missing) ||
				(n.Recall == nil) != (tc.recall == nil) || (n.Recall != nil && *n.Recall != *tc.recall) {
				t.Errorf("NumericRecall = %+v, want matched %d of %d, missing %q, recall %v", n, tc.matched, tc.total, tc.missing, tc.recall)
			}
		})
	}
}
