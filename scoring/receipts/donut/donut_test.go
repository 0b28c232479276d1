package donut

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

func mustParse(t testing.TB, s string) any {
	t.Helper()
	v, err := Parse([]byte(s))
	if err != nil {
		t.Fatalf("Parse(%s): %v", s, err)
	}
	return v
}

// The expected values were produced by running Donut's normalize_dict and
// flatten under CPython 3.11 on the same JSON.
func TestNormalizeFlattenPythonSemantics(t *testing.T) {
	in := `{"a": 0, "b": "", "c": " x ", "d": [1, 2.5, true, null, "y", {"z":1}, -0, 0.0],
		"e": {"f": "g"}, "gg": 1.0, "h": 1e16, "i": "  ", "jj": true, "k": false, "l": [],
		"m": [{}, {"n": null}], "o": [{"p": "q"}, {}], "é": "1", "z": "\u001f w \u00a0"}`
	got := Flatten(Normalize(mustParse(t, in)))
	want := []Field{
		{"c", "x"}, {"d", "1"}, {"d", "2.5"}, {"d", "y"}, {"d", "0"}, {"d", "0.0"}, {"e.f", "g"},
		{"h", "1e+16"}, {"i", ""}, {"o.p", "q"}, {"z", "w"}, {"é", "1"}, {"gg", "1.0"}, {"jj", "True"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Flatten(Normalize(...)):\n got %q\nwant %q", got, want)
	}
}

func TestNormalizeShapes(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`"abc"`, []any{"abc"}},
		{`[{"a":"b"}]`, []any{Dict{{Key: "a", Value: []any{"b"}}}}},
		{`["x", 3]`, []any{"x", "3"}},
		{`5`, []any{"5"}},
		{`true`, []any{"True"}},
		{`{}`, Dict{}},
		{`null`, Dict{}},
		{`0`, Dict{}},
		{`[]`, Dict{}},
		{`{"bb": "1", "a": "2", "ab": "3"}`, Dict{{"a", []any{"2"}}, {"ab", []any{"3"}}, {"bb", []any{"1"}}}},
	}
	for _, tc := range tests {
		got := Normalize(mustParse(t, tc.in))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Normalize(%s) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}

