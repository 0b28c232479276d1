package tables

import (
	"fmt"
	"html"
	"strconv"

	"github.com/docscore/docscore/internal/mdread"
)

// parseMarkdown reads the GFM pipe tables of a Markdown text (with
// internal/mdread, in gomarkdown's reading; doc.go says where it
// differs): the header row becomes a thead row, the body rows a tbody,
// rows after a "|===|" footer line a tfoot, every cell a td (as PubTabNet
// writes its tables), a run of pipes its colspan; strong emphasis is <b>,
// emphasis <i>, strikethrough <strike>, code <code>, the rest plain text.
func parseMarkdown(text string, maxNodes int) ([]*Node, error) {
	var out []*Node
	count := 0
	for _, t := range mdread.ReadTables(mdread.NormalizeNewlines([]byte(text))) {
		table := elem("table")
		if t.Header != nil {
			table.Children = appendGroup(table.Children, "thead", []mdread.TableRow{*t.Header}, &count)
		}
		body := t.Rows
		for k, r := range t.Rows {
			if r.Footer > 0 {
				body = t.Rows[:k]
				break
			}
		}
		table.Children = appendGroup(table.Children, "tbody", body, &count)
		rest := t.Rows[len(body):]
		for f := 1; f <= t.Footers; f++ {
			n := 0
			for n < len(rest) && rest[n].Footer == f {
				n++
			}
			table.Children = appendGroup(table.Children, "tfoot", rest[:n], &count)
			rest = rest[n:]
		}
		if count > maxNodes {
			return out, fmt.Errorf("more than %d table nodes (the work cap on a file)", maxNodes)
		}
		out = append(out, table)
	}
	return out, nil
}

// appendGroup appends a row group (thead, tbody, tfoot) of rows, unless
// it has none.
func appendGroup(out []*Node, tag string, rows []mdread.TableRow, count *int) []*Node {
	if len(rows) == 0 {
		return out
	}
	group := elem(tag)
	for _, row := range rows {
		tr := elem("tr")
		for _, c := range row.Cells {
			td := elem("td")
			if c.Span > 1 {
				td.Attrs = append(td.Attrs, attr("colspan", strconv.Itoa(c.Span)))
			}
			markup, _ := mdread.ReadInline(c.Content, html.UnescapeString)
			td.Children = inlineNodes(markup, count)
			tr.Children = append(tr.Children, td)
			*count++
		}
		group.Children = append(group.Children, tr)
	}
	return append(out, group)
}

// inlineNodes builds a cell's nodes from its inline markup.
func inlineNodes(ms []mdread.Markup, count *int) []*Node {
	var kids []*Node
	var stack []*Node // open elements; kids is the innermost's children
	var saved [][]*Node
	for _, m := range ms {
		switch {
		case m.Tag == "":
			*count++
			kids = appendText(kids, m.Text)
		case !m.Close:
			*count++
			stack = append(stack, &Node{Tag: m.Tag})
			saved = append(saved, kids)
			kids = nil
		default:
			n := stack[len(stack)-1]
			n.Children = kids
			stack = stack[:len(stack)-1]
			kids = append(saved[len(saved)-1], n)
			saved = saved[:len(saved)-1]
		}
	}
	return kids
}
