// Package treedit computes the tree edit distance of two ordered trees
// exactly, with the Zhang–Shasha algorithm, under costs its caller gives:
// a deletion and an insertion cost per node and a rename cost per pair.
// It is shared by the Donut TED of receipts and the TEDS of tables.
//
// A tree is flattened once ([Builder]) into postorder arrays; [Distance]
// then runs in two reused float64 tables and allocates nothing once its
// [Workspace] has grown. A rename cost is asked for only when it can
// change the result: the caller's lower bound is tried first, so an
// expensive cost (a Levenshtein distance) is skipped where a deletion
// and an insertion already do at least as well.
//
// Two leaves that are both keyroots are not compared up front: their
// distance, min(delete + insert, rename), is kept as a lower bound until
// a larger forest reads it, and computed only where the bound does not
// already lose. A table's cells are mostly such leaves, so most pairs of
// cells that no alignment puts together never have their contents
// compared.
package treedit

import "errors"

// Tree is an ordered tree flattened for Zhang–Shasha: for each node in
// postorder (0-based), the postorder index of its leftmost leaf
// descendant, and the keyroots — the root and every node with a left
// sibling — in increasing order.
type Tree struct {
	lml      []int32
	keyroots []int32
}

// Len returns the number of nodes of the tree.
func (t *Tree) Len() int { return len(t.lml) }

// Builder flattens a tree walked depth first: Enter on reaching a node,
// Leave when all its children have been left. Leave returns the node's
// postorder index, by which the caller keys its costs.
// The zero value is ready to use.
type Builder struct {
	t     Tree
	stack []int32 // per open node: its leftmost leaf, -1 while unknown
}

// Enter opens a node, a child of the node open before it.
func (b *Builder) Enter() { b.stack = append(b.stack, -1) }

// Leave closes the node opened last and returns its postorder index.
func (b *Builder) Leave() int {
	top := len(b.stack) - 1
	idx := int32(len(b.t.lml))
	l := b.stack[top]
	if l < 0 { // a leaf
		l = idx
	}
	b.stack = b.stack[:top]
	if top > 0 && b.stack[top-1] < 0 {
		b.stack[top-1] = l // the first child gives its parent's leftmost leaf
	}
	b.t.lml = append(b.t.lml, l)
	return int(idx)
}

// Tree returns the tree built, once every node entered has been left,
// and resets the builder.
func (b *Builder) Tree() (*Tree, error) {
	if len(b.stack) != 0 {
		return nil, errors.New("treedit: a node was entered and never left")
	}
	t := b.t
	b.t = Tree{}
	// A keyroot is the highest node of each leftmost leaf: walking down
	// from the root, the first node seen for each leaf.
	seen := make([]bool, len(t.lml))
	for i := len(t.lml) - 1; i >= 0; i-- {
		if !seen[t.lml[i]] {
			seen[t.lml[i]] = true
			t.keyroots = append(t.keyroots, int32(i))
		}
	}
	for i, j := 0, len(t.keyroots)-1; i < j; i, j = i+1, j-1 {
		t.keyroots[i], t.keyroots[j] = t.keyroots[j], t.keyroots[i]
	}
	return &t, nil
}

// Costs are the costs of editing tree a into tree b, by postorder index.
type Costs interface {
	// Delete is the cost of deleting node i of a.
	Delete(i int) float64
	// Insert is the cost of inserting node j of b.
	Insert(j int) float64
	// Rename is the cost of renaming node i of a into node j of b.
	Rename(i, j int) float64
	// RenameAtLeast is a lower bound of Rename(i, j), cheap to compute;
	// Rename is not called where the bound already loses.
	RenameAtLeast(i, j int) float64
}

// Workspace holds Distance's tables between calls. The zero value is
// ready to use; a Workspace is not safe for concurrent use.
type Workspace struct {
	td, fd   []float64
	del, ins []float64
	lmlB     []int32
}

func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// Cells returns the size of Distance's tables for trees of n and m
// nodes, the measure a caller bounds work and memory by: two float64
// tables of (n+1)·(m+1) entries.
func Cells(n, m int) int { return (n + 1) * (m + 1) }

