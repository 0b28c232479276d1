package pagetext

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// These tests reproduce the values dinglehopper's own tests assert
// (qurator-spk/dinglehopper, src/dinglehopper/tests/, Apache-2.0), on its
// own test data (testdata/dinglehopper). Each case names the Python test
// it comes from; "inf" there is nil (undefined) here (SPEC G.2).

const dh = "testdata/dinglehopper/"

func readPage(t *testing.T, name string, level Level) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dh, name))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Extract(name, data, ExtractOptions{Level: level})
	if err != nil {
		t.Fatal(err)
	}
	return ex.Text
}

// strScore is dinglehopper's character_error_rate(str, str): NFC only.
func strScore(t *testing.T, gt, ocr string) *Page {
	t.Helper()
	p, err := ScorePage(norm.NFC.String(gt), norm.NFC.String(ocr), AlignLimits{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func pageScore(t *testing.T, gtFile, ocrFile string) *Page {
	t.Helper()
	p, err := ScorePage(readPage(t, gtFile, RegionLevel), readPage(t, ocrFile, RegionLevel), AlignLimits{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func eqRate(got *float64, want float64) bool {
	if math.IsInf(want, 1) {
		return got == nil
	}
	return got != nil && *got == want
}

var inf = math.Inf(1)

func TestDinglehopperCharacterErrorRate(t *testing.T) {
	// test_character_error_rate.py
	nfc := norm.NFC.String("Schlyñ lorem ipsum.")
	nfd := norm.NFD.String("Schlyñ lorem ipsum!")
	for _, c := range []struct {
		gt, ocr string
		want    float64
	}{
		{"a", "a", 0}, {"a", "b", 1.0 / 1}, {"Foo", "Bar", 3.0 / 3}, {"Foo", "", 3.0 / 3},
		{"", "", 0}, {"", "Foo", inf}, {"Foo", "Food", 1.0 / 3}, {"Fnord", "Food", 2.0 / 5},
		{"Müll", "Mull", 1.0 / 4}, {"Abstand", "Sand", 4.0 / 7},
		{nfc, nfd, 1.0 / 19},
		{"Schlym\u0303", "Schly\u00f1", 1.0 / 6}, {"Schly\u00f1", "Schlym\u0303", 1.0 / 6},
	} {
		if p := strScore(t, c.gt, c.ocr); !eqRate(p.CER, c.want) {
			t.Errorf("CER(%q, %q) = %v, want %v", c.gt, c.ocr, p.CER, c.want)
		}
	}
}

func TestDinglehopperDistance(t *testing.T) {
	// test_edit_distance.py
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"Fnord", "Food", 2}, {"Müll", "Mull", 1},
		{norm.NFC.String("Schlyñ"), norm.NFD.String("Schlyñ"), 0},
		{"Schly\u00f1", "Schlym\u0303", 1},
	} {
		if p := strScore(t, c.a, c.b); p.CharEdits != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, p.CharEdits, c.want)
		}
	}
}

func TestDinglehopperWords(t *testing.T) {
	// test_word_error_rate.py: test_words, test_words_private_use_area
	got := Words("Der schnelle [„braune“] Fuchs kann keine 3,14 Meter springen, oder?")
	want := []string{"Der", "schnelle", "braune", "Fuchs", "kann", "keine", "3,14", "Meter", "springen", "oder"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
	got = Words("\ue72bber die vielen Sorgen wegen de\ueba6elben verga\u00df Hartkopf, der Frau Amtm\ue42cnnin das ver\u2e17\n\u017fpro\uf502ene zu \ue72bberliefern.")
	want = []string{"\ue72bber", "die", "vielen", "Sorgen", "wegen", "de\ueba6elben", "verga\u00df", "Hartkopf", "der", "Frau", "Amtm\ue42cnnin", "das", "ver", "\u017fpro\uf502ene", "zu", "\ue72bberliefern"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("words (PUA) = %q, want %q", got, want)
	}
}

func TestDinglehopperWordErrorRate(t *testing.T) {
	// test_word_error_rate.py: test_word_error_rate
	for _, c := range []struct {
		gt, ocr string
		want    float64
	}{
		{"Dies ist ein Beispielsatz!", "Dies ist ein Beispielsatz!", 0},
		{"Dies. ist ein Beispielsatz!", "Dies ist ein Beispielsatz!", 0},
		{"Dies. ist ein Beispielsatz!", "Dies ist ein Beispielsatz.", 0},
		{"Dies ist ein Beispielsatz!", "Dies ist ein Beispielsarz:", 1.0 / 4},
		{"Dies ist ein Beispielsatz!", "Dies ein ist Beispielsatz!", 2.0 / 4},
		{"Dies ist ein Beispielsatz!", "", 4.0 / 4},
		{"", "Dies ist ein Beispielsatz!", inf},
		{"", "", 0},
		{"Schly\u00f1 lorem ipsum dolor sit amet,", "Schlym\u0303 lorem ipsum dolor sit amet.", 1.0 / 6},
	} {
		if p := strScore(t, c.gt, c.ocr); !eqRate(p.WER, c.want) {
			t.Errorf("WER(%q, %q) = %v, want %v", c.gt, c.ocr, p.WER, c.want)
		}
	}
}

func TestDinglehopperPageFiles(t *testing.T) {
	// test_integ_{edit_distance,character_error_rate,word_error_rate}_ocr.py,
	// test_integ_align.py: "we changed 2 characters and replaced a fi
	// ligature with fi".
	p := pageScore(t, "test-gt.page2018.xml", "test-fake-ocr.page2018.xml")
	gtWords := 7 + 6 + 5 + 8 + 7 + 6 + 7 + 8 + 6 + 7 + 7 + 5 + 6 + 8 + 8 + 7 + 7 + 6 + 5 + 4
	diff := 0
	for _, op := range p.CharOps {
		if op.Kind != Match {
			diff++
		}
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"distance", p.CharEdits, 2},
		{"CER", *p.CER, 2 / float64(p.GTChars)},
		{"GT words", p.GTWords, gtWords},
		{"WER", *p.WER, 2 / float64(gtWords)},
		{"differing alignment elements", diff, 2},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	// test_integ_differences.py: the report's differences.
	chars, words := map[string]int{}, map[string]int{}
	for _, op := range p.CharOps {
		if op.Kind == Sub {
			chars[p.GTClusters[op.A]+" :: "+p.OCRClusters[op.B]]++
		}
	}
	for _, op := range p.WordOps {
		if op.Kind == Sub {
			words[p.GTWordList[op.A]+" :: "+p.OCRWordList[op.B]]++
		}
	}
	if want := map[string]int{"n :: m": 1, "ſ :: f": 1}; !reflect.DeepEqual(chars, want) {
		t.Errorf("character differences %v, want %v", chars, want)
	}
	if want := map[string]int{"Augenblick :: Augemblick": 1, "Verſprochene :: Verfprochene": 1}; !reflect.DeepEqual(words, want) {
		t.Errorf("word differences %v, want %v", words, want)
	}
}

func TestDinglehopperPageAlto(t *testing.T) {
	gt := readPage(t, "lorem-ipsum/lorem-ipsum-scan.gt.page.xml", RegionLevel)
	ocr := readPage(t, "lorem-ipsum/lorem-ipsum-scan.ocr.tesseract.alto.xml", RegionLevel)
	if gt != ocr {
		t.Errorf("lorem-ipsum-scan: PAGE text %q != ALTO text %q", gt, ocr)
	}
	p := pageScore(t, "lorem-ipsum/lorem-ipsum-scan.gt.page.xml", "lorem-ipsum/lorem-ipsum-scan.ocr.tesseract.alto.xml")
	if p.CharEdits != 0 || *p.CER != 0 || *p.WER != 0 {
		t.Errorf("lorem-ipsum-scan: distance %d, CER %v, WER %v, want 0, 0, 0", p.CharEdits, *p.CER, *p.WER)
	}
	p = pageScore(t, "lorem-ipsum/lorem-ipsum-scan-bad.gt.page.xml", "lorem-ipsum/lorem-ipsum-scan-bad.ocr.tesseract.alto.xml")
	gtWords := 14 + 18 + 17 + 14 + 17 + 17 + 3
	if p.CharEdits != 8 || *p.CER != 8.0/591 || p.GTWords != gtWords || *p.WER != 7/float64(gtWords) {
		t.Errorf("lorem-ipsum-scan-bad: distance %d, CER %v, GT words %d, WER %v; want 8, 8/591, %d, 7/%d",
			p.CharEdits, *p.CER, p.GTWords, *p.WER, gtWords, gtWords)
	}
}

func TestDinglehopperEmptyFiles(t *testing.T) {
	// test_integ_empty_files.py: plain files, "inf" is undefined here.
	for _, c := range []struct {
		gt, ocr string
		want    float64
	}{
		{"", "Lorem ipsum", inf}, {"Lorem ipsum", "", 1.0}, {"\ufeff", "Lorem ipsum", inf},
		{"Lorem ipsum", "\ufeff", 1.0}, {"", "", 0.0}, {"\ufeff", "", 0.0}, {"", "\ufeff", 0.0},
	} {
		g, err := Extract("gt.txt", []byte(c.gt), ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		o, err := Extract("ocr.txt", []byte(c.ocr), ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := ScorePage(g.Text, o.Text, AlignLimits{})
		if err != nil {
			t.Fatal(err)
		}
		if !eqRate(p.CER, c.want) {
			t.Errorf("CER(%q, %q) = %v, want %v", c.gt, c.ocr, p.CER, c.want)
		}
	}
}

func TestDinglehopperTableOrder(t *testing.T) {
	// test_integ_table_extraction.py
	for file, want := range map[string]string{
		"table-order-0001.xml":       "1\n2\n3\n4\n5\n6\n7\n8\n9",
		"table-order-0002.xml":       "1\n4\n7\n2\n5\n8\n3\n6\n9",
		"table-region.xml":           "1\n2\n3\n4\n5\n6\n7\n8\n9",
		"table-no-reading-order.xml": "5\n6\n7\n8\n9\n1\n2\n3\n4",
		"table-unordered.xml":        "1\n2\n3\n4\n5\n6\n7\n8\n9",
	} {
		if got := readPage(t, "table-order/"+file, RegionLevel); got != want {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
}

func TestDinglehopperOCRFiles(t *testing.T) {
	// test_ocr_files.py
	want, _ := os.ReadFile(dh + "expected/test.alto3.txt")
	if got := readPage(t, "test.alto3.xml", RegionLevel); got != string(want) {
		t.Errorf("alto3 text %q, want %q", got, want)
	}
	if got := readPage(t, "test.alto2.xml", RegionLevel); !strings.Contains(got, "Halbmonde, die genau durch einen Ouerstrich halbiert\nsind und an beiden Enden") {
		t.Errorf("alto2 text lacks the asserted lines: %q", got)
	}
	want, _ = os.ReadFile(dh + "expected/test.page2018.txt")
	page := readPage(t, "test-gt.page2018.xml", RegionLevel)
	if page != string(want) {
		t.Errorf("page text %q, want %q", page, want)
	}
	if !strings.Contains(page, "wieder ein. – Er langte den Zettel aus dem") {
		t.Error("page text lacks the line test_text asserts")
	}
	if readPage(t, "brochrnx_73075507X/00000139.ocrd-tess.ocr.page.xml", RegionLevel) == "" {
		t.Error("a page with an empty region gave no text")
	}
	order := regexp.MustCompile(`(?s)Herr Konfrater.*75.*Etwas f.r Wittwen.*Ein gewi.{1,2}er Lord.*76\. Die`)
	if !order.MatchString(readPage(t, "order.page.xml", RegionLevel)) {
		t.Error("order.page.xml: regions not in reading order")
	}
	if !strings.Contains(readPage(t, "mixed-regions.page.xml", RegionLevel), "non exaudiam uos. Chriſtiani uero quia orant iuxta") {
		t.Error("mixed-regions.page.xml lacks its text")
	}
	if got := readPage(t, "levels-are-different.page.xml", RegionLevel); got != "Inconsistent dummy region text" {
		t.Errorf("region level: %q", got)
	}
	if got, want := readPage(t, "levels-are-different.page.xml", LineLevel), "Hand, Mylord? fragte der Graf von Rocheſter.\nAls er einsmals in dem Oberhauſe eine Bill we-"; got != want {
		t.Errorf("line level: %q, want %q", got, want)
	}
	if !strings.Contains(readPage(t, "test.txt", RegionLevel), "Lorem ipsum") {
		t.Error("test.txt lacks Lorem ipsum")
	}
	for _, in := range []string{"First, a line.\nAnd a second line.\n", "\ufeffFirst, a line.\nAnd a second line.\n"} {
		ex, err := Extract("ocr.txt", []byte(in), ExtractOptions{})
		if err != nil || ex.Text != "First, a line.\nAnd a second line." {
			t.Errorf("plain %q: %q %v", in, ex.Text, err)
		}
	}
}

func TestDinglehopperTextEquivChoice(t *testing.T) {
	// extracted_text_test.py: test_textequiv
	for _, c := range []struct {
		attrs []string
		want  int // -1: no text
	}{
		{nil, -1}, {[]string{`index="0"`}, 0}, {[]string{""}, 0}, {[]string{`conf="0.5"`}, 0},
		{[]string{`index="1"`, `index="0"`}, 1}, {[]string{`index="0" conf="0.4"`, `conf="0.5"`}, 0},
		{[]string{`conf="0.4"`, `conf="0.5"`, `conf="0.9"`}, 2}, {[]string{`index="0"`, ""}, 0},
		{[]string{"", `conf="0.4"`}, 1}, {[]string{"", ""}, 0},
	} {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0"?><PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2018-07-15"><Page><TextRegion id="r"><TextLine id="l3">`)
		for i, a := range c.attrs {
			b.WriteString("<TextEquiv " + a + "><Unicode>Text " + string(rune('0'+i)) + "</Unicode></TextEquiv>")
		}
		b.WriteString(`</TextLine></TextRegion></Page></PcGts>`)
		ex, err := Extract("te.xml", []byte(b.String()), ExtractOptions{Level: LineLevel})
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if c.want >= 0 {
			want = "Text " + string(rune('0'+c.want))
		}
		if ex.Text != want {
			t.Errorf("%q: %q, want %q", c.attrs, ex.Text, want)
		}
	}
}

// alignPairs is dinglehopper's align: the pairs of an alignment, "" for
// None.
func alignPairs(t *testing.T, a, b string) [][2]string {
	p := strScore(t, a, b)
	var out [][2]string
	for _, op := range p.CharOps {
		var l, r string
		if op.A >= 0 {
			l = p.GTClusters[op.A]
		}
		if op.B >= 0 {
			r = p.OCRClusters[op.B]
		}
		out = append(out, [2]string{l, r})
	}
	return out
}

func TestDinglehopperAlign(t *testing.T) {
	// test_align.py, test_editops.py, extracted_text_test.py: test_align
	pairs := func(s string) [][2]string {
		var out [][2]string
		for _, p := range strings.Split(s, " ") {
			l, r, _ := strings.Cut(p, "/")
			out = append(out, [2]string{strings.ReplaceAll(l, "_", " "), strings.ReplaceAll(r, "_", " ")})
		}
		return out
	}
	for _, c := range []struct{ a, b, want string }{
		{"", "foo", "/f /o /o"},
		{"foo", "", "f/ o/ o/"},
		{"food", "foo", "f/f o/o o/o d/"},
		{"foo", "food", "f/f o/o o/o /d"},
		{"abcde", "aaadef", "a/a b/a c/a d/d e/e /f"},
		{"Dies ist eine Tst!", "Dies ist ein Test.", "D/D i/i e/e s/s _/_ i/i s/s t/t _/_ e/e i/i n/n e/ _/_ T/T /e s/s t/t !/."},
		{"Schly\u00f1", "Schlym\u0303", "S/S c/c h/h l/l y/y \u00f1/m\u0303"},
		{"o\u0364de", "\u00f6de", "o\u0364/\u00f6 d/d e/e"},
		{"n\u0303", "\u00f1", "\u00f1/\u00f1"},
	} {
		if got := alignPairs(t, c.a, c.b); !reflect.DeepEqual(got, pairs(c.want)) {
			t.Errorf("align(%q, %q) = %q, want %q", c.a, c.b, got, pairs(c.want))
		}
	}
	if n := len(alignPairs(t, "abcde", "fghij")); n != 5 {
		t.Errorf("completely different: %d pairs, want 5", n)
	}
	got := alignPairs(t, "Über die vielen Sorgen wegen desselben vergaß", "SomeJunk MoreJunk Übey die vielen Sorgen wegen AdditionalJunk deffelben vcrgab")
	for i, ch := range "SomeJunk MoreJunk " {
		if got[i] != [2]string{"", string(ch)} {
			t.Errorf("fake OCR errors: pair %d is %q, want an insertion of %q", i, got[i], ch)
		}
	}
	if last := got[len(got)-1]; last != [2]string{"ß", "b"} {
		t.Errorf("fake OCR errors: last pair %q", last)
	}
	got = alignPairs(t, "foo bar batzinga", "foo bar . bazim\u0303ga")
	for i, want := range map[int][2]string{0: {"f", "f"}, 8: {"", "."}, 12: {"t", ""}, 15: {"n", "m\u0303"}} {
		if got[i] != want {
			t.Errorf("segments: pair %d is %q, want %q", i, got[i], want)
		}
	}
}
