package tables

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"

	"github.com/docscore/docscore/internal/htmltok"
)

// Node is an element or a text node of a parsed table. An element has a
// Tag and Children; a text node has only Text.
type Node struct {
	Tag      string // lower case; "" for a text node
	Text     string // a text node's text, entities decoded
	Attrs    []html.Attribute
	Children []*Node
}

// Attr returns the value of the attribute key and whether it is set.
func (n *Node) Attr(key string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// skipped are the document elements the builder leaves out: a table is
// scored as if inside <html><body> whatever surrounds it.
var skipped = map[string]bool{"html": true, "head": true, "body": true}

// maxDepth bounds the nesting the builder keeps; deeper elements are
// flattened into their ancestor at that depth.
const maxDepth = 256

// parseHTML builds the element tree of an HTML text the way libxml2's HTML
// parser does for the tables PubTabNet holds: no tbody is implied, a cell
// is closed by the next cell, row or row group, a row by the next row or
// row group, an end tag closes the nearest open element of its name and
// is ignored without one, comments and doctypes are dropped, adjacent
// text is merged. It returns a root whose children are the top-level
// nodes.
func parseHTML(src string, maxNodes int) (*Node, error) {
	root := &Node{Tag: "#root"}
	stack := []*Node{root}
	count := 0
	z := htmltok.New(strings.NewReader(src))
	add := func(n *Node) error {
		count++
		if maxNodes > 0 && count > maxNodes {
			return fmt.Errorf("more than %d HTML nodes (the work cap on a table)", maxNodes)
		}
		top := stack[len(stack)-1]
		if n.Tag == "" && len(top.Children) > 0 {
			if last := top.Children[len(top.Children)-1]; last.Tag == "" {
				last.Text += n.Text
				return nil
			}
		}
		top.Children = append(top.Children, n)
		return nil
	}
	// closeTo pops the stack to the nearest open element whose tag is in
	// tags, not past an element in stop; it reports whether it found one.
	closeTo := func(tags, stop []string, inclusive bool) bool {
		for i := len(stack) - 1; i > 0; i-- {
			t := stack[i].Tag
			if contains(tags, t) {
				if inclusive {
					stack = stack[:i]
				} else {
					stack = stack[:i+1]
				}
				return true
			}
			if contains(stop, t) {
				return false
			}
		}
		return false
	}
	for {
		tok := z.Next()
		switch tok.Type {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return root, nil
			}
			return nil, z.Err()
		case html.TextToken:
			if err := add(&Node{Text: tok.Data}); err != nil {
				return nil, err
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			tag := tok.Data
			if skipped[tag] {
				continue
			}
			switch tag {
			case "td", "th":
				closeTo([]string{"td", "th"}, []string{"tr", "table"}, true)
			case "tr":
				closeTo([]string{"tr"}, []string{"table"}, true)
			case "thead", "tbody", "tfoot":
				closeTo([]string{"thead", "tbody", "tfoot"}, []string{"table"}, true)
			case "p", "li":
				closeTo([]string{tag}, []string{"td", "th", "table", "ul", "ol", "div"}, true)
			}
			n := &Node{Tag: tag, Attrs: tok.Attrs}
			if err := add(n); err != nil {
				return nil, err
			}
			if tok.Type == html.StartTagToken && !htmltok.Void(tag) && len(stack) < maxDepth {
				stack = append(stack, n)
			}
		case html.EndTagToken:
			tag := tok.Data
			if skipped[tag] {
				continue
			}
			closeTo([]string{tag}, nil, true)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// findTables returns the table elements of a tree that are not inside
// another table, in document order.
func findTables(n *Node, out []*Node) []*Node {
	for _, c := range n.Children {
		if c.Tag == "table" {
			out = append(out, c)
			continue
		}
		out = findTables(c, out)
	}
	return out
}
