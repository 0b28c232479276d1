package pagetext

import (
	"os"
	"strings"
	"testing"
)

// hocrGen writes a well-nested hOCR document from the bytes of a fuzz
// input: pages, blocks, paragraphs, lines and words in divs, ps and
// spans, inline markup, line breaks, images, comments, text with
// character references, CR, NUL and non-ASCII, class attributes in every
// quoting and case, other attributes with '>' and references in their
// values. Its tags nest as browsers would build them, so a browser's
// reading and hocrTree's agree on it.
type hocrGen struct {
	data []byte
	b    strings.Builder
}

func (g *hocrGen) next() int {
	if len(g.data) == 0 {
		return 0
	}
	c := int(g.data[0])
	g.data = g.data[1:]
	return c
}

func (g *hocrGen) pick(xs ...string) string { return xs[g.next()%len(xs)] }

var hocrTexts = []string{"Hart", "kopf", " ", "  \n ", "\r\n", "\r", "a&amp;b", "&lt;", "&notit;", "&fjlig;", "&nLt;", "&#x41;", "&#128;", "ﬁ", "é", "\x00", "x\x00y", "\t", "&", "a < b", "Straße"}

func (g *hocrGen) text() {
	for n := g.next() % 3; n >= 0; n-- {
		g.b.WriteString(g.pick(hocrTexts...))
	}
}

func (g *hocrGen) open(tag, class string) {
	t := tag
	if g.next()%4 == 0 {
		t = strings.ToUpper(tag)
	}
	g.b.WriteString("<" + t)
	if g.next()%3 == 0 {
		g.b.WriteString(g.pick(` title="bbox 1 2 3 4; x_wconf 90"`, ` title='a>b'`, ` id=w_1`, ` lang="&amp;"`, "\n\tdata-x = \"1\""))
	}
	if class != "" {
		k := g.pick("class", "CLASS", "Class")
		switch g.next() % 4 {
		case 0:
			g.b.WriteString(" " + k + `="` + class + `"`)
		case 1:
			g.b.WriteString(" " + k + `='` + class + ` x'`)
		case 2:
			if !strings.Contains(class, " ") {
				g.b.WriteString(" " + k + "=" + class)
			} else {
				g.b.WriteString(" " + k + `="` + class + `"`)
			}
		default:
			g.b.WriteString(" " + k + ` = " ` + class + ` "`)
		}
	}
	g.b.WriteString(g.pick(">", " >", "\n>"))
}

func (g *hocrGen) close(tag string) {
	if g.next()%4 == 0 {
		tag = strings.ToUpper(tag)
	}
	g.b.WriteString("</" + tag + ">")
}

var lineClasses = []string{"ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat", "ocr_line x", "", "ocrx_word"}

// content writes what an element holds; phrasing is whether only
// phrasing content may go there (inside a p or a span).
func (g *hocrGen) content(depth int, phrasing bool) {
	for n := g.next() % 4; n > 0 && len(g.data) > 0; n-- {
		switch c := g.next() % 11; {
		case c == 0 || depth > 6:
			g.text()
		case c == 1 && !phrasing:
			g.open("div", g.pick("ocr_carea", "ocr_page", "", "ocr_par"))
			g.content(depth+1, false)
			g.close("div")
		case c == 2 && !phrasing:
			g.open("p", g.pick("ocr_par", "ocr_line", ""))
			g.content(depth+1, true)
			g.close("p")
		case c <= 5:
			g.open("span", g.pick(lineClasses...))
			g.content(depth+1, true)
			g.close("span")
		case c == 6:
			tag := g.pick("em", "strong", "b", "i", "sup")
			g.open(tag, g.pick("", "ocrx_word", "ocrx_cinfo"))
			g.content(depth+1, true)
			g.close(tag)
		case c == 7:
			g.b.WriteString(g.pick("<br>", "<br/>", "<BR />", `<img src="x.png" alt="&lt;">`))
		case c == 8:
			g.b.WriteString(g.pick("<!-- a <span class=ocr_line>x</span> -->", "<!---->"))
		default:
			g.text()
		}
	}
}

