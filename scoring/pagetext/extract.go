package pagetext

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// Kind is the format of a page's file, detected from its content.
type Kind uint8

const (
	Plain Kind = iota // UTF-8 text
	PAGE              // PAGE-XML (PcGts root, 2009–2019 namespaces)
	ALTO              // ALTO v2–v4 (alto root)
	HOCR              // hOCR (an element of class ocr_page)
)

// String is "plain", "page", "alto" or "hocr".
func (k Kind) String() string {
	return [...]string{"plain", "page", "alto", "hocr"}[k]
}

// Level is the PAGE level text is read at: the regions' own text
// equivalents (dinglehopper's default) or their lines'.
type Level uint8

const (
	RegionLevel Level = iota
	LineLevel
)

// ParseLevel reads "region" (or "") and "line".
func ParseLevel(s string) (Level, bool) {
	switch s {
	case "", "region":
		return RegionLevel, true
	case "line":
		return LineLevel, true
	}
	return RegionLevel, false
}

// String is "region" or "line".
func (l Level) String() string {
	if l == LineLevel {
		return "line"
	}
	return "region"
}

// ExtractOptions choose how a page's text is read.
type ExtractOptions struct {
	Level         Level
	Normalization Normalization
	// MaxBytes bounds a file's size (0: no bound).
	MaxBytes int
}

// Extracted is a page's text as the scorer reads it.
type Extracted struct {
	Kind Kind
	Text string // normalized
}

var bom = []byte("\ufeff")

// Detect says what kind of page data is: markup (its first character
// past a byte-order mark and white space is '<') is hOCR when it has an
// element of class ocr_page, else XML (PAGE or ALTO by its root); any
// other content is plain text.
func Detect(data []byte) Kind {
	data = bytes.TrimPrefix(data, bom)
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || t[0] != '<' {
		return Plain
	}
	if bytes.Contains(data, []byte("ocr_page")) && !bytes.Contains(data, []byte("PcGts")) && !bytes.Contains(data, []byte("<alto")) {
		return HOCR
	}
	// PAGE or ALTO; which one is the root's business (extractXML).
	return PAGE
}

// Extract reads one page's text from a file's bytes, as dinglehopper's
// extract does (SPEC G.1), and normalizes it. name is the file's name for
// errors; a bad file is an *inputerr.Error naming its line and column.
func Extract(name string, data []byte, opts ExtractOptions) (Extracted, error) {
	if opts.MaxBytes > 0 && len(data) > opts.MaxBytes {
		return Extracted{}, inputerr.New(name, 0, "%d bytes: expected a page of at most %d bytes", len(data), opts.MaxBytes)
	}
	data = bytes.TrimPrefix(data, bom)
	if !utf8.Valid(data) {
		line, col := invalidUTF8At(data)
		return Extracted{}, &inputerr.Error{File: name, Line: line, Column: col, Msg: "invalid UTF-8: expected a UTF-8 text, PAGE, ALTO or hOCR file"}
	}
	switch Detect(data) {
	case Plain:
		return Extracted{Kind: Plain, Text: plainText(string(data), opts.Normalization)}, nil
	case HOCR:
		t, err := hocrText(name, data, opts.Normalization)
		return Extracted{Kind: HOCR, Text: t}, err
	}
	root, err := parseXML(name, data)
	if err != nil {
		return Extracted{}, err
	}
	switch root.name.Local {
	case "PcGts":
		return Extracted{Kind: PAGE, Text: pageText(root, opts)}, nil
	case "alto":
		return Extracted{Kind: ALTO, Text: altoText(root, opts.Normalization)}, nil
	}
	return Extracted{}, &inputerr.Error{File: name, Line: root.line, Column: root.col,
		Msg: "root element <" + root.name.Local + ">: expected PAGE-XML (<PcGts>), ALTO (<alto>) or hOCR (an ocr_page element)"}
}

func invalidUTF8At(data []byte) (line, col int) {
	line, col = 1, 1
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r == utf8.RuneError && n <= 1 {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		data = data[n:]
	}
	return line, col
}

// plainText is dinglehopper's plain_text: the lines (split at \n, \r\n
// and \r as Python's universal newlines do), each stripped of white
// space and normalized, joined by \n.
func plainText(s string, n Normalization) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	first := true
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		var line string
		if i < 0 {
			line, s = s, ""
		} else {
			line = s[:i]
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				s = s[i+2:]
			} else {
				s = s[i+1:]
			}
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		b.WriteString(Normalize(pyStrip(line), n))
	}
	return b.String()
}

