package tables

import (
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/text"
)

// GriTSScores are table-transformer's grits_from_html metrics: GriTS-Top
// (topology: the relative span of each grid cell's cell) and GriTS-Con
// (content: each grid cell's text), each an F-score with its precision,
// recall and the upper bound the factored search gives.
type GriTSScores struct {
	Top, TopPrecision, TopRecall, TopUpperBound float64
	Con, ConPrecision, ConRecall, ConUpperBound float64
}

// DefaultMaxGridPairs is the work cap on one GriTS when GriTSOptions
// leaves it zero: the product of the two grids' cell counts (a
// 40-by-25 table against another).
const DefaultMaxGridPairs = 1 << 20

// GriTSOptions bound GriTS's work.
type GriTSOptions struct {
	// MaxGridPairs caps rows×columns of one grid times rows×columns of
	// the other; 0 is DefaultMaxGridPairs.
	MaxGridPairs int
	// MaxSpan caps a colspan or rowspan (larger ones count as the cap);
	// 0 is 1,000.
	MaxSpan int
}

// gridCell is one cell as html_to_cells lists it.
type gridCell struct {
	rows, cols [2]int // [first, last+1)
	text       string
	header     bool // a th, or under a th or thead (is_column_header)
}

// grid is a table laid out on its grid: per position, the text and the
// relative span of the cell covering it.
type grid struct {
	r, c int
	text []string
	span [][4]int
}

// cells lays out a table as html_to_cells does: a preorder walk in which
// every tr starts a new row and every td or th takes the first free
// column of its row (free: not covered by an earlier cell's rowspan),
// its text the text nodes under it joined by single spaces. A span that
// is not a positive integer counts as 1.
func cells(root *Node, maxSpan int) []gridCell {
	var out []gridCell
	occupied := map[int]map[int]bool{}
	row := -1
	var walk func(n *Node, inHeader bool)
	walk = func(n *Node, inHeader bool) {
		if n.Tag == "tr" {
			row++
		}
		if (n.Tag == "td" || n.Tag == "th") && row < 0 {
			row = 0 // a cell before any row: grits.py indexes row -1
		}
		if n.Tag == "td" || n.Tag == "th" {
			cs, rs := gridSpan(n, "colspan", maxSpan), gridSpan(n, "rowspan", maxSpan)
			col := 0
			if occ := occupied[row]; len(occ) > 0 {
				for occ[col] {
					col++
				}
			}
			for r := row; r < row+rs; r++ {
				if occupied[r] == nil {
					occupied[r] = map[int]bool{}
				}
				for c := col; c < col+cs; c++ {
					occupied[r][c] = true
				}
			}
			out = append(out, gridCell{rows: [2]int{row, row + rs}, cols: [2]int{col, col + cs}, text: itertext(n),
				header: n.Tag == "th" || inHeader})
		}
		for _, c := range n.Children {
			if c.Tag != "" {
				walk(c, inHeader || n.Tag == "th" || n.Tag == "thead")
			}
		}
	}
	walk(root, false)
	return out
}

// gridSpan reads a span for the grid: int(v) when v is a positive integer
// (capped), 1 otherwise.
func gridSpan(n *Node, key string, maxSpan int) int {
	v, ok := n.Attr(key)
	if !ok {
		return 1
	}
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || i < 1 {
		return 1
	}
	return min(i, maxSpan)
}

// itertext is " ".join(element.itertext()): the non-empty text nodes
// under n, in order, joined by single spaces.
func itertext(n *Node) string {
	var parts []string
	var walk func(n *Node)
	walk = func(n *Node) {
		for _, c := range n.Children {
			if c.Tag == "" {
				if c.Text != "" {
					parts = append(parts, c.Text)
				}
				continue
			}
			walk(c)
		}
	}
	walk(n)
	return strings.Join(parts, " ")
}