// Distance returns the tree edit distance from a to b under c, computed
// with Zhang–Shasha's keyroot recurrence in ws (nil for a fresh one).
// The sums are added in a fixed order, so the same trees and costs give
// the same bits on every platform.
func Distance(a, b *Tree, c Costs, ws *Workspace) float64 {
	if ws == nil {
		ws = new(Workspace)
	}
	n, m := a.Len(), b.Len()
	if n == 0 || m == 0 {
		s := 0.0
		for i := range n {
			s += c.Delete(i)
		}
		for j := range m {
			s += c.Insert(j)
		}
		return s
	}
	w := m + 1
	ws.td = grow(ws.td, (n+1)*w)
	ws.fd = grow(ws.fd, (n+1)*w)
	ws.del = grow(ws.del, n+1)
	ws.ins = grow(ws.ins, m+1)
	td, fd, del, ins := ws.td, ws.fd, ws.del, ws.ins
	// 1-based from here: index 0 is the empty forest.
	for i := 1; i <= n; i++ {
		del[i] = c.Delete(i - 1)
	}
	for j := 1; j <= m; j++ {
		ins[j] = c.Insert(j - 1)
	}
	// lmlB[y] is the 1-based leftmost leaf of b's node y (1-based).
	ws.lmlB = grow32(ws.lmlB, m+1)
	lmlB := ws.lmlB
	for y := 1; y <= m; y++ {
		lmlB[y] = b.lml[y-1] + 1
	}
	// exact resolves a pair of leaves whose distance was left lazy.
	exact := func(x, y int) float64 {
		v := del[x] + ins[y]
		if r := c.Rename(x-1, y-1); r < v {
			v = r
		}
		td[x*w+y] = v
		return v
	}
	for _, ki := range a.keyroots {
		i := int(ki) + 1
		li := int(a.lml[ki]) + 1
		for _, kj := range b.keyroots {
			j := int(kj) + 1
			lj := int(b.lml[kj]) + 1
			if i == li && j == lj {
				// Two leaves: their distance is min(delete + insert,
				// rename), kept lazy as -1 - a lower bound until a
				// larger forest needs it (see the package doc).
				v := del[i] + ins[j]
				if r := c.RenameAtLeast(i-1, j-1); r < v {
					v = r
				}
				td[i*w+j] = -1 - v
				continue
			}
			fd[(li-1)*w+lj-1] = 0
			for x := li; x <= i; x++ {
				fd[x*w+lj-1] = fd[(x-1)*w+lj-1] + del[x]
			}
			row := fd[(li-1)*w : li*w]
			for y := lj; y <= j; y++ {
				row[y] = row[y-1] + ins[y]
			}
			insj := ins[lj : j+1]
			lmlj := lmlB[lj : j+1]
			for x := li; x <= i; x++ {
				dx := del[x]
				lx := int(a.lml[x-1]) + 1
				prev := fd[(x-1)*w+lj-1 : (x-1)*w+j+1]
				cur := fd[x*w+lj-1 : x*w+j+1]
				tdRow := td[x*w+lj : x*w+j+1]
				if lx == li {
					for k := range insj {
						y := lj + k
						best := prev[k+1] + dx
						if v := cur[k] + insj[k]; v < best {
							best = v
						}
						if int(lmlj[k]) == lj {
							diag := prev[k]
							if diag+c.RenameAtLeast(x-1, y-1) < best {
								if v := diag + c.Rename(x-1, y-1); v < best {
									best = v
								}
							}
							cur[k+1] = best
							tdRow[k] = best
						} else {
							f := fd[(lx-1)*w+int(lmlj[k])-1]
							t := tdRow[k]
							if t < 0 {
								if f+(-1-t) >= best {
									cur[k+1] = best
									continue
								}
								t = exact(x, y)
							}
							if v := f + t; v < best {
								best = v
							}
							cur[k+1] = best
						}
					}
				} else {
					forest := fd[(lx-1)*w : lx*w]
					c := cur[0]
					for k, ik := range insj {
						best := prev[k+1] + dx
						if v := c + ik; v < best {
							best = v
						}
						f := forest[lmlj[k]-1]
						t := tdRow[k]
						if t < 0 {
							if f+(-1-t) >= best {
								cur[k+1] = best
								c = best
								continue
							}
							t = exact(x, lj+k)
						}
						if v := f + t; v < best {
							best = v
						}
						cur[k+1] = best
						c = best
					}
				}
			}
		}
	}
	if v := td[n*w+m]; v >= 0 {
		return v
	}
	return exact(n, m) // two one-node trees
}

// Work returns the sum of the sizes of the tree's keyroot subtrees:
// Distance visits Work(a)·Work(b) entries of its tables, the measure of
// its time.
func (t *Tree) Work() int {
	s := 0
	for _, k := range t.keyroots {
		s += int(k) - int(t.lml[k]) + 1
	}
	return s
}
