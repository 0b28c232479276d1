package tables

import (
	"bytes"

	"golang.org/x/net/html"

	"github.com/docscore/docscore/internal/htmltok"
)

type htmlAttr = html.Attribute

func writeHTML(b *bytes.Buffer, n *Node) {
	if n.Tag == "" {
		b.WriteString(html.EscapeString(n.Text))
		return
	}
	b.WriteByte('<')
	b.WriteString(n.Tag)
	for _, a := range n.Attrs {
		b.WriteByte(' ')
		b.WriteString(a.Key)
		b.WriteString(`="`)
		b.WriteString(html.EscapeString(a.Val))
		b.WriteByte('"')
	}
	b.WriteByte('>')
	if htmltok.Void(n.Tag) {
		return
	}
	for _, c := range n.Children {
		writeHTML(b, c)
	}
	b.WriteString("</")
	b.WriteString(n.Tag)
	b.WriteByte('>')
}
