package tables

import (
	"errors"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/internal/treedit"
)

// TEDSOptions choose the TEDS variant.
type TEDSOptions struct {
	// StructureOnly ignores cell content (TEDS-S, PubTabNet's
	// structure_only).
	StructureOnly bool
	// THAsTD reads a th as a td cell, the reading docling-eval chose;
	// PubTabNet keeps th a structural node whose content is not compared.
	THAsTD bool
	// MaxCells caps the tree edit distance's table, the product of the
	// two trees' node counts plus one each; 0 is DefaultMaxTEDCells.
	MaxCells int
}

// DefaultMaxTEDCells is the work cap on one TEDS when TEDSOptions leaves
// it zero: two trees of about 2,000 nodes each, 64 MB of tables.
const DefaultMaxTEDCells = 1 << 22

// ErrTooLarge is returned for a pair of tables over a work cap.
var ErrTooLarge = errors.New("tables: the pair of tables is over the work cap")

// tedsTree is PubTabNet's tree of one table, flattened in postorder: each
// node's label (tag, colspan and rowspan, interned) and, for a cell, its
// content tokens (interned).
type tedsTree struct {
	tree   *treedit.Tree
	label  []int32
	cell   []bool
	tokens [][]int32
	// elements counts the elements under the table element: PubTabNet's
	// len(table.xpath(".//*")), which counts inline tags in cells too.
	elements int
}

// interner gives strings small ids, shared by the two trees of a pair.
type interner struct{ ids map[string]int32 }

func (in *interner) id(s string) int32 {
	if v, ok := in.ids[s]; ok {
		return v
	}
	v := int32(len(in.ids))
	in.ids[s] = v
	return v
}

// span is a colspan or rowspan as PubTabNet's int(attrib.get(k, '1'))
// reads it: "1" when absent, the decimal value when it is an integer,
// the text as written otherwise (where PubTabNet raises).
func span(n *Node, key string) string {
	v, ok := n.Attr(key)
	if !ok {
		return "1"
	}
	if i, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
		return strconv.Itoa(i)
	}
	return "?" + v
}

func tag(n *Node, o TEDSOptions) string {
	if o.THAsTD && n.Tag == "th" {
		return "td"
	}
	return n.Tag
}

// buildTEDS flattens a table as PubTabNet's load_html_tree does: the
// table element and its element descendants down to the td cells, each
// td a leaf holding its content tokens unless StructureOnly.
func buildTEDS(root *Node, o TEDSOptions, in *interner) *tedsTree {
	t := &tedsTree{elements: countElements(root) - 1}
	var b treedit.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		b.Enter()
		tg := tag(n, o)
		if tg != "td" {
			for _, c := range n.Children {
				if c.Tag != "" {
					walk(c)
				}
			}
		}
		b.Leave()
		if tg == "td" {
			t.label = append(t.label, in.id("td|"+span(n, "colspan")+"|"+span(n, "rowspan")))
			t.cell = append(t.cell, true)
			var toks []int32
			if !o.StructureOnly {
				toks = cellTokens(n, o, in, nil)
			}
			t.tokens = append(t.tokens, toks)
		} else {
			t.label = append(t.label, in.id(tg))
			t.cell = append(t.cell, false)
			t.tokens = append(t.tokens, nil)
		}
	}
	walk(root)
	t.tree, _ = b.Tree()
	return t
}

func countElements(n *Node) int {
	if n.Tag == "" {
		return 0
	}
	c := 1
	for _, k := range n.Children {
		c += countElements(k)
	}
	return c
}

// cellTokens are PubTabNet's tokenize of a td without its own <td> and
// </td>: each character of text, "<tag>" and "</tag>" around inline
// elements (no closing token for "unk"), and the text after an inline
// element unless that element is a td.
func cellTokens(td *Node, o TEDSOptions, in *interner, out []int32) []int32 {
	var walk func(n *Node)
	walk = func(n *Node) {
		prevTD := false
		for _, c := range n.Children {
			if c.Tag == "" {
				if !prevTD {
					for _, r := range c.Text {
						out = append(out, in.id(string(r)))
					}
				}
				prevTD = false
				continue
			}
			tg := tag(c, o)
			out = append(out, in.id("<"+tg+">"))
			walk(c)
			if tg != "unk" {
				out = append(out, in.id("</"+tg+">"))
			}
			prevTD = tg == "td"
		}
	}
	walk(td)
	return out
}

// tedsCosts are PubTabNet's CustomConfig over two flattened trees.
type tedsCosts struct {
	a, b *tedsTree
	lev  *lev
	ids  int // token ids are below ids
}

func (c *tedsCosts) Delete(int) float64 { return 1 }
func (c *tedsCosts) Insert(int) float64 { return 1 }

// Rename is 1 when tag, colspan or rowspan differ, the normalized
// Levenshtein distance of two cells' tokens when either has any, 0
// otherwise.
func (c *tedsCosts) Rename(i, j int) float64 {
	if c.a.label[i] != c.b.label[j] {
		return 1
	}
	if !c.a.cell[i] {
		return 0
	}
	x, y := c.a.tokens[i], c.b.tokens[j]
	if len(x) == 0 && len(y) == 0 {
		return 0
	}
	d := c.lev.distance(x, y, c.ids)
	return float64(d) / float64(max(len(x), len(y)))
}

// RenameAtLeast bounds a cell's rename by the difference of the token
// counts, which a Levenshtein distance is at least.
func (c *tedsCosts) RenameAtLeast(i, j int) float64 {
	if c.a.label[i] != c.b.label[j] {
		return 1
	}
	if !c.a.cell[i] {
		return 0
	}
	x, y := len(c.a.tokens[i]), len(c.b.tokens[j])
	if x == y {
		return 0
	}
	return float64(max(x, y)-min(x, y)) / float64(max(x, y))
}

// Scorer computes TEDS with reused buffers. The zero value is ready to
// use; a Scorer is not safe for concurrent use.
type Scorer struct {
	ws  treedit.Workspace
	in  interner
	lev lev
}

// TEDS returns PubTabNet's TEDS of a predicted table against its ground
// truth: 1 − TED ÷ the larger count of elements under either table
// element. A nil table (none read) on either side scores 0; two tables
// without elements score 1. Pairs over the work cap are ErrTooLarge.
func (s *Scorer) TEDS(pred, gt *Node, o TEDSOptions) (float64, error) {
	if pred == nil || gt == nil {
		return 0, nil
	}
	if s.in.ids == nil || len(s.in.ids) > 1<<16 {
		s.in.ids = make(map[string]int32, 256)
	}
	tp, tg := buildTEDS(pred, o, &s.in), buildTEDS(gt, o, &s.in)
	limit := o.MaxCells
	if limit <= 0 {
		limit = DefaultMaxTEDCells
	}
	if treedit.Cells(tp.tree.Len(), tg.tree.Len()) > limit {
		return 0, ErrTooLarge
	}
	n := max(tp.elements, tg.elements)
	if n == 0 {
		return 1, nil
	}
	c := &tedsCosts{a: tp, b: tg, lev: &s.lev, ids: len(s.in.ids)}
	d := treedit.Distance(tp.tree, tg.tree, c, &s.ws)
	return 1.0 - d/float64(n), nil
}

// TEDS is Scorer.TEDS with a fresh Scorer.
func TEDS(pred, gt *Node, o TEDSOptions) (float64, error) {
	var s Scorer
	return s.TEDS(pred, gt, o)
}