func (g *hocrGen) document() string {
	head := g.next() % 3
	if head > 0 {
		g.b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<!DOCTYPE html>\n")
		g.b.WriteString(`<html xmlns="http://www.w3.org/1999/xhtml"><head><title>&amp; t</title><meta http-equiv="Content-Type" content="text/html;charset=utf-8" /><meta name='ocr-system' content='tesseract 5' /></head>` + "\n<body>")
	}
	g.open("div", g.pick("ocr_page", "ocr_page x", "ocr_carea"))
	g.content(0, false)
	g.close("div")
	g.content(0, false)
	if head == 2 {
		g.b.WriteString("</body>\n</html>\n")
	}
	return g.b.String()
}

func checkHOCR(t *testing.T, doc string) {
	t.Helper()
	for _, norm := range []Normalization{SBB, NFC} {
		got, gotErr := hocrText("p.hocr", []byte(doc), norm)
		want, wantErr := xnetHocrText("p.hocr", []byte(doc), norm)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("%q: error %v, the browser's reading %v", doc, gotErr, wantErr)
		}
		if got != want {
			t.Fatalf("%q (%v):\n got %q\nwant %q (the browser's reading)", doc, norm, got, want)
		}
	}
}

// FuzzHOCRAgainstXNet holds the hOCR reader to a browser's reading
// (golang.org/x/net/html's Parse) on every well-nested document.
func FuzzHOCRAgainstXNet(f *testing.F) {
	for _, s := range []string{"", "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a", "hOCR page: lines, words, references", "\xff\xfe\xfd\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0\xb0\xc0\xd0\xe0\xf0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &hocrGen{data: data}
		checkHOCR(t, g.document())
	})
}

// TestTesseractHOCR reads Tesseract 5.3.0's hOCR of a rendered page
// (testdata/tesseract-5.3.0.hocr: its words, its character references)
// as a browser's reading does, line by line.
func TestTesseractHOCR(t *testing.T) {
	data, err := os.ReadFile("testdata/tesseract-5.3.0.hocr")
	if err != nil {
		t.Fatal(err)
	}
	checkHOCR(t, string(data))
	got, err := hocrText("p.hocr", data, NFC)
	if err != nil {
		t.Fatal(err)
	}
	want := "Hartkopf, der Frau Amtmannin das ander\n" +
		"Exemplar; — ,,Ja, ja, Herr Pfarrer,“ & Co.\n" +
		"StraBe 12 - Café <GrdRe> 3% fl."
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHOCRReading pins the reading: on well-nested documents a browser's
// (the first cases), and where a browser would repair the markup, the
// XHTML nesting hocrTree documents.
func TestHOCRReading(t *testing.T) {
	page := func(body string) string { return `<div class="ocr_page">` + body + `</div>` }
	for _, doc := range []string{
		page(`<span class="ocr_line"><span class="ocrx_word">Hart&shy;kopf</span> <span class='ocrx_word'>&amp;</span></span>`),
		page("<span class=ocr_line>a\x00b <b>c</b>\r\nd</span><span class=ocr_header><i>x</i></span>"),
		`<!DOCTYPE html><html><head><title>ocr_line</title></head><body>` + page(`<p class=ocr_par><span class=ocr_line>x<br>y</span></p>`) + `</body></html>`,
	} {
		checkHOCR(t, doc)
	}
	for _, c := range []struct{ doc, want, browser string }{
		// A browser closes the p at the div: "a" is the line, "b" is not in it.
		{page(`<p class="ocr_line">a<div>b</div></p>`), "ab", "a"},
		// A browser passes over </span> inside the div: "c" is in the line.
		{page(`<span class="ocr_line">a<div>b</span>c</div>`), "ab", "abc"},
	} {
		got, err := hocrText("p.hocr", []byte(c.doc), NFC)
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.doc, got, err, c.want)
		}
		if b, err := xnetHocrText("p.hocr", []byte(c.doc), NFC); err != nil || b != c.browser {
			t.Errorf("%q: a browser reads %q, %v; the test says %q", c.doc, b, err, c.browser)
		}
	}
}
