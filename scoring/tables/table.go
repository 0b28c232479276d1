package tables

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/inputerr"
)

// Format is how a table's text is written.
type Format string

// The formats a table is read from.
const (
	HTML     Format = "html"
	Markdown Format = "markdown"
	CSV      Format = "csv"
)

// FormatOf returns the format a file's name gives (.html/.htm, .md/.markdown,
// .csv) and whether it gives one.
func FormatOf(name string) (Format, bool) {
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".htm", ".xhtml":
		return HTML, true
	case ".md", ".markdown":
		return Markdown, true
	case ".csv":
		return CSV, true
	}
	return "", false
}

// Table is one table read from a file: its id within the file ("#1",
// "#2", … in order) and its root table element.
type Table struct {
	ID   string
	Root *Node
}

// DefaultMaxNodes is the work cap on a file's nodes (elements and text)
// when ParseOptions leaves it zero: PubTabNet's largest tables have a few
// thousand.
const DefaultMaxNodes = 100_000

// ParseOptions bound the work of reading a file.
type ParseOptions struct {
	// MaxNodes caps the nodes a file may hold; 0 is DefaultMaxNodes.
	MaxNodes int
}

// Parse reads the tables of a file in the given format. A file with no
// table gives none, not an error; a malformed file is an *inputerr.Error
// naming it.
func Parse(name, text string, f Format, o ParseOptions) ([]Table, error) {
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	var roots []*Node
	switch f {
	case HTML:
		root, err := parseHTML(text, o.MaxNodes)
		if err != nil {
			return nil, inputerr.New(name, 0, "%v", err)
		}
		roots = findTables(root, nil)
	case Markdown:
		var err error
		roots, err = parseMarkdown(text, o.MaxNodes)
		if err != nil {
			return nil, inputerr.New(name, 0, "%v", err)
		}
	case CSV:
		t, err := parseCSV(name, text, o.MaxNodes)
		if err != nil {
			return nil, err
		}
		if t != nil {
			roots = []*Node{t}
		}
	default:
		return nil, inputerr.New(name, 0, "unknown table format %q (expected html, markdown or csv)", f)
	}
	out := make([]Table, len(roots))
	for i, r := range roots {
		out[i] = Table{ID: "#" + strconv.Itoa(i+1), Root: r}
	}
	return out, nil
}

// ParseHTML reads the first table of an HTML text, nil when it has none.
// It is Parse for one table given as a string, as PubTabNet's TEDS takes
// it.
func ParseHTML(text string) (*Node, error) {
	t, err := Parse("", text, HTML, ParseOptions{})
	if err != nil || len(t) == 0 {
		return nil, err
	}
	return t[0].Root, nil
}

func elem(tag string, kids ...*Node) *Node { return &Node{Tag: tag, Children: kids} }

func appendText(out []*Node, s string) []*Node {
	if s == "" {
		return out
	}
	if len(out) > 0 && out[len(out)-1].Tag == "" {
		out[len(out)-1].Text += s
		return out
	}
	return append(out, &Node{Text: s})
}

// parseCSV reads a CSV table: the first record a thead row, the others a
// tbody, every field a td holding its text.
func parseCSV(name, text string, maxNodes int) (*Node, error) {
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(text, "\ufeff")))
	r.FieldsPerRecord = -1
	table := elem("table")
	var head, body *Node
	count := 0
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &inputerr.Error{File: name, Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error()}
			}
			return nil, inputerr.New(name, 0, "%v", err)
		}
		tr := elem("tr")
		for _, f := range rec {
			td := elem("td")
			td.Children = appendText(nil, f)
			tr.Children = append(tr.Children, td)
		}
		count += 2 * (len(rec) + 1)
		if count > maxNodes {
			line, _ := r.FieldPos(0)
			return nil, inputerr.New(name, line, "more than %d table nodes (the work cap on a file)", maxNodes)
		}
		if head == nil {
			head = elem("thead", tr)
			table.Children = append(table.Children, head)
			continue
		}
		if body == nil {
			body = elem("tbody")
			table.Children = append(table.Children, body)
		}
		body.Children = append(body.Children, tr)
	}
	if head == nil {
		return nil, nil
	}
	return table, nil
}

func attr(k, v string) htmlAttr { return htmlAttr{Key: k, Val: v} }

// HTMLText writes a table back as HTML, for pages and reports.
func (n *Node) HTMLText() string {
	var b bytes.Buffer
	writeHTML(&b, n)
	return b.String()
}