// The expected strings are CPython's str(json.loads(s)).
func TestPyFloat(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1.0", "1.0"}, {"2.5", "2.5"}, {"1e16", "1e+16"}, {"1e15", "1000000000000000.0"},
		{"1e-5", "1e-05"}, {"0.0001", "0.0001"}, {"123456789012345678.0", "1.2345678901234568e+17"},
		{"-0.0", "-0.0"}, {"1E400", "inf"}, {"-1e400", "-inf"}, {"0.1", "0.1"}, {"1e22", "1e+22"},
		{"1.5e-7", "1.5e-07"}, {"100.0", "100.0"}, {"-12.25", "-12.25"}, {"5e-324", "5e-324"},
		{"1.7976931348623157e308", "1.7976931348623157e+308"}, {"12345.678", "12345.678"},
		{"0.00012", "0.00012"}, {"9999999999999998.0", "9999999999999998.0"}, {"1e-4", "0.0001"},
		{"-0", "0"}, {"12", "12"}, {"-7", "-7"},
	}
	for _, tc := range tests {
		if got := pyStr(json.Number(tc.in)); got != tc.want {
			t.Errorf("pyStr(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func leaf(s string) *Node { return &Node{Label: LeafMark + s} }
func node(label string, kids ...*Node) *Node {
	return &Node{Label: label, Children: kids}
}

func TestTEDHandComputed(t *testing.T) {
	// <root>─menu─<subtree>─{nm─cake, cnt─2}: inserting it into an empty
	// tree costs 1 (menu) + 1 (<subtree>) + 1 (nm) + 4 (cake) + 1 (cnt) + 1 ("2").
	gt := node(RootLabel, node("menu", node(SubtreeLabel, node("nm", leaf("cake")), node("cnt", leaf("2")))))
	tests := []struct {
		name string
		pred *Node
		want int
	}{
		{"identical", gt, 0},
		{"empty", node(RootLabel), 9},
		{"one leaf character", node(RootLabel, node("menu", node(SubtreeLabel, node("nm", leaf("cake")), node("cnt", leaf("3"))))), 1},
		{"leaf grows", node(RootLabel, node("menu", node(SubtreeLabel, node("nm", leaf("cakes")), node("cnt", leaf("2"))))), 1},
		{"field dropped", node(RootLabel, node("menu", node(SubtreeLabel, node("nm", leaf("cake"))))), 2},
		{"key renamed", node(RootLabel, node("menu", node(SubtreeLabel, node("name", leaf("cake")), node("cnt", leaf("2"))))), 1},
		// a second item: <subtree> (1) + nm (1) + tea (3) to remove
		{"extra item", node(RootLabel, node("menu",
			node(SubtreeLabel, node("nm", leaf("cake")), node("cnt", leaf("2"))),
			node(SubtreeLabel, node("nm", leaf("tea"))))), 1 + 1 + 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := TED(tc.pred, gt)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("TED = %d, want %d", got, tc.want)
			}
			if back, _ := TED(gt, tc.pred); back != got {
				t.Errorf("TED is not symmetric under Donut's costs: %d vs %d", back, got)
			}
		})
	}
}

func TestUpdateCost(t *testing.T) {
	tests := []struct {
		a, b *Node
		want int
	}{
		{leaf("12,000"), leaf("12.000"), 1},
		{leaf("café"), leaf("cafe"), 1},
		{node("nm"), leaf("abc"), 4},
		{leaf("abc"), node("nm"), 4},
		{node("nm"), node("nm"), 0},
		{node("nm"), node("cnt"), 1},
		{leaf(""), leaf("ab"), 2},
	}
	for _, tc := range tests {
		if got := UpdateCost(tc.a, tc.b); got != tc.want {
			t.Errorf("UpdateCost(%q, %q) = %d, want %d", tc.a.Label, tc.b.Label, got, tc.want)
		}
	}
}

func TestAccuracyAndF1HandComputed(t *testing.T) {
	gt := mustParse(t, `{"menu": [{"nm": "cake", "cnt": "2"}], "total": {"total_price": "10"}}`)
	// Normalized, total's object becomes a one-element list, so its tree
	// is total─<subtree>─total_price─10. TED(∅, gt) inserts menu,
	// <subtree>, nm, cake (4), cnt, 2 (1), total, <subtree>, total_price and
	// 10 (2): 14.
	tests := []struct {
		name                string
		pred                string
		acc                 float64
		matched, nPred, nGT int
	}{
		{"identical", `{"total": {"total_price": "10"}, "menu": [{"cnt": "2", "nm": "cake"}]}`, 1, 3, 3, 3},
		{"empty", `{}`, 0, 0, 0, 3},
		{"wrong count", `{"menu": [{"nm": "cake", "cnt": "3"}], "total": {"total_price": "10"}}`, 1 - 1.0/14, 2, 3, 3},
		// total, <subtree>, total_price and 10 (2) to insert
		{"total missing", `{"menu": [{"nm": "cake", "cnt": "2"}]}`, 1 - 5.0/14, 2, 2, 3},
		// total and <subtree> inserted above total_price: 2; the field's
		// key path differs, so it does not match
		{"scalar total, not nested", `{"menu": [{"nm": "cake", "cnt": "2"}], "total_price": "10"}`, 1 - 2.0/14, 2, 3, 3},
		// costs more than building the ground truth from nothing: clamped to 0
		{"garbage", `{"x": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}`, 0, 0, 1, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pred := mustParse(t, tc.pred)
			acc, err := Accuracy(pred, gt)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(acc-tc.acc) > 1e-12 {
				t.Errorf("Accuracy = %v, want %v", acc, tc.acc)
			}
			m, p, g := FieldCounts(pred, gt)
			if m != tc.matched || p != tc.nPred || g != tc.nGT {
				t.Errorf("FieldCounts = %d, %d, %d; want %d, %d, %d", m, p, g, tc.matched, tc.nPred, tc.nGT)
			}
		})
	}
}

func TestF1(t *testing.T) {
	tests := []struct {
		m, p, g int
		want    float64
		ok      bool
	}{
		{3, 3, 3, 1, true},
		{1, 2, 2, 0.5, true},
		{0, 0, 4, 0, true},
		{2, 4, 2, 2.0 / 3, true},
		{0, 0, 0, 0, false},
	}
	for _, tc := range tests {
		got, ok := F1(tc.m, tc.p, tc.g)
		if ok != tc.ok || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("F1(%d, %d, %d) = %v, %v; want %v, %v", tc.m, tc.p, tc.g, got, ok, tc.want, tc.ok)
		}
	}
}

func TestAccuracyEmptyGroundTruth(t *testing.T) {
	if _, err := Accuracy(mustParse(t, `{"a": "b"}`), mustParse(t, `{"a": ""}`)); err != ErrEmptyGroundTruth {
		t.Errorf("Accuracy against an empty parse: err = %v, want ErrEmptyGroundTruth", err)
	}
}

