package pagetext

import "fmt"

// OpKind is the kind of one step of an edit script.
type OpKind uint8

const (
	Match OpKind = iota // the two symbols are equal
	Sub                 // a ground-truth symbol read as another
	Del                 // a ground-truth symbol the OCR lacks
	Ins                 // an OCR symbol the ground truth lacks
)

// String is "=", "S", "D" or "I".
func (k OpKind) String() string { return [...]string{"=", "S", "D", "I"}[k] }

// Op is one step of an edit script: A indexes the ground truth (-1 for an
// insertion), B the OCR (-1 for a deletion).
type Op struct {
	Kind OpKind
	A, B int32
}

// AlignLimits bound an alignment's memory and work: FrontCells bounds the
// furthest-reaching points the diagonal-transition method keeps (4 bytes
// each; past it, the banded programme takes over), BandCells the cells of
// the banded programme's checkpoints and block (4 bytes each), WorkCells
// the cells it computes (twice the band's). Past either of the last two,
// Align returns a *WorkLimitError. Zero is the default: 8 Mi front
// cells, 16 Mi band cells, work unbounded.
//
// Cancel, when set, is asked between steps of an alignment: every 64
// fronts, every 64 rows of the distance, every 256 rows of the band and
// of each block of its trace back (on two 200,000-character pages, a few
// million cell updates, milliseconds). Once it returns an error, Align
// stops and returns it: Ctrl-C or a client that left stops even one long
// page.
type AlignLimits struct {
	FrontCells int
	BandCells  int
	WorkCells  int64
	Cancel     Cancel
}

// cancelled is lim.Cancel's error, nil without one.
func (lim AlignLimits) cancelled() error {
	if lim.Cancel == nil {
		return nil
	}
	return lim.Cancel.Err()
}

const (
	defaultFrontCells = 1 << 23 // 32 MB: about 2,900 edits
	defaultBandCells  = 1 << 24 // 64 MB
)

// WorkLimitError is an alignment its limits refuse: two long texts far
// apart. It is "too_much_work" in every host's error body (a 422 in the
// HTTP API).
type WorkLimitError struct {
	GT, OCR, Edits int // the two lengths and the distance
}

func (e *WorkLimitError) Error() string {
	return fmt.Sprintf("aligning %d ground-truth units with %d OCR units %d edits apart is over this host's work limit: score such pages with the command line (docscore score text)", e.GT, e.OCR, e.Edits)
}

// ErrorCode is "too_much_work".
func (e *WorkLimitError) ErrorCode() string { return "too_much_work" }

// Align returns the Levenshtein distance between a and b (symbol ids,
// each < symbols) and an optimal edit script, the one SPEC G.2 chooses:
// traced back from the end, a match is preferred, then a substitution,
// then a deletion, then an insertion. It is the script a full dynamic
// programme's trace back gives, computed in O((n+m)·d) time with O(d²)
// memory for d edits, or with a band of width about d and checkpointed
// rows beyond the limit on d².
func Align(a, b []int32, symbols int, lim AlignLimits) (int, []Op, error) {
	if lim.FrontCells <= 0 {
		lim.FrontCells = defaultFrontCells
	}
	if lim.BandCells <= 0 {
		lim.BandCells = defaultBandCells
	}
	d, ops, ok, err := alignFronts(a, b, lim)
	if err != nil || ok {
		return d, ops, err
	}
	// d edits were not enough: refuse before the distance's own work when
	// even a band for d + 1 edits is over the limits.
	if _, _, w := band(len(a), len(b), d+1); overLimits(len(a), w, lim.BandCells, lim.WorkCells) {
		return 0, nil, &WorkLimitError{GT: len(a), OCR: len(b), Edits: d + 1}
	}
	if d, err = distance(a, b, symbols, lim); err != nil {
		return 0, nil, err
	}
	ops, err = alignBand(a, b, d, lim)
	return d, ops, err
}

const negInf = -1 << 30

// alignFronts is the diagonal-transition alignment (Ukkonen 1985, Myers
// 1986, with substitutions as Landau and Vishkin have them): front e holds,
// for each diagonal k = j − i with |k| ≤ e, the furthest row reached with
// at most e edits. ok is false when the fronts would exceed
// lim.FrontCells.
func alignFronts(a, b []int32, lim AlignLimits) (int, []Op, bool, error) {
	n, m := len(a), len(b)
	// front e covers diagonals lo(e)..hi(e).
	lo := func(e int) int { return max(-e, -n) }
	hi := func(e int) int { return min(e, m) }
	// One slice a front: appending to one long slice moved most of
	// the memory again each time it grew. Out of cells, the result is
	// the last front's edits (a lower bound of the distance less one).
	var fronts [][]int32
	total := 0
	slide := func(i, k int) int {
		for i < n && i+k < m && a[i] == b[i+k] {
			i++
		}
		return i
	}
	get := func(e, k int) int {
		if e < 0 || k < lo(e) || k > hi(e) {
			return negInf
		}
		return int(fronts[e][k-lo(e)])
	}
	d := -1
	for e := 0; ; e++ {
		l, h := lo(e), hi(e)
		if total += h - l + 1; total > lim.FrontCells {
			return e - 1, nil, false, nil
		}
		if e%64 == 0 {
			if err := lim.cancelled(); err != nil {
				return 0, nil, false, err
			}
		}
		front := make([]int32, h-l+1)
		fronts = append(fronts, front)
		for k := l; k <= h; k++ {
			var i int
			if e == 0 {
				i = 0
			} else {
				i = max(get(e-1, k)+1, get(e-1, k-1), get(e-1, k+1)+1)
				i = min(i, n, m-k)
				if i < max(0, -k) {
					i = negInf
				}
			}
			if i != negInf {
				i = slide(i, k)
			}
			front[k-l] = int32(i)
		}
		if get(e, m-n) >= n {
			d = e
			break
		}
	}
	le := func(e, i, j int) bool { return get(e, j-i) >= i }
	ops := make([]Op, 0, max(n, m))
	i, j, e := n, m, d
	for i > 0 || j > 0 {
		switch {
		case i > 0 && j > 0 && a[i-1] == b[j-1]:
			i, j = i-1, j-1
			ops = append(ops, Op{Match, int32(i), int32(j)})
			continue
		case i > 0 && j > 0 && le(e-1, i-1, j-1):
			i, j = i-1, j-1
			ops = append(ops, Op{Sub, int32(i), int32(j)})
		case i > 0 && le(e-1, i-1, j):
			i--
			ops = append(ops, Op{Del, int32(i), -1})
		default:
			j--
			ops = append(ops, Op{Ins, -1, int32(j)})
		}
		e--
	}
	reverse(ops)
	return d, ops, true, nil
}

