package receipts

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzClean checks that cleaning never panics, keeps valid UTF-8 valid,
// and leaves none of the LaTeX syntax it removes.
func FuzzClean(f *testing.F) {
	for _, s := range []string{
		`<x_0.0977><y_0.0400>WARUNG<x_0.7376><y_0.0600><class_Page-header>`,
		`\begin{tabular}{|l|c|r|}\hline \textbf{Item} & 8 \\ \multicolumn{3}{c}{TOTAL 584100} \\ \end{tabular}`,
		`<table border="1"><tr><td colspan="2">SUBTOTAL</td><td>495000</td></tr></table><!-- x -->`,
		`&amp;&#55;&lt;b&gt;&#92;cline{2-3}`,
		`\multirow[t]{2}{*}{CASH} \cmidrule(lr){2-3} \\[2pt] \begin{tabular}{p{4cm`,
		`\multicolumn{3}{c}{SUBTO`, `<td title="a>b">`, `\`, `{`, `<x_`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		out := Clean(raw)
		if utf8.ValidString(raw) && !utf8.ValidString(out) {
			t.Fatalf("Clean(%q) = %q: invalid UTF-8", raw, out)
		}
		if strings.ContainsAny(out, `\&{}`) {
			t.Fatalf("Clean(%q) = %q: LaTeX syntax left", raw, out)
		}
		Tokenize(out)
	})
}

// FuzzTokenize checks the hand-written tokenizer against SPEC B.3's
// regular expression.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"-5.000 DISC 79,300", "12:30 x2 2x 10%", "Straße İ CAFE\u0301", "١٢٣,٤٥ +-5 5--3 1.2.", "3.5e4 Rp.12.000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return // the regexp oracle reads invalid bytes differently
		}
		got, want := Tokenize(text), regexTokens(text)
		if len(got) == 0 && len(want) == 0 {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Tokenize(%q) = %v, regexp oracle %v", text, got, want)
		}
	})
}

// FuzzLCS checks that the bit-parallel LCS equals the DP oracle.
func FuzzLCS(f *testing.F) {
	f.Add([]byte("abcbdab"), []byte("bdcaba"), uint8(4))
	f.Add([]byte(strings.Repeat("ab", 70)), []byte(strings.Repeat("ba", 33)), uint8(2))
	f.Add([]byte{}, []byte("x"), uint8(1))
	f.Fuzz(func(t *testing.T, a, b []byte, k uint8) {
		alphabet := int(k%26) + 1
		tok := func(bs []byte) []string {
			out := make([]string, len(bs))
			for i, c := range bs {
				out[i] = string(rune('a' + int(c)%alphabet))
			}
			return out
		}
		x, y := tok(a), tok(b)
		if got, want := LCS(x, y), LCSDP(x, y); got != want {
			t.Fatalf("LCS = %d, DP = %d for %q / %q", got, want, x, y)
		}
	})
}
