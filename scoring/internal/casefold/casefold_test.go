package casefold

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"already folded 123", "already folded 123"},
		{"CAFÉ", "café"},
		{"Straße", "strasse"},
		{"ẞ", "ss"},
		{"ﬁnal ﬂow", "final flow"},
		{"ΣΊΣΥΦΟΣ", "σίσυφοσ"},
		{"ς", "σ"},
		{"İstanbul", "i\u0307stanbul"},
		{"µ", "μ"},
		{"Ꭰ", "ꭰ"},                           // x/text's Cherokee (see TestFoldAgreesWithPython)
		{"𐐀", "𐐨"},                           // Deseret, four bytes
		{"ǅ", "ǆ"},                           // title case
		{"a\xffB\xe2\x82", "a\xffb\xe2\x82"}, // invalid UTF-8 copied
		{"\xed\xa0\x80X", "\xed\xa0\x80x"},   // an encoded surrogate
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%+q) = %+q, want %+q", c.in, got, c.want)
		}
	}
}

func TestStringUnchangedIsTheSameString(t *testing.T) {
	s := strings.Repeat("déjà vu, 東京 ", 10)
	if got := String(s); got != s || testing.AllocsPerRun(100, func() { String(s) }) != 0 {
		t.Fatalf("String of folded text allocates or changes it")
	}
}

// TestFoldEqualsXText folds every code point with String and with
// golang.org/x/text/cases, which the tables are generated from.
func TestFoldEqualsXText(t *testing.T) {
	if norm.Version != unicodeVersion {
		t.Fatalf("golang.org/x/text follows Unicode %s, the tables %s: run go generate", norm.Version, unicodeVersion)
	}
	folder := cases.Fold()
	var b strings.Builder
	for r := rune(0); r <= utf8.MaxRune; r++ {
		s := string(r)
		if got, want := String(s), folder.String(s); got != want {
			t.Fatalf("U+%04X: String = %+q, cases.Fold = %+q (run go generate)", r, got, want)
		}
		b.WriteString(s)
	}
	// All of them in one string, too.
	if got, want := String(b.String()), folder.String(b.String()); got != want {
		t.Fatal("every code point in one string: String and cases.Fold differ")
	}
}

// cherokeeUpper are the code points where golang.org/x/text departs from
// CaseFolding.txt, which Python follows: it folds Cherokee capitals
// U+13A0–U+13F5 to the small letters U+AB70–U+ABBF and U+13F8–U+13FD,
// where CaseFolding.txt leaves them (and folds the small letters to the
// capitals, as both do). String keeps x/text's behaviour, on which the
// receipt scores were computed.
func cherokeeUpper(r rune) bool { return r >= 0x13A0 && r <= 0x13F5 }

// TestFoldAgreesWithPython compares String with Python's str.casefold(),
// an independent implementation of full case folding
// (testdata/gen_vectors.py wrote testdata/casefold_python.txt), on every
// code point of the Unicode version Python has.
func TestFoldAgreesWithPython(t *testing.T) {
	f, err := os.Open("testdata/casefold_python.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	listed := map[rune]bool{}
	line := 0
	for sc.Scan() {
		line++
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		cp, fold, ok := strings.Cut(sc.Text(), "\t")
		r, err := strconv.ParseUint(cp, 16, 32)
		if !ok || err != nil {
			t.Fatalf("casefold_python.txt:%d: %q", line, sc.Text())
		}
		var want strings.Builder
		for _, h := range strings.Fields(fold) {
			c, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				t.Fatalf("casefold_python.txt:%d: %q", line, sc.Text())
			}
			want.WriteRune(rune(c))
		}
		listed[rune(r)] = true
		if got := String(string(rune(r))); got != want.String() {
			t.Errorf("U+%04X: String = %+q, Python %+q", r, got, want.String())
		}
	}
	if len(listed) < 1400 {
		t.Fatalf("only %d folds in casefold_python.txt", len(listed))
	}
	departures := 0
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if listed[r] {
			continue
		}
		if _, ok := Rune(r); ok {
			if !cherokeeUpper(r) {
				t.Errorf("U+%04X: String folds it, Python does not", r)
			}
			departures++
		}
	}
	if departures != 86 {
		t.Errorf("%d departures from Python, want the 86 Cherokee capitals", departures)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "CAFÉ", "Straße ﬁ", "\xff\xfe", "\xed\xa0\x80", "\xf4\x90\x80\x80", "Ꭰꭰ𐐀", "\xe2\x82"} {
		f.Add(s)
	}
	folder := cases.Fold()
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := String(s), folder.String(s); got != want {
			t.Fatalf("String(%+q) = %+q, cases.Fold %+q", s, got, want)
		}
	})
}

var benchText = strings.Repeat("TOTAL Straße 12,50 EUR Café crème ", 30)

func BenchmarkString(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		String(benchText)
	}
}

func BenchmarkXText(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		cases.Fold().String(benchText)
	}
}
