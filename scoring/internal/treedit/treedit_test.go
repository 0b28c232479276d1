package treedit

import (
	"math/rand/v2"
	"testing"
)

// tree is a random test tree: children per node in postorder, labels.
type node struct {
	label int
	kids  []*node
}

func randTree(r *rand.Rand, size int) *node {
	n := &node{label: r.IntN(3)}
	size--
	for size > 0 {
		k := 1 + r.IntN(size)
		n.kids = append(n.kids, randTree(r, k))
		size -= k
	}
	return n
}

func flat(root *node) (*Tree, []*node) {
	var b Builder
	var order []*node
	var walk func(n *node)
	walk = func(n *node) {
		b.Enter()
		for _, k := range n.kids {
			walk(k)
		}
		b.Leave()
		order = append(order, n)
	}
	walk(root)
	t, err := b.Tree()
	if err != nil {
		panic(err)
	}
	return t, order
}

type costs struct{ a, b []*node }

func (c costs) Delete(i int) float64 { return 1 + float64(c.a[i].label)/4 }
func (c costs) Insert(j int) float64 { return 1 + float64(c.b[j].label)/8 }
func (c costs) Rename(i, j int) float64 {
	if c.a[i].label == c.b[j].label {
		return 0
	}
	return 0.75 + float64(c.a[i].label+c.b[j].label)/10
}
func (c costs) RenameAtLeast(i, j int) float64 {
	if c.a[i].label == c.b[j].label {
		return 0
	}
	return 0.5
}

// forest is the textbook recursion on forests (the rightmost roots),
// memoized: the oracle.
func forest(a, b []*node, c func(x, y *node) float64, del, ins func(*node) float64) float64 {
	type key struct{ a, b string }
	memo := map[key]float64{}
	var enc func(f []*node) string
	enc = func(f []*node) string {
		s := ""
		for _, n := range f {
			s += "(" + string(rune('a'+n.label)) + enc(n.kids) + ")"
		}
		return s
	}
	var d func(f, g []*node) float64
	d = func(f, g []*node) float64 {
		k := key{enc(f), enc(g)}
		if v, ok := memo[k]; ok {
			return v
		}
		var v float64
		switch {
		case len(f) == 0 && len(g) == 0:
		case len(f) == 0:
			y := g[len(g)-1]
			v = d(f, append(append([]*node{}, g[:len(g)-1]...), y.kids...)) + ins(y)
		case len(g) == 0:
			x := f[len(f)-1]
			v = d(append(append([]*node{}, f[:len(f)-1]...), x.kids...), g) + del(x)
		default:
			x, y := f[len(f)-1], g[len(g)-1]
			v = min(
				d(append(append([]*node{}, f[:len(f)-1]...), x.kids...), g)+del(x),
				d(f, append(append([]*node{}, g[:len(g)-1]...), y.kids...))+ins(y),
				d(x.kids, y.kids)+d(f[:len(f)-1], g[:len(g)-1])+c(x, y),
			)
		}
		memo[k] = v
		return v
	}
	return d([]*node{a[len(a)-1]}, []*node{b[len(b)-1]})
}

// TestDistanceMatchesForestRecursion compares Zhang–Shasha, lazy leaves
// and pruning included, with the textbook recursion on random trees.
func TestDistanceMatchesForestRecursion(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var ws Workspace
	for range 400 {
		ta, na := flat(randTree(r, 1+r.IntN(12)))
		tb, nb := flat(randTree(r, 1+r.IntN(12)))
		c := costs{na, nb}
		got := Distance(ta, tb, c, &ws)
		want := forest(na, nb,
			func(x, y *node) float64 {
				if x.label == y.label {
					return 0
				}
				return 0.75 + float64(x.label+y.label)/10
			},
			func(x *node) float64 { return 1 + float64(x.label)/4 },
			func(y *node) float64 { return 1 + float64(y.label)/8 })
		if diff := got - want; diff > 1e-9 || diff < -1e-9 {
			t.Fatalf("Distance = %v, recursion %v", got, want)
		}
	}
}

func TestBuilderUnbalanced(t *testing.T) {
	var b Builder
	b.Enter()
	if _, err := b.Tree(); err == nil {
		t.Error("an open node gave a tree")
	}
}