// bruteTED is the textbook recursive forest edit distance, memoized on
// postorder ranges: the test oracle for the Zhang–Shasha implementation.
func bruteTED(a, b *Node) int {
	A, B := flattenPostorder(a), flattenPostorder(b)
	type key struct{ a1, b1, a2, b2 int }
	memo := map[key]int{}
	var dist func(a1, b1, a2, b2 int) int
	dist = func(a1, b1, a2, b2 int) int {
		// The forests are the postorder ranges [a1, b1] and [a2, b2].
		if a1 > b1 && a2 > b2 {
			return 0
		}
		k := key{a1, b1, a2, b2}
		if v, ok := memo[k]; ok {
			return v
		}
		var v int
		switch {
		case a1 > b1:
			v = dist(a1, b1, a2, b2-1) + InsertCost(B.nodes[b2])
		case a2 > b2:
			v = dist(a1, b1-1, a2, b2) + InsertCost(A.nodes[b1])
		default:
			v = min(
				dist(a1, b1-1, a2, b2)+InsertCost(A.nodes[b1]),
				dist(a1, b1, a2, b2-1)+InsertCost(B.nodes[b2]),
				dist(a1, A.lml[b1]-1, a2, B.lml[b2]-1)+dist(A.lml[b1], b1-1, B.lml[b2], b2-1)+UpdateCost(A.nodes[b1], B.nodes[b2]),
			)
		}
		memo[k] = v
		return v
	}
	return dist(1, len(A.nodes)-1, 1, len(B.nodes)-1)
}

func randomTree(rng *rand.Rand, size int) *Node {
	labels := []string{"menu", "nm", "cnt", SubtreeLabel}
	values := []string{"", "a", "ab", "12", "1,000", "x"}
	root := &Node{Label: RootLabel}
	all := []*Node{root}
	for i := 1; i < size; i++ {
		parent := all[rng.IntN(len(all))]
		var n *Node
		if rng.IntN(2) == 0 {
			n = leaf(values[rng.IntN(len(values))])
		} else {
			n = &Node{Label: labels[rng.IntN(len(labels))]}
		}
		parent.Children = append(parent.Children, n)
		all = append(all, n)
	}
	return root
}

func TestTEDMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for i := 0; i < 400; i++ {
		a := randomTree(rng, 1+rng.IntN(9))
		b := randomTree(rng, 1+rng.IntN(9))
		got, err := TED(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteTED(a, b); got != want {
			t.Fatalf("case %d: TED = %d, brute force = %d\na = %s\nb = %s", i, got, want, show(a), show(b))
		}
	}
}

func show(n *Node) string {
	s := n.Label
	if len(n.Children) > 0 {
		s += "("
		for i, c := range n.Children {
			if i > 0 {
				s += " "
			}
			s += show(c)
		}
		s += ")"
	}
	return s
}

func TestTreesTooLarge(t *testing.T) {
	big := &Node{Label: RootLabel}
	for i := 0; i < 3000; i++ {
		big.Children = append(big.Children, leaf(fmt.Sprint(i)))
	}
	if _, err := TED(big, big); err != ErrTreesTooLarge {
		t.Errorf("TED of two 3001-node trees: err = %v, want ErrTreesTooLarge", err)
	}
}

func TestParseRejectsTrailingData(t *testing.T) {
	for _, s := range []string{`{"a": 1} x`, `{"a": 1}{}`, `{"a"`, ``} {
		if _, err := Parse([]byte(s)); err == nil {
			t.Errorf("Parse(%q): no error", s)
		}
	}
}

// TestParseDiffersFromPython pins the two input differences Parse's doc
// comment states, so that the comment changes if the behaviour does.
func TestParseDiffersFromPython(t *testing.T) {
	for _, s := range []string{`"\ud800"`, `"\udfff"`, `"\ud800x"`} {
		v, err := Parse([]byte(s))
		if str, ok := v.(string); err != nil || !ok || []rune(str)[0] != '\uFFFD' {
			t.Errorf("Parse(%s) = %q, %v: want U+FFFD (Python keeps the surrogate)", s, v, err)
		}
	}
	for _, s := range []string{`NaN`, `Infinity`, `-Infinity`, `{"total": NaN}`} {
		if v, err := Parse([]byte(s)); err == nil {
			t.Errorf("Parse(%s) = %v, want an error (Python accepts it)", s, v)
		}
	}
}

// postorder is a tree flattened for the brute-force oracle: nodes in
// postorder (1-based; index 0 is the empty forest) and each node's
// leftmost leaf descendant.
type postorder struct {
	nodes []*Node
	lml   []int
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
	return p
}
