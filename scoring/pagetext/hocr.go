//go:build !nohocr

package pagetext

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"

	"github.com/docscore/docscore/scoring/inputerr"
)

// hocrLines are the hOCR classes of a line of text.
var hocrLines = []string{"ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat"}

// hocrText reads an hOCR page as ALTO is read: each line's words (class
// ocrx_word, their text) joined by single spaces — a line without word
// elements gives its text with white space collapsed —, each line
// normalized, lines joined by \n. HTML is parsed as browsers parse it
// (golang.org/x/net/html), so markup never fails; a file without an
// ocr_page element is not hOCR.
func hocrText(name string, data []byte, norm Normalization) (string, error) {
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
			cls := classes(n)
			if hasClass(cls, "ocr_page") {
				page = true
			}
			for _, l := range hocrLines {
				if hasClass(cls, l) {
					lines = append(lines, Normalize(hocrLine(n), norm))
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

func classes(n *html.Node) []string {
	for _, a := range n.Attr {
		if a.Key == "class" && a.Namespace == "" {
			return strings.Fields(a.Val)
		}
	}
	return nil
}

func hasClass(cls []string, c string) bool {
	for _, x := range cls {
		if x == c {
			return true
		}
	}
	return false
}

// hocrLine is one line's text: its words joined by spaces.
func hocrLine(line *html.Node) string {
	var words []string
	var visit func(n *html.Node, depth int)
	visit = func(n *html.Node, depth int) {
		if depth > maxDepth {
			return
		}
		if n.Type == html.ElementNode && hasClass(classes(n), "ocrx_word") {
			words = append(words, strings.Join(strings.Fields(textContent(n)), " "))
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c, depth+1)
		}
	}
	visit(line, 0)
	if len(words) == 0 {
		return strings.Join(strings.Fields(textContent(line)), " ")
	}
	return strings.Join(words, " ")
}

func textContent(n *html.Node) string {
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
