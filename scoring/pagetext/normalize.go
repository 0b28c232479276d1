package pagetext

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Normalization chooses how extracted text is normalized (SPEC G.1).
type Normalization uint8

const (
	// SBB is dinglehopper's normalize_sbb: NFC, ligatures and MUFI
	// private-use characters to their letters, its dash and quote
	// foldings. The default.
	SBB Normalization = iota
	// NFC is Unicode canonical composition alone.
	NFC
)

// ParseNormalization reads "sbb" (or "") and "nfc".
func ParseNormalization(s string) (Normalization, bool) {
	switch s {
	case "", "sbb":
		return SBB, true
	case "nfc":
		return NFC, true
	}
	return SBB, false
}

// String is "sbb" or "nfc".
func (n Normalization) String() string {
	if n == NFC {
		return "nfc"
	}
	return "sbb"
}

// ligatures is dinglehopper's unjoin_ligatures table, in its order.
var ligatures = []string{
	"\ueba6", "ſſ",
	"\ueba7", "ſſi", // MUFI: LATIN SMALL LIGATURE LONG S LONG S I
	"\uf502", "ch",
	"\ueec4", "ck",
	"\uf4f9", "ll",
	"\ueba2", "ſi",
	"\ueada", "ſt",
	"\ufb01", "fi",
	"\ufb00", "ff",
	"\ufb02", "fl",
	"\ufb03", "ffi",
	"\ueec5", "ct",
	"\ueedc", "tz", // MUFI: LATIN SMALL LIGATURE TZ
	"\uf532", "as", // eMOP: Latin small ligature as
	"\uf533", "is", // eMOP: Latin small ligature is
	"\uf534", "us", // eMOP: Latin small ligature us
	"\uf535", "Qu", // eMOP: Latin ligature capital Q small u
	"\u0133", "ij", // LATIN SMALL LIGATURE IJ
	"\ue8bf", "q&", // MUFI: LATIN SMALL LETTER Q LIGATED WITH FINAL ET
	"\ueba5", "ſp", // MUFI: LATIN SMALL LIGATURE LONG S P
	"\ufb06", "st", // LATIN SMALL LIGATURE ST
}

// equivalences is dinglehopper's substitute_equivalences table, in its
// order.
var equivalences = []string{
	"\ue72b", "ü",
	"\ue42c", "ä",
	"==", "–", // → en-dash
	"\u2014", "–", // em-dash → en-dash
	"\ue644", "ö",
	"\u2019", "'",
	"\u2e17", "-",
	"a\u0364", "ä", // LATIN SMALL LETTER A, COMBINING LATIN SMALL LETTER E
	"o\u0364", "ö",
	"u\u0364", "ü",
	"\uf50e", "q\u0301", // LATIN SMALL LETTER Q WITH ACUTE ACCENT
}

// Normalize normalizes s as n says.
func Normalize(s string, n Normalization) string {
	if n == NFC {
		return norm.NFC.String(s)
	}
	return NormalizeSBB(s)
}

// NormalizeSBB is dinglehopper's normalize_sbb: NFC, then its ligatures,
// then its equivalences, each replaced in turn over the whole text as
// Python's str.replace does.
func NormalizeSBB(s string) string {
	s = norm.NFC.String(s)
	s = replaceAll(s, ligatures)
	return replaceAll(s, equivalences)
}

// replaceAll applies each pair's replacement in turn. Python applies
// them one after the other, so one strings.Replacer (which replaces all
// at once) could differ where a replacement makes a later match.
func replaceAll(s string, pairs []string) string {
	for i := 0; i < len(pairs); i += 2 {
		if strings.Contains(s, pairs[i]) {
			s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
		}
	}
	return s
}