// layout is cells_to_grid and cells_to_relspan_grid: a grid as large as
// the cells reach, later cells overwriting earlier ones. Positions no
// cell covers (ragged rows, where table-transformer's code fails) hold an
// empty one-by-one cell. No cells is a grid of one row and no columns,
// as numpy's [[]].
func layout(cs []gridCell) grid {
	if len(cs) == 0 {
		return grid{r: 1}
	}
	g := grid{}
	for _, c := range cs {
		g.r, g.c = max(g.r, c.rows[1]), max(g.c, c.cols[1])
	}
	g.text = make([]string, g.r*g.c)
	g.span = make([][4]int, g.r*g.c)
	for i := range g.span {
		g.span[i] = [4]int{0, 0, 1, 1}
	}
	for _, c := range cs {
		for r := c.rows[0]; r < c.rows[1]; r++ {
			for col := c.cols[0]; col < c.cols[1]; col++ {
				g.text[r*g.c+col] = c.text
				g.span[r*g.c+col] = [4]int{c.cols[0] - col, c.rows[0] - r, c.cols[1] - col, c.rows[1] - r}
			}
		}
	}
	return g
}

// iou is grits.py's iou of two boxes with PyMuPDF's Rect: the area of the
// intersection (0 when empty) over the area of the smallest box holding
// both.
func iou(a, b [4]int) float64 {
	ix0, iy0, ix1, iy1 := max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
	inter := 0
	if ix1 > ix0 && iy1 > iy0 {
		inter = (ix1 - ix0) * (iy1 - iy0)
	}
	ux0, uy0, ux1, uy1 := min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])
	union := (ux1 - ux0) * (uy1 - uy0)
	if union > 0 {
		return float64(inter) / float64(union)
	}
	return 0
}

