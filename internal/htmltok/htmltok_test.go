package htmltok

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"
)

// tokensOf reads src with this package and with the library's Token.
func tokensOf(src string) (got, want []Token, gotErr, wantErr error) {
	t := New(strings.NewReader(src))
	for {
		tok := t.Next()
		if tok.Type == xhtml.ErrorToken {
			gotErr = t.Err()
			break
		}
		got = append(got, tok)
	}
	z := xhtml.NewTokenizer(strings.NewReader(src))
	for {
		if z.Next() == xhtml.ErrorToken {
			wantErr = z.Err()
			break
		}
		x := z.Token()
		tok := Token{Type: x.Type, Data: x.Data, Attrs: x.Attr}
		if x.Type == xhtml.EndTagToken || x.Type == xhtml.TextToken || x.Type == xhtml.CommentToken || x.Type == xhtml.DoctypeToken {
			tok.Attrs = nil
		}
		switch x.Type {
		case xhtml.CommentToken, xhtml.DoctypeToken:
			tok.Data = "" // this package does not decode them
		}
		want = append(want, tok)
	}
	return got, want, gotErr, wantErr
}

func checkSame(t *testing.T, src string) {
	t.Helper()
	got, want, gotErr, wantErr := tokensOf(src)
	if gotErr != wantErr {
		t.Fatalf("%q: error %v, the library's %v", src, gotErr, wantErr)
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d tokens, the library %d:\n%+v\n%+v", src, len(got), len(want), got, want)
	}
	for i := range got {
		g, w := got[i], want[i]
		if len(g.Attrs) == 0 && len(w.Attrs) == 0 {
			g.Attrs, w.Attrs = nil, nil
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%q: token %d is %+v, the library's %+v", src, i, g, w)
		}
	}
}

// seeds are texts whose tokens the package must read as the library does:
// attributes in every quoting, references in text and in attributes, raw
// text elements, CR and NUL bytes.
var seeds = []string{
	`<table><tr><td colspan="2" ROWSPAN=3>a&amp;b</td></tr></table>`,
	`<td colspan = '2'x=y z>`,
	`<a b=c/>`, `<a b/>`, `<br/>`, `<a/b>`, `<a =b>`, `<a ==b>`, `<a b= >`, `<a b=>`,
	`<a b="x&amp;y" c='&lt' d=&notit; e=&notit f="&notit=" g="&amp=" h="&#x41;&#65&#0;&#xD800;&#128;">`,
	`<a b="&fjlig;" c="&fjlig" d="&nLt;" e="&ampx" f="&amp;x" g="&;" h="&#;" i="&#x;" j="&#xZ">`,
	`<p>&notit; &notin; &amp &ampx &fjlig; &nLt; &#1114112; &#x110000; &#9999999999;</p>`,
	"<p>a\r\nb\rc\x00d</p>",
	"<script>a&amp;\x00<b>\r\n</script>x&amp;",
	"<title>a&amp;\x00<b></title>", "<textarea>&lt;\x00</textarea>",
	"<style/>a&amp;</style>", "<xmp>&amp;</XMP>", "<plaintext>&amp;</plaintext>",
	"<script></script>&amp;", "<SCRIPT>&amp;", "<noscript><b>&amp;</b></noscript>",
	"<a B=1 b=2 B\x00=3 b\x00=4>", "<a\x00 x\x00='\x00'>", "<a x='a\r\nb\rc'>",
	`<!-- c --><!DOCTYPE html><?xml x?></ ></a b=c><![CDATA[x]]>`,
	`<a b="unterminated`, `<a`, `a<`, `a</`, `&`, `<a b='&#x41'>`,
	"<td\tcolspan\f=\n\"2\"\r>", `<a b="c"d='e'f=g>`, `<a b c d>`, `<a/ b / c=/ d=/>`,
}

func TestSameAsLibrary(t *testing.T) {
	for _, src := range seeds {
		checkSame(t, src)
	}
}

// TestEveryEntity reads every name of the table, with and without its
// ';', followed by nothing, a letter, a digit, '=' and ';', in text and
// in quoted and unquoted attribute values, and every numeric reference
// from 0 to 0x110 and about the surrogates and the last character.
func TestEveryEntity(t *testing.T) {
	var b strings.Builder
	for _, e := range entities {
		name := strings.TrimSuffix(entityNames[e.off:int(e.off)+int(e.n)], ";")
		for _, ref := range []string{"&" + name + ";", "&" + name} {
			for _, after := range []string{"", "x", "=", ";", "1"} {
				b.WriteString(`<a v="` + ref + after + `" w=` + ref + after + `>` + ref + after + "\n")
			}
		}
	}
	for _, x := range []int{0xD7FF, 0xD800, 0xDFFF, 0xE000, 0x10FFFF, 0x110000, 1 << 31} {
		fmt.Fprintf(&b, "&#%d;&#x%x<a v='&#%d&#X%X;'>\n", x, x, x, x)
	}
	for x := 0; x <= 0x110; x++ {
		fmt.Fprintf(&b, "&#%d;&#x%x<a v='&#%d&#X%X;'>\n", x, x, x, x)
	}
	checkSame(t, b.String())
}

// TestEntitiesAreCurrent regenerates entities.go from the library's table
// (scripts/htmlentities) and wants it unchanged.
func TestEntitiesAreCurrent(t *testing.T) {
	out := filepath.Join(t.TempDir(), "entities.go")
	cmd := exec.Command("go", "run", "./scripts/htmlentities", "-o", out)
	cmd.Dir = filepath.Join("..", "..")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./scripts/htmlentities: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("entities.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("entities.go is not what scripts/htmlentities writes from the library's table: run go run ./scripts/htmlentities")
	}
	if len(entities) < 2200 {
		t.Fatalf("%d entities, want the library's 2,231 or so", len(entities))
	}
}

// FuzzTokenizerAgainstXNet holds every token of any text to the library's
// Token: type, text, name and attributes.
func FuzzTokenizerAgainstXNet(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkSame(t, src)
	})
}
