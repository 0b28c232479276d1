package donut

import (
	"errors"
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

// postorder is a tree flattened for Zhang–Shasha: nodes in postorder
// (1-based; index 0 is the empty forest), each node's leftmost leaf
// descendant, and the keyroots in increasing order.
type postorder struct {
	nodes    []*Node
	lml      []int
	keyroots []int
}

func flattenPostorder(root *Node) postorder {
	p := postorder{nodes: []*Node{nil}, lml: []int{0}}
	var walk func(n *Node) int
	walk = func(n *Node) int {
		first := 0
		for i, c := range n.Children {
			l := walk(c)
			if i == 0 {
				first = l
			}
		}
		p.nodes = append(p.nodes, n)
		idx := len(p.nodes) - 1
		if len(n.Children) == 0 {
			first = idx
		}
		p.lml = append(p.lml, first)
		return first
	}
	walk(root)
	// A keyroot is the root or any node with a left sibling: the highest
	// node for each distinct leftmost leaf.
	seen := make(map[int]bool, len(p.nodes))
	for i := len(p.nodes) - 1; i >= 1; i-- {
		if !seen[p.lml[i]] {
			seen[p.lml[i]] = true
			p.keyroots = append(p.keyroots, i)
		}
	}
	for i, j := 0, len(p.keyroots)-1; i < j; i, j = i+1, j-1 {
		p.keyroots[i], p.keyroots[j] = p.keyroots[j], p.keyroots[i]
	}
	return p
}

// TED returns the tree edit distance from a to b under Donut's costs
// ([InsertCost] for insertions and removals, [UpdateCost] for relabels),
// computed with the Zhang–Shasha algorithm, as the zss package does.
func TED(a, b *Node) (int, error) {
	A, B := flattenPostorder(a), flattenPostorder(b)
	n, m := len(A.nodes)-1, len(B.nodes)-1
	if n*m > MaxTEDCells {
		return 0, ErrTreesTooLarge
	}
	w := m + 1
	td := make([]int, (n+1)*w)
	fd := make([]int, (n+1)*w)
	del := make([]int, n+1)
	for i := 1; i <= n; i++ {
		del[i] = InsertCost(A.nodes[i])
	}
	ins := make([]int, m+1)
	for j := 1; j <= m; j++ {
		ins[j] = InsertCost(B.nodes[j])
	}
	upd := make([]int, (n+1)*w)
	for i := range upd {
		upd[i] = -1
	}
	update := func(x, y int) int {
		c := upd[x*w+y]
		if c < 0 {
			c = UpdateCost(A.nodes[x], B.nodes[y])
			upd[x*w+y] = c
		}
		return c
	}
	for _, i := range A.keyroots {
		for _, j := range B.keyroots {
			li, lj := A.lml[i], B.lml[j]
			fd[(li-1)*w+lj-1] = 0
			for x := li; x <= i; x++ {
				fd[x*w+lj-1] = fd[(x-1)*w+lj-1] + del[x]
			}
			for y := lj; y <= j; y++ {
				fd[(li-1)*w+y] = fd[(li-1)*w+y-1] + ins[y]
			}
			for x := li; x <= i; x++ {
				for y := lj; y <= j; y++ {
					remove := fd[(x-1)*w+y] + del[x]
					insert := fd[x*w+y-1] + ins[y]
					if A.lml[x] == li && B.lml[y] == lj {
						v := min(remove, insert, fd[(x-1)*w+y-1]+update(x, y))
						fd[x*w+y] = v
						td[x*w+y] = v
					} else {
						fd[x*w+y] = min(remove, insert, fd[(A.lml[x]-1)*w+B.lml[y]-1]+td[x*w+y])
					}
				}
			}
		}
	}
	return td[n*w+m], nil
}