// fscore is grits.py's compute_fscore(tp, numTrue, numPositives).
func fscore(tp float64, numTrue, numPos int) (f, p, r float64) {
	p, r = 1, 1
	if numPos > 0 {
		p = tp / float64(numPos)
	}
	if numTrue > 0 {
		r = tp / float64(numTrue)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return f, p, r
}

// mss is grits.py's factored_2dmss over precomputed rewards,
// reward(tr, tc, pr, pc) = rw[((tr*tc0+tc)*pr0+pr)*pc0+pc].
type mss struct {
	tr, tc, pr, pc int
	rw             []float64
	scores         []float64
	ptr            []int8
	inner          []float64
}

func (m *mss) reward(tr, tc, pr, pc int) float64 {
	return m.rw[((tr*m.tc+tc)*m.pr+pr)*m.pc+pc]
}

// align1d is align_1d's score of true row (or column) a against
// predicted b, transposed when cols.
func (m *mss) align1d(a, b int, transpose bool) float64 {
	n1, n2 := m.tc, m.pc
	if transpose {
		n1, n2 = m.tr, m.pr
	}
	w := n2 + 1
	if cap(m.inner) < (n1+1)*w {
		m.inner = make([]float64, (n1+1)*w)
	}
	s := m.inner[:(n1+1)*w]
	clear(s[:w])
	for i := 1; i <= n1; i++ {
		s[i*w] = 0
		for j := 1; j <= n2; j++ {
			var rw float64
			if transpose {
				rw = m.reward(i-1, a, j-1, b)
			} else {
				rw = m.reward(a, i-1, b, j-1)
			}
			diag := s[(i-1)*w+j-1] + rw
			left := s[i*w+j-1]
			up := s[(i-1)*w+j]
			s[i*w+j] = max3(diag, up, left)
		}
	}
	return s[n1*w+n2]
}

// max3 is Python's max(a, b, c) over floats that are never NaN.
func max3(a, b, c float64) float64 {
	m := a
	if b > m {
		m = b
	}
	if c > m {
		m = c
	}
	return m
}

// align2d is align_2d_outer: the alignment of the true rows (columns
// when transpose) with the predicted ones, each pair scored by align1d;
// it returns the aligned indices and the score.
func (m *mss) align2d(transpose bool) (ti, pi []int, score float64) {
	n1, n2 := m.tr, m.pr
	if transpose {
		n1, n2 = m.tc, m.pc
	}
	w := n2 + 1
	scores := make([]float64, (n1+1)*w)
	ptr := make([]int8, (n1+1)*w)
	for i := 1; i <= n1; i++ {
		ptr[i*w] = -1
	}
	for j := 1; j <= n2; j++ {
		ptr[j] = 1
	}
	for i := 1; i <= n1; i++ {
		for j := 1; j <= n2; j++ {
			rw := m.align1d(i-1, j-1, transpose)
			diag := scores[(i-1)*w+j-1] + rw
			sameRow := scores[i*w+j-1]
			sameCol := scores[(i-1)*w+j]
			best := max3(diag, sameCol, sameRow)
			scores[i*w+j] = best
			switch best {
			case diag:
				ptr[i*w+j] = 0
			case sameCol:
				ptr[i*w+j] = -1
			default:
				ptr[i*w+j] = 1
			}
		}
	}
	i, j := n1, n2
	for i != 0 || j != 0 {
		switch ptr[i*w+j] {
		case -1:
			i--
		case 1:
			j--
		default:
			i--
			j--
			ti = append(ti, i)
			pi = append(pi, j)
		}
	}
	for a, b := 0, len(ti)-1; a < b; a, b = a+1, b-1 {
		ti[a], ti[b] = ti[b], ti[a]
		pi[a], pi[b] = pi[b], pi[a]
	}
	return ti, pi, scores[n1*w+n2]
}

// factored2dmss is factored_2dmss: fscore, precision, recall and upper
// bound.
func (m *mss) factored2dmss() (f, p, r, ub float64) {
	numPos, numTrue := m.pr*m.pc, m.tr*m.tc
	trows, prows, rowScore := m.align2d(false)
	tcols, pcols, colScore := m.align2d(true)
	ub, _, _ = fscore(min(rowScore, colScore), numPos, numTrue)
	tp := 0.0
	for k := range trows {
		for l := range tcols {
			tp += m.reward(trows[k], tcols[l], prows[k], pcols[l])
		}
	}
	f, p, r = fscore(tp, numTrue, numPos)
	return f, p, r, ub
}

// GriTS returns table-transformer's grits_from_html of a predicted table
// against its ground truth. A nil table is one without cells. Pairs over
// the work cap are ErrTooLarge.
func GriTS(pred, gt *Node, o GriTSOptions) (GriTSScores, error) {
	maxSpan := o.MaxSpan
	if maxSpan <= 0 {
		maxSpan = 1000
	}
	limit := o.MaxGridPairs
	if limit <= 0 {
		limit = DefaultMaxGridPairs
	}
	var tc, pc []gridCell
	if gt != nil {
		tc = cells(gt, maxSpan)
	}
	if pred != nil {
		pc = cells(pred, maxSpan)
	}
	tg, pg := layout(tc), layout(pc)
	if tg.r*tg.c > limit || pg.r*pg.c > limit || tg.r*tg.c*pg.r*pg.c > limit {
		return GriTSScores{}, ErrTooLarge
	}
	var s GriTSScores
	m := &mss{tr: tg.r, tc: tg.c, pr: pg.r, pc: pg.c, rw: make([]float64, tg.r*tg.c*pg.r*pg.c)}
	// Topology: IoU of relative spans.
	k := 0
	for t := range tg.r * tg.c {
		for q := range pg.r * pg.c {
			m.rw[k] = iou(tg.span[t], pg.span[q])
			k++
		}
	}
	s.Top, s.TopPrecision, s.TopRecall, s.TopUpperBound = m.factored2dmss()
	// Content: lcs_similarity of texts, each distinct pair once.
	var matcher text.Matcher
	memo := map[[2]string]float64{}
	runes := map[string][]rune{}
	rs := func(s string) []rune {
		r, ok := runes[s]
		if !ok {
			r = []rune(s)
			runes[s] = r
		}
		return r
	}
	k = 0
	for t := range tg.r * tg.c {
		for q := range pg.r * pg.c {
			a, b := tg.text[t], pg.text[q]
			v, ok := memo[[2]string{a, b}]
			if !ok {
				v = matcher.Ratio(rs(a), rs(b))
				memo[[2]string{a, b}] = v
			}
			m.rw[k] = v
			k++
		}
	}
	s.Con, s.ConPrecision, s.ConRecall, s.ConUpperBound = m.factored2dmss()
	return s, nil
}
