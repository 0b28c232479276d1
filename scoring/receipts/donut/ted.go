package donut

import (
	"errors"

	"github.com/docscore/docscore/scoring/internal/treedit"
	"strings"
	"unicode/utf8"
)

// Labels of the nodes Tree builds besides object keys.
const (
	RootLabel    = "<root>"    // the root of every tree
	SubtreeLabel = "<subtree>" // one object in a list of objects
	LeafMark     = "<leaf>"    // prefix of a value node: "<leaf>" + value
)

// Node is a node of an ordered, labelled tree.
type Node struct {
	Label    string
	Children []*Node
}

// Tree builds Donut's tree of a normalized value (construct_tree_from_dict):
// a root labelled "<root>"; each object member is a node labelled with its
// key; each object in a list is a "<subtree>" node; each string is a leaf
// labelled "<leaf>" + value.
func Tree(normalized any) *Node {
	return buildTree(normalized, RootLabel)
}

func buildTree(v any, label string) *Node {
	n := &Node{Label: label}
	switch x := v.(type) {
	case Dict:
		for _, m := range x {
			n.Children = append(n.Children, buildTree(m.Value, m.Key))
		}
	case []any:
		allDicts := true
		for _, item := range x {
			if _, ok := item.(Dict); !ok {
				allDicts = false
				break
			}
		}
		for _, item := range x {
			if allDicts {
				n.Children = append(n.Children, buildTree(item, SubtreeLabel))
			} else if s, ok := item.(string); ok {
				n.Children = append(n.Children, &Node{Label: LeafMark + s})
			}
		}
	}
	return n
}

// Size returns the number of nodes of the tree.
func (n *Node) Size() int {
	s := 1
	for _, c := range n.Children {
		s += c.Size()
	}
	return s
}

// isLeaf reports whether a label is a value node; like Donut, any label
// containing "<leaf>" counts.
func isLeaf(label string) bool { return strings.Contains(label, LeafMark) }

func leafText(label string) string { return strings.ReplaceAll(label, LeafMark, "") }

// InsertCost is the cost of inserting or removing a node: the length of
// its value (in code points) for a leaf, 1 for any other node.
func InsertCost(n *Node) int {
	if isLeaf(n.Label) {
		return utf8.RuneCountInString(leafText(n.Label))
	}
	return 1
}

// UpdateCost is the cost of relabelling a into b: the Levenshtein distance
// of the values when both are leaves, 1 + the leaf's length when only one
// is a leaf, and 0 or 1 (same or different key) when neither is.
func UpdateCost(a, b *Node) int {
	la, lb := isLeaf(a.Label), isLeaf(b.Label)
	switch {
	case la && lb:
		return Levenshtein(leafText(a.Label), leafText(b.Label))
	case lb:
		return 1 + utf8.RuneCountInString(leafText(b.Label))
	case la:
		return 1 + utf8.RuneCountInString(leafText(a.Label))
	case a.Label != b.Label:
		return 1
	}
	return 0
}

// Levenshtein returns the edit distance of a and b in code points, with
// unit costs for insertion, deletion and substitution.
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 {
		return len(rb)
	}
	if len(rb) == 0 {
		return len(ra)
	}
	row := make([]int, len(rb)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(rb); j++ {
			old := row[j]
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, diag+cost)
			diag = old
		}
	}
	return row[len(rb)]
}

// MaxTEDCells bounds the size of a tree edit distance: the product of the
// two trees' node counts. Larger inputs get ErrTreesTooLarge instead of
// exhausting memory (a CORD receipt has a few hundred nodes).
const MaxTEDCells = 1 << 22

// ErrTreesTooLarge is returned by [TED] for trees over MaxTEDCells.
var ErrTreesTooLarge = errors.New("donut: trees too large for tree edit distance")

// donutCosts are Donut's costs over two flattened trees, by postorder
// index: each node's label, whether it is a value, and its length.
type donutCosts struct {
	a, b side
}

type side struct {
	nodes []*Node
	leaf  []bool
	runes []int // a leaf's value length in code points
}

func flatten(root *Node) (*treedit.Tree, side) {
	var b treedit.Builder
	var s side
	var walk func(n *Node)
	walk = func(n *Node) {
		b.Enter()
		for _, c := range n.Children {
			walk(c)
		}
		b.Leave()
		leaf := isLeaf(n.Label)
		s.nodes = append(s.nodes, n)
		s.leaf = append(s.leaf, leaf)
		r := 0
		if leaf {
			r = utf8.RuneCountInString(leafText(n.Label))
		}
		s.runes = append(s.runes, r)
	}
	walk(root)
	t, err := b.Tree()
	if err != nil {
		panic(err) // walk leaves every node it enters
	}
	return t, s
}

func (c *donutCosts) Delete(i int) float64 { return float64(InsertCost(c.a.nodes[i])) }
func (c *donutCosts) Insert(j int) float64 { return float64(InsertCost(c.b.nodes[j])) }
func (c *donutCosts) Rename(i, j int) float64 {
	return float64(UpdateCost(c.a.nodes[i], c.b.nodes[j]))
}

// RenameAtLeast is the difference of the values' lengths for two leaves
// (a Levenshtein distance is at least that), the exact cost otherwise.
func (c *donutCosts) RenameAtLeast(i, j int) float64 {
	if c.a.leaf[i] && c.b.leaf[j] {
		d := c.a.runes[i] - c.b.runes[j]
		if d < 0 {
			d = -d
		}
		return float64(d)
	}
	return c.Rename(i, j)
}

// TED returns the tree edit distance from a to b under Donut's costs
// ([InsertCost] for insertions and removals, [UpdateCost] for relabels),
// computed with the Zhang–Shasha algorithm (scoring/internal/treedit), as
// the zss package does.
func TED(a, b *Node) (int, error) {
	ta, sa := flatten(a)
	tb, sb := flatten(b)
	if ta.Len()*tb.Len() > MaxTEDCells {
		return 0, ErrTreesTooLarge
	}
	d := treedit.Distance(ta, tb, &donutCosts{a: sa, b: sb}, nil)
	return int(d), nil
}
