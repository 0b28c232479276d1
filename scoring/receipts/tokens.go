package receipts

import (
	"unicode"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/internal/casefold"
)

// Token is one token of a page: a numeric string or a word, after case
// folding.
type Token struct {
	Text    string
	Numeric bool
}

// Fold applies Unicode full case folding to s ("ß" → "ss", "CAFÉ" → "café"),
// exactly as golang.org/x/text/cases' Fold (package casefold says why it
// is not called here).
func Fold(s string) string { return casefold.String(s) }

// Tokenize case-folds text and splits it into tokens (SPEC B.3 step 3). At
// each position a numeric string is tried first: an optional sign, decimal
// digits, and internal '.', ',', ':', '/' or '-' each followed by more
// digits (the regular expression [+-]?\d+(?:[.,:/-]\d+)* with \d any
// Unicode decimal digit). Otherwise a word is a run of Unicode letters and
// combining marks. Everything else separates tokens.
func Tokenize(text string) []Token { return tokensOf(Fold(text)) }

// tokensOf splits case-folded text into tokens (Tokenize). Each token's
// Text is a slice of s.
func tokensOf(s string) []Token {
	var toks []Token
	for i := 0; i < len(s); {
		if n := numericAt(s, i); n > 0 {
			toks = append(toks, Token{Text: s[i : i+n], Numeric: true})
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isWordRune(r) {
			j := i + size
			for j < len(s) {
				r2, size2 := utf8.DecodeRuneInString(s[j:])
				if !isWordRune(r2) {
					break
				}
				j += size2
			}
			toks = append(toks, Token{Text: s[i:j]})
			i = j
			continue
		}
		i += size
	}
	return toks
}

// Words returns the text of each token.
func Words(toks []Token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Text
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// digitsAt returns the byte length of the run of decimal digits at s[i].
func digitsAt(s string, i int) int {
	j := i
	for j < len(s) {
		c := s[j]
		if c >= '0' && c <= '9' {
			j++
			continue
		}
		if c < utf8.RuneSelf {
			break
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		if !unicode.IsDigit(r) {
			break
		}
		j += size
	}
	return j - i
}

// numericAt returns the byte length of the numeric string at s[i], or 0.
func numericAt(s string, i int) int {
	j := i
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	n := digitsAt(s, j)
	if n == 0 {
		return 0
	}
	j += n
	for j+1 < len(s) {
		switch s[j] {
		case '.', ',', ':', '/', '-':
			m := digitsAt(s, j+1)
			if m == 0 {
				return j - i
			}
			j += 1 + m
		default:
			return j - i
		}
	}
	return j - i
}
