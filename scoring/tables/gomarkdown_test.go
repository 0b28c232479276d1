package tables

import (
	"fmt"
	"strconv"

	"github.com/gomarkdown/markdown/ast"
	"github.com/gomarkdown/markdown/parser"
)

// This file keeps the reader the package used before its own: the
// tables of a Markdown text read from gomarkdown's syntax tree, with the
// extensions it was given. FuzzMarkdownAgainstGomarkdown holds
// parseMarkdown to it.

// parseGomarkdown reads the GFM pipe tables of a Markdown text with
// gomarkdown's table extension: the header row becomes a thead row, the
// others a tbody, every cell a td (as PubTabNet writes its tables);
// strong emphasis is <b>, emphasis <i>, code <code>, the rest plain text.
func parseGomarkdown(text string, maxNodes int) ([]*Node, error) {
	p := parser.NewWithExtensions(parser.Tables | parser.NoIntraEmphasis | parser.Strikethrough)
	doc := p.Parse([]byte(text))
	var out []*Node
	count := 0
	var err error
	ast.WalkFunc(doc, func(n ast.Node, entering bool) ast.WalkStatus {
		t, ok := n.(*ast.Table)
		if !ok || !entering {
			return ast.GoToNext
		}
		table := elem("table")
		for _, part := range t.Children {
			tag := "tbody"
			switch part.(type) {
			case *ast.TableHeader:
				tag = "thead"
			case *ast.TableFooter:
				tag = "tfoot"
			}
			group := elem(tag)
			for _, row := range part.GetChildren() {
				tr := elem("tr")
				for _, c := range row.GetChildren() {
					td := elem("td")
					if tc, ok := c.(*ast.TableCell); ok && tc.ColSpan > 1 {
						td.Attrs = append(td.Attrs, attr("colspan", strconv.Itoa(tc.ColSpan)))
					}
					td.Children = inlines(c.GetChildren(), td.Children, &count)
					tr.Children = append(tr.Children, td)
					count++
				}
				group.Children = append(group.Children, tr)
			}
			if len(group.Children) > 0 {
				table.Children = append(table.Children, group)
			}
		}
		if count > maxNodes {
			err = fmt.Errorf("more than %d table nodes (the work cap on a file)", maxNodes)
			return ast.Terminate
		}
		out = append(out, table)
		return ast.SkipChildren
	})
	return out, err
}

// inlines appends the nodes of a Markdown cell's inline content.
func inlines(ns []ast.Node, out []*Node, count *int) []*Node {
	for _, n := range ns {
		*count++
		var tag string
		switch x := n.(type) {
		case *ast.Text:
			out = appendText(out, string(x.Literal))
			continue
		case *ast.Code:
			out = append(out, &Node{Tag: "code", Children: []*Node{{Text: string(x.Literal)}}})
			continue
		case *ast.HTMLSpan:
			out = appendText(out, string(x.Literal))
			continue
		case *ast.Strong:
			tag = "b"
		case *ast.Emph:
			tag = "i"
		case *ast.Del:
			tag = "strike"
		case *ast.Hardbreak:
			out = append(out, &Node{Tag: "br"})
			continue
		}
		if tag == "" {
			if leaf := n.AsLeaf(); leaf != nil {
				out = appendText(out, string(leaf.Literal))
			}
			out = inlines(n.GetChildren(), out, count)
			continue
		}
		out = append(out, &Node{Tag: tag, Children: inlines(n.GetChildren(), nil, count)})
	}
	return out
}