func reverse(ops []Op) {
	for x, y := 0, len(ops)-1; x < y; x, y = x+1, y-1 {
		ops[x], ops[y] = ops[y], ops[x]
	}
}

// alignBand traces the same script back through a dynamic programme
// restricted to the diagonals an optimal path can use (|k| + |m−n−k| ≤
// d), keeping every K-th row and recomputing the K rows of a block as the
// trace back enters it. Cells outside the band count as infinite: every
// cell of an optimal path is inside it, so its values and the trace
// back's choices are those of the full programme.
func alignBand(a, b []int32, d int, lim AlignLimits) ([]Op, error) {
	n, m := len(a), len(b)
	kLo, _, w := band(n, m, d)
	K := checkpointEvery(n)
	nCheck := n/K + 1
	if overLimits(n, w, lim.BandCells, lim.WorkCells) {
		return nil, &WorkLimitError{GT: n, OCR: m, Edits: d}
	}
	const inf = int32(1 << 30)
	// row i's cell for diagonal k is at [k-kLo]; j = i + k.
	fill := func(i int, prev, cur []int32) {
		for x := range w {
			k := kLo + x
			j := i + k
			if j < 0 || j > m {
				cur[x] = inf
				continue
			}
			if i == 0 {
				cur[x] = int32(j)
				continue
			}
			best := inf
			if j > 0 && prev[x] < inf { // (i-1, j-1): same diagonal
				c := prev[x]
				if a[i-1] != b[j-1] {
					c++
				}
				best = c
			}
			if x+1 < w && prev[x+1] < inf { // (i-1, j): diagonal k+1
				best = min(best, prev[x+1]+1)
			}
			if x > 0 && j > 0 && cur[x-1] < inf { // (i, j-1): diagonal k-1
				best = min(best, cur[x-1]+1)
			}
			cur[x] = best
		}
	}
	checks := make([]int32, nCheck*w)
	row := make([]int32, w)
	prev := make([]int32, w)
	for i := 0; i <= n; i++ {
		if i%256 == 0 {
			if err := lim.cancelled(); err != nil {
				return nil, err
			}
		}
		fill(i, prev, row)
		if i%K == 0 {
			copy(checks[(i/K)*w:], row)
		}
		prev, row = row, prev
	}
	block := make([]int32, (K+1)*w)
	at := func(base, i, j int) int32 {
		x := j - i - kLo
		if x < 0 || x >= w || j < 0 || j > m {
			return inf
		}
		return block[(i-base)*w+x]
	}
	ops := make([]Op, 0, max(n, m))
	i, j := n, m
	for i > 0 || j > 0 {
		base := (i - 1) / K * K
		if i == 0 {
			base = 0
		}
		copy(block[:w], checks[(base/K)*w:(base/K+1)*w])
		for r := base + 1; r <= min(base+K, n); r++ {
			if (r-base)%256 == 1 {
				if err := lim.cancelled(); err != nil {
					return nil, err
				}
			}
			fill(r, block[(r-1-base)*w:(r-base)*w], block[(r-base)*w:(r-base+1)*w])
		}
		for (i > base || (i == 0 && j > 0)) && (i > 0 || j > 0) {
			cur := at(base, i, j)
			switch {
			case i > 0 && j > 0 && a[i-1] == b[j-1]:
				i, j = i-1, j-1
				ops = append(ops, Op{Match, int32(i), int32(j)})
			case i > 0 && j > 0 && at(base, i-1, j-1)+1 == cur:
				i, j = i-1, j-1
				ops = append(ops, Op{Sub, int32(i), int32(j)})
			case i > 0 && at(base, i-1, j)+1 == cur:
				i--
				ops = append(ops, Op{Del, int32(i), -1})
			default:
				j--
				ops = append(ops, Op{Ins, -1, int32(j)})
			}
		}
	}
	reverse(ops)
	return ops, nil
}

// band is the diagonals k = j − i an optimal path of d edits can use
// between texts of n and m units, and their count.
func band(n, m, d int) (kLo, kHi, w int) {
	diff := m - n
	s := (d - abs(diff)) / 2
	kLo, kHi = min(0, diff)-s, max(0, diff)+s
	return kLo, kHi, kHi - kLo + 1
}

// checkpointEvery is the rows between checkpoints: ⌈√n⌉.
func checkpointEvery(n int) int {
	K := 1
	for K*K < n {
		K++
	}
	return K
}

// overLimits reports whether a band of width w over n rows needs more
// cells than maxCells or computes more than maxWork (0: no bound).
func overLimits(n, w, maxCells int, maxWork int64) bool {
	K := checkpointEvery(n)
	return (n/K+1+K+1)*w > maxCells || maxWork > 0 && 2*int64(n+1)*int64(w) > maxWork
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
