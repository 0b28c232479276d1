package evalcase

import (
	"regexp"
	"testing"
)

var (
	jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
	identRE      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

var lexicalCases = []string{
	"", "0", "-0", "00", "01", "-", "+1", "1", "12", "-12", "1.", ".5", "1.5", "1.50",
	"1e5", "1E+5", "1e-05", "1e", "1e+", "1.5e3", "1.e3", "-0.0e0", "0x1F", "1_000",
	"1 ", " 1", "1\n", "١٢", "NaN", "Infinity", "9007199254740993", "1.5.5", "1e5e5",
	"a", "A", "_", "_1", "1a", "a1", "ab_C9", "a-b", "a b", "é", "a\n", "$", "items",
}

// TestLexicalMatchesRegexp holds isJSONNumber and isIdentifier to the
// regular expressions they replace.
func TestLexicalMatchesRegexp(t *testing.T) {
	for _, s := range lexicalCases {
		if got, want := isJSONNumber(s), jsonNumberRE.MatchString(s); got != want {
			t.Errorf("isJSONNumber(%q) = %v, the expression says %v", s, got, want)
		}
		if got, want := isIdentifier(s), identRE.MatchString(s); got != want {
			t.Errorf("isIdentifier(%q) = %v, the expression says %v", s, got, want)
		}
	}
}

func FuzzLexical(f *testing.F) {
	for _, s := range lexicalCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isJSONNumber(s), jsonNumberRE.MatchString(s); got != want {
			t.Fatalf("isJSONNumber(%q) = %v, the expression says %v", s, got, want)
		}
		if got, want := isIdentifier(s), identRE.MatchString(s); got != want {
			t.Fatalf("isIdentifier(%q) = %v, the expression says %v", s, got, want)
		}
	})
}
