package pagetext

import (
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
)

// TestXMLErrorShowsTheLine: a page file that is not well-formed XML is an
// input error at the line and column (in characters: the decoder counts
// bytes, and "ſ" and "ü" before the column are two each) with the line
// and a caret under the column.
func TestXMLErrorShowsTheLine(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{
			name: "a tag that opens twice",
			src:  "<?xml version=\"1.0\"?>\n<PcGts>\n\t<<Created>x</Created>\n</PcGts>\n",
			want: "p.xml:3:3: expected element name after <: expected well-formed XML\n    3 | \t<<Created>x</Created>\n      | \t ^",
		},
		{
			name: "characters before the column",
			src:  "<PcGts><Unicode>daſ über</Unicode <x></PcGts>\n",
			want: "p.xml:1:36: invalid characters between </Unicode and >: expected well-formed XML\n    1 | <PcGts><Unicode>daſ über</Unicode <x></PcGts>\n      |                                    ^",
		},
	} {
		_, err := Extract("p.xml", []byte(c.src), ExtractOptions{})
		e, ok := inputerr.As(err)
		if !ok || e.Error() != c.want {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
		}
	}
}
