package pagetext

import (
	"strings"
	"unicode"

	"github.com/rivo/uniseg"
)

// Clusters splits s into its extended grapheme clusters (UAX #29).
func Clusters(s string) []string {
	out := make([]string, 0, len(s))
	state := -1
	var c string
	for len(s) > 0 {
		c, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		out = append(out, c)
	}
	return out
}

// puaStandIn is a letter (Word_Break ALetter, three UTF-8 bytes like
// every Private Use Area character) that stands in for a private-use
// character while words are split: dinglehopper patches uniseg so that
// the Private Use Area breaks as letters (MUFI characters are letters).
const puaStandIn = '\u1E00'

func isPUA(r rune) bool { return r >= 0xE000 && r <= 0xF8FF }

// Words splits s into UAX #29 word segments and keeps those dinglehopper
// keeps: a segment whose characters are all of the general categories M,
// P, Z, S, Cc or Cf (whitespace, punctuation "or similar") is left out.
// Characters of the Private Use Area break as letters.
func Words(s string) []string {
	scan := s
	if strings.ContainsFunc(s, isPUA) {
		scan = strings.Map(func(r rune) rune {
			if isPUA(r) {
				return puaStandIn
			}
			return r
		}, s)
	}
	var out []string
	state := -1
	var w string
	off := 0
	for len(scan) > 0 {
		w, scan, state = uniseg.FirstWordInString(scan, state)
		seg := s[off : off+len(w)]
		off += len(w)
		if !unwanted(seg) {
			out = append(out, seg)
		}
	}
	return out
}

// unwanted reports whether every character of a word segment is
// whitespace, punctuation, a mark, a symbol or a control or format
// character.
func unwanted(seg string) bool {
	for _, r := range seg {
		if !(unicode.In(r, unicode.M, unicode.P, unicode.Z, unicode.S, unicode.Cc, unicode.Cf)) {
			return false
		}
	}
	return true
}
