package pagetext

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"

	"github.com/docscore/docscore/scoring/inputerr"
)

// xnetHocrText is the reader of hOCR before package htmltok, on
// golang.org/x/net/html's Parse: the oracle of the tests. It reads an hOCR page as ALTO is read: each line's words (class
// ocrx_word, their text) joined by single spaces — a line without word
// elements gives its text with white space collapsed —, each line
// normalized, lines joined by \n. HTML is parsed as browsers parse it
// (golang.org/x/net/html), so markup never fails; a file without an
// ocr_page element is not hOCR.
func xnetHocrText(name string, data []byte, norm Normalization) (string, error) {
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return "", inputerr.New(name, 0, "%v: expected an hOCR file", err)
	}
	var page bool
	var lines []string
	var visit func(n *html.Node, depth int)
	visit = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		if n.Type == html.ElementNode {
			cls := xnetClasses(n)
			if hasClass(cls, "ocr_page") {
				page = true
			}
			for _, l := range hocrLines {
				if hasClass(cls, l) {
					lines = append(lines, Normalize(xnetHocrLine(n), norm))
					return
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c, depth+1)
		}
	}
	visit(doc, 0)
	if !page {
		return "", inputerr.New(name, 0, "no element of class ocr_page: expected an hOCR file")
	}
	return strings.Join(lines, "\n"), nil
}

func xnetClasses(n *html.Node) []string {
	for _, a := range n.Attr {
		if a.Key == "class" && a.Namespace == "" {
			return strings.Fields(a.Val)
		}
	}
	return nil
}

// hocrLine is one line's text: its words joined by spaces.
func xnetHocrLine(line *html.Node) string {
	var words []string
	var visit func(n *html.Node, depth int)
	visit = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		if n.Type == html.ElementNode && hasClass(xnetClasses(n), "ocrx_word") {
			words = append(words, strings.Join(strings.Fields(xnetTextContent(n)), " "))
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c, depth+1)
		}
	}
	visit(line, 0)
	if len(words) == 0 {
		return strings.Join(strings.Fields(xnetTextContent(line)), " ")
	}
	return strings.Join(words, " ")
}

func xnetTextContent(n *html.Node) string {
	var b strings.Builder
	var visit func(n *html.Node, depth int)
	visit = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c, depth+1)
		}
	}
	visit(n, 0)
	return b.String()
}