// pyStrip is Python's str.strip(): it strips the characters str.isspace
// calls white space.
func pyStrip(s string) string {
	return strings.TrimFunc(s, pyIsSpace)
}

// pyIsSpace is Python's str.isspace for one character: the characters of
// bidirectional class WS, B or S, or of category Zs.
func pyIsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0,
		0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// node is an element of a parsed XML file: what the extractors read.
type node struct {
	name     xml.Name
	attr     []xml.Attr
	children []*node
	text     string // the text before the first child element (lxml's .text)
	line     int
	col      int
}

func (n *node) get(local string) (string, bool) {
	for _, a := range n.attr {
		if a.Name.Local == local && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

// maxDepth bounds the nesting of an XML file.
const maxDepth = 256

// parseXML reads a whole XML document into nodes; a syntax error names
// its line and column (in characters) and shows the line with a caret.
func parseXML(name string, data []byte) (*node, error) {
	root, err := parseXMLNodes(name, data)
	if e, ok := inputerr.As(err); ok && e.Line > 0 {
		ingest.OpenBytes(name, data).Attach(e)
		// The decoder counts bytes from the line's start, and past its
		// end at the end of the file (the caret goes just after it).
		if e.Column > 1 {
			e.Column = utf8.RuneCountInString(e.Source[:min(e.Column-1, len(e.Source))]) + 1
		}
	}
	return root, err
}

func parseXMLNodes(name string, data []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var stack []*node
	var root *node
	fail := func(msg string) error {
		line, col := d.InputPos()
		return &inputerr.Error{File: name, Line: line, Column: col, Msg: msg}
	}
	for {
		line, col := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				l, c := d.InputPos()
				if se.Line != l {
					c = 0
				}
				return nil, &inputerr.Error{File: name, Line: se.Line, Column: c, Msg: se.Msg + ": expected well-formed XML"}
			}
			return nil, fail(err.Error() + ": expected well-formed XML")
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return nil, fail("elements nested deeper than " + strconv.Itoa(maxDepth) + ": expected a page file")
			}
			n := &node{name: t.Name, attr: t.Attr, line: line, col: col}
			if len(stack) == 0 {
				if root != nil {
					return nil, fail("a second root element: expected one")
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				if len(p.children) == 0 {
					p.text += string(t)
				}
			}
		}
	}
	if root == nil {
		return nil, fail("no root element: expected PAGE-XML, ALTO or hOCR")
	}
	return root, nil
}

// walk calls f on every element under n (not n), in document order.
func walk(n *node, f func(*node)) {
	for _, c := range n.children {
		f(c)
		walk(c, f)
	}
}

// find returns the first element under n named local in namespace ns.
func find(n *node, ns, local string) *node {
	for _, c := range n.children {
		if c.name.Local == local && c.name.Space == ns {
			return c
		}
		if f := find(c, ns, local); f != nil {
			return f
		}
	}
	return nil
}

// altoText is dinglehopper's alto_text: every TextLine's String children's
// CONTENT joined by single spaces, each line normalized, lines joined by
// \n.
func altoText(root *node, norm Normalization) string {
	ns := root.name.Space
	var lines []string
	walk(root, func(n *node) {
		if n.name.Local != "TextLine" || n.name.Space != ns {
			return
		}
		var words []string
		for _, c := range n.children {
			if c.name.Local == "String" && c.name.Space == ns {
				v, _ := c.get("CONTENT")
				words = append(words, attrValue(v))
			}
		}
		lines = append(lines, Normalize(strings.Join(words, " "), norm))
	})
	return strings.Join(lines, "\n")
}

// attrValue applies XML's attribute-value normalization that lxml applies
// and encoding/xml does not: each tab, newline or carriage return is a
// space.
func attrValue(v string) string {
	if !strings.ContainsAny(v, "\t\n\r") {
		return v
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, v)
}

