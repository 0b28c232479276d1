package htmltok_test

import (
	"fmt"
	"strings"

	xhtml "golang.org/x/net/html"

	"github.com/docscore/docscore/internal/htmltok"
)

func ExampleTokenizer_Next() {
	z := htmltok.New(strings.NewReader(`<TD ColSpan="2" title='a&amp;b'>Fish &amp; chips&notit;</td>`))
	for {
		tok := z.Next()
		if tok.Type == xhtml.ErrorToken {
			break
		}
		fmt.Printf("%v %q %v\n", tok.Type, tok.Data, tok.Attrs)
	}
	// Output:
	// StartTag "td" [{ colspan 2} { title a&b}]
	// Text "Fish & chips¬it;" []
	// EndTag "td" []
}
