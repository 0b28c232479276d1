package text

import (
	"strings"
	"unicode"
)

// StraightenApostrophes replaces the typographic apostrophe U+2019 by the
// ASCII apostrophe, the first step of every normalization in docscore.
func StraightenApostrophes(s string) string {
	if !strings.ContainsRune(s, '\u2019') {
		return s
	}
	return strings.ReplaceAll(s, "\u2019", "'")
}

// Lower maps every code point to its simple lowercase form (one code point
// to one code point, unlike Python's str.lower full mapping).
func Lower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	return strings.Map(unicode.ToLower, s)
}

// Fields splits s at runs of Unicode White_Space and drops empty pieces.
func Fields(s string) []string {
	return strings.FieldsFunc(s, unicode.IsSpace)
}

// quondamForms are the spellings of "quondam" (son of the late …) that a
// name may carry; all collapse to the one short canonical "qm".
var quondamForms = map[string]bool{
	"q.m": true, "q.m.": true, "qm": true, "q": true,
	"q(uonda)m": true, "q(uondam)": true, "quondam": true,
}

// isQuondam reports whether a lowercased token is a quondam variant, as
// written or with its trailing ",.;:" removed.
func isQuondam(tok string) bool {
	if quondamForms[tok] {
		return true
	}
	return quondamForms[strings.TrimRight(tok, ",.;:")]
}

// isNamePunct reports whether r is punctuation that name normalization
// strips: Unicode category P, except the illegible-glyph marker '?'.
func isNamePunct(r rune) bool {
	return r != '?' && unicode.IsPunct(r)
}

// NormalizeName normalizes a person's name for matching (SPEC A.2 step 1):
// straighten U+2019, lowercase, collapse whitespace, collapse every
// quondam variant token to "qm", strip punctuation except '?', and
// collapse whitespace again. Accents are kept. The result's tokens are
// separated by single spaces.
func NormalizeName(s string) string {
	return strings.Join(NameTokens(s), " ")
}

// NameTokens returns the tokens of NormalizeName(s).
func NameTokens(s string) []string {
	toks := Fields(Lower(StraightenApostrophes(s)))
	out := toks[:0]
	for _, tok := range toks {
		if isQuondam(tok) {
			out = append(out, "qm")
			continue
		}
		if strings.IndexFunc(tok, isNamePunct) >= 0 {
			tok = strings.Map(func(r rune) rune {
				if isNamePunct(r) {
					return -1
				}
				return r
			}, tok)
			// Stripping punctuation cannot create whitespace, but a
			// token made only of punctuation disappears.
			if tok == "" {
				continue
			}
		}
		out = append(out, tok)
	}
	return out
}

// baseTrailing is the set of characters base normalization strips from the
// end of each token (SPEC A.3 step 3).
const baseTrailing = ",.;:]["

// BaseTokens applies base normalization steps 1–4 (SPEC A.3) to s:
// straighten U+2019, lowercase, split at whitespace, strip trailing
// ",.;:][" from each token and, when gtSide is true, one trailing '?'.
// Tokens emptied by these steps are dropped.
func BaseTokens(s string, gtSide bool) []string {
	return AppendBaseTokens(nil, s, gtSide)
}

// AppendBaseTokens appends the tokens of BaseTokens(s, gtSide) to dst and
// returns the extended slice: a caller that normalizes many values reuses
// one slice for their tokens.
func AppendBaseTokens(dst []string, s string, gtSide bool) []string {
	return appendBaseTokens(dst, Lower(StraightenApostrophes(s)), gtSide)
}

// appendBaseTokens appends the base tokens of s, already straightened
// and lowercased.
func appendBaseTokens(dst []string, s string, gtSide bool) []string {
	start := -1
	for i, r := range s { // as strings.FieldsFunc(s, unicode.IsSpace) splits
		if !unicode.IsSpace(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			dst = appendBaseToken(dst, s[start:i], gtSide)
			start = -1
		}
	}
	if start >= 0 {
		dst = appendBaseToken(dst, s[start:], gtSide)
	}
	return dst
}

// appendBaseToken appends tok stripped of its trailing ",.;:][" (and,
// gtSide, one '?') unless that empties it.
func appendBaseToken(dst []string, tok string, gtSide bool) []string {
	tok = strings.TrimRight(tok, baseTrailing)
	if gtSide {
		tok = strings.TrimSuffix(tok, "?")
	}
	if tok == "" {
		return dst
	}
	return append(dst, tok)
}

// SplitElisions splits every token at each apostrophe that has a character
// on both sides, keeping the apostrophe on the left part: "sant'angelo"
// becomes "sant'" and "angelo" (SPEC A.3, place normalization).
func SplitElisions(toks []string) []string {
	var out []string
	for i, tok := range toks {
		if !hasInnerApostrophe(tok) {
			if out != nil {
				out = append(out, tok)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(toks)+2), toks[:i]...)
		}
		for {
			j := innerApostrophe(tok)
			if j < 0 {
				break
			}
			out = append(out, tok[:j+1])
			tok = tok[j+1:]
		}
		out = append(out, tok)
	}
	if out == nil {
		return toks
	}
	return out
}

// innerApostrophe returns the byte index of the first apostrophe in tok
// with a character on both sides, or -1.
func innerApostrophe(tok string) int {
	for j := 1; j < len(tok)-1; j++ {
		if tok[j] == '\'' {
			return j
		}
	}
	return -1
}

func hasInnerApostrophe(tok string) bool { return innerApostrophe(tok) >= 0 }

// StripDayZero turns a token of exactly two ASCII digits starting with '0'
// into one digit ("09" → "9"), the date rule of SPEC A.3.
func StripDayZero(toks []string) {
	for i, tok := range toks {
		if len(tok) == 2 && tok[0] == '0' && tok[1] >= '0' && tok[1] <= '9' {
			toks[i] = tok[1:]
		}
	}
}

// IsBlank reports whether s is empty after trimming whitespace.
func IsBlank(s string) bool {
	return strings.TrimFunc(s, unicode.IsSpace) == ""
}
