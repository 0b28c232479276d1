package pagetext

import (
	"bytes"
	"io"
	"strings"

	xhtml "golang.org/x/net/html"

	"github.com/docscore/docscore/internal/htmltok"
	"github.com/docscore/docscore/scoring/inputerr"
)

// hocrLines are the hOCR classes of a line of text.
var hocrLines = []string{"ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat"}

// hocrText reads an hOCR page as ALTO is read: each line's words (class
// ocrx_word, their text) joined by single spaces — a line without word
// elements gives its text with white space collapsed —, each line
// normalized, lines joined by \n. The markup is read as browsers read
// its tokens (text, tags, attributes, character references: package
// htmltok), and nested as XHTML nests it (hocrTree), so markup never
// fails; a file without an ocr_page element is not hOCR.
func hocrText(name string, data []byte, norm Normalization) (string, error) {
	doc, err := hocrTree(data)
	if err != nil {
		return "", inputerr.New(name, 0, "%v: expected an hOCR file", err)
	}
	var page bool
	var lines []string
	var visit func(n *hnode, depth int)
	visit = func(n *hnode, depth int) {
		if depth > maxDepth {
			return
		}
		if n.tag != "" {
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
		for _, c := range n.children {
			visit(c, depth+1)
		}
	}
	visit(doc, 0)
	if !page {
		return "", inputerr.New(name, 0, "no element of class ocr_page: expected an hOCR file")
	}
	return strings.Join(lines, "\n"), nil
}

// hnode is an element of an hOCR tree (tag set) or a text (tag "").
type hnode struct {
	tag      string
	text     string
	attrs    []xhtml.Attribute
	children []*hnode
}

// hocrTree nests the tokens of an HTML text as XHTML does: a start tag
// opens an element (a void one, such as <br> or <meta>, holds nothing),
// an end tag closes the nearest open element of its name and is passed
// over without one, text goes into the innermost open element, comments
// and doctypes are dropped, and so are NUL bytes in text. Elements nested deeper than maxDepth are
// kept at that depth. A document whose tags nest is read as browsers
// read it; one that relies on a browser's repairs (a <p> closed by the
// <div> it holds, misnested inline tags, text straight inside a table)
// may put words in another line than a browser would.
func hocrTree(data []byte) (*hnode, error) {
	root := &hnode{tag: "#document"}
	stack := []*hnode{root}
	z := htmltok.New(bytes.NewReader(data))
	for {
		tok := z.Next()
		top := stack[len(stack)-1]
		switch tok.Type {
		case xhtml.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return nil, err
			}
			return root, nil
		case xhtml.TextToken:
			// Browsers drop a NUL in a page's text.
			top.children = append(top.children, &hnode{text: strings.ReplaceAll(tok.Data, "\x00", "")})
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			n := &hnode{tag: tok.Data, attrs: tok.Attrs}
			top.children = append(top.children, n)
			if !htmltok.Void(n.tag) && len(stack) <= maxDepth {
				stack = append(stack, n)
			}
		case xhtml.EndTagToken:
			for i := len(stack) - 1; i > 0; i-- {
				if stack[i].tag == tok.Data {
					stack = stack[:i]
					break
				}
			}
		}
	}
}

func classes(n *hnode) []string {
	for _, a := range n.attrs {
		if a.Key == "class" {
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
func hocrLine(line *hnode) string {
	var words []string
	var visit func(n *hnode, depth int)
	visit = func(n *hnode, depth int) {
		if depth > maxDepth {
			return
		}
		if n.tag != "" && hasClass(classes(n), "ocrx_word") {
			words = append(words, strings.Join(strings.Fields(textContent(n)), " "))
			return
		}
		for _, c := range n.children {
			visit(c, depth+1)
		}
	}
	visit(line, 0)
	if len(words) == 0 {
		return strings.Join(strings.Fields(textContent(line)), " ")
	}
	return strings.Join(words, " ")
}

func textContent(n *hnode) string {
	var b strings.Builder
	var visit func(n *hnode, depth int)
	visit = func(n *hnode, depth int) {
		if depth > maxDepth {
			return
		}
		if n.tag == "" {
			b.WriteString(n.text)
		}
		for _, c := range n.children {
			visit(c, depth+1)
		}
	}
	visit(n, 0)
	return b.String()
}