// pageText is dinglehopper's page_text: the text regions in reading order
// (every TextRegion in document order when the file has none), each
// region's text at the chosen level, empty regions left out, joined by \n.
func pageText(root *node, opts ExtractOptions) string {
	ns := root.name.Space
	var regions []*node
	if ro := find(root, ns, "ReadingOrder"); ro != nil {
		var ids map[string]*node
		for _, g := range ro.children {
			regions = readingOrderGroup(root, g, ns, &ids, regions)
		}
	} else {
		walk(root, func(n *node) {
			if n.name.Local == "TextRegion" && n.name.Space == ns {
				regions = append(regions, n)
			}
		})
	}
	var texts []string
	for _, r := range regions {
		if t := segmentText(r, ns, opts); t != "" {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n")
}

// readingOrderGroup is dinglehopper's extract_texts_from_reading_order_group:
// an ordered group's members with an index, by index; an unordered
// group's members in file order; groups recursively; a region reference
// to something other than a TextRegion left out.
func readingOrderGroup(root, g *node, ns string, ids *map[string]*node, out []*node) []*node {
	var members []*node
	switch g.name.Local {
	case "OrderedGroup", "OrderedGroupIndexed":
		type indexed struct {
			n *node
			i int
		}
		var xs []indexed
		for _, c := range g.children {
			s, ok := c.get("index")
			if !ok {
				continue
			}
			i, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				continue
			}
			xs = append(xs, indexed{c, i})
		}
		sort.SliceStable(xs, func(a, b int) bool { return xs[a].i < xs[b].i })
		for _, x := range xs {
			members = append(members, x.n)
		}
	case "UnorderedGroup", "UnorderedGroupIndexed":
		members = g.children
	default:
		return out
	}
	for _, m := range members {
		switch m.name.Local {
		case "OrderedGroup", "OrderedGroupIndexed", "UnorderedGroup", "UnorderedGroupIndexed":
			out = readingOrderGroup(root, m, ns, ids, out)
			continue
		}
		ref, ok := m.get("regionRef")
		if !ok {
			continue
		}
		if *ids == nil {
			*ids = map[string]*node{}
			walk(root, func(n *node) {
				if n.name.Local != "TextRegion" || n.name.Space != ns {
					return
				}
				if id, ok := n.get("id"); ok {
					if _, seen := (*ids)[id]; !seen {
						(*ids)[id] = n
					}
				}
			})
		}
		if r := (*ids)[ref]; r != nil {
			out = append(out, r)
		}
	}
	return out
}

// segmentText is dinglehopper's ExtractedText.from_text_segment: at its
// level, a segment's first text equivalent, normalized; above it, its
// child lines' texts joined by \n.
func segmentText(seg *node, ns string, opts ExtractOptions) string {
	if opts.Level == RegionLevel || seg.name.Local == "TextLine" {
		return Normalize(textEquiv(seg, ns), opts.Normalization)
	}
	var lines []string
	for _, c := range seg.children {
		if c.name.Local == "TextLine" && c.name.Space == ns {
			lines = append(lines, segmentText(c, ns, opts))
		}
	}
	return strings.Join(lines, "\n")
}

// textEquiv is dinglehopper's get_textequiv_unicode: of a segment's
// TextEquiv children, the one with the least @index, else the one with
// the greatest @conf, else the first; its Unicode's text.
func textEquiv(seg *node, ns string) string {
	var tes []*node
	for _, c := range seg.children {
		if c.name.Local == "TextEquiv" && c.name.Space == ns {
			tes = append(tes, c)
		}
	}
	if len(tes) == 0 {
		return ""
	}
	te := tes[0]
	if len(tes) > 1 {
		if i := argBest(tes, "index", func(a, b float64) bool { return a < b }); i >= 0 {
			te = tes[i]
		} else if i := argBest(tes, "conf", func(a, b float64) bool { return a > b }); i >= 0 {
			te = tes[i]
		}
	}
	for _, c := range te.children {
		if c.name.Local == "Unicode" && c.name.Space == ns {
			return c.text
		}
	}
	return ""
}

// argBest is numpy's nanargmin/nanargmax over an attribute read as a
// float (missing or unreadable is NaN): the first best, -1 when none has
// a value.
func argBest(tes []*node, attr string, better func(a, b float64) bool) int {
	best, bi := 0.0, -1
	for i, te := range tes {
		s, ok := te.get(attr)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v != v {
			continue
		}
		if bi < 0 || better(v, best) {
			best, bi = v, i
		}
	}
	return bi
}
