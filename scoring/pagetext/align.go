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
// each; past it, the bit-parallel band takes over), BandCells the cells
// of the programme the band's checkpoints and trace-back segment hold (64
// a machine word, 20 bytes a word with its score), WorkCells the cells
// the band computes, all its passes and its trace back together (64 a
// word step, counted as the band's unpruned width: a pass counts twice
// before it runs, for the trace back's recomputing at most as much, and
// once after it did not hold the distance, having traced nothing back).
// Past either of the last two, Align returns a *WorkLimitError before
// the pass that would pass it. Zero is the default: 1 Mi front cells, 256 Mi band
// cells (80 MB, two 200,000-character pages at any distance), work
// unbounded.
//
// Cancel, when set, is asked between steps of an alignment: every 64
// fronts, and every 256 columns of each pass of the band and of each
// segment its trace back recomputes (on two 200,000-character pages at
// most 800,000 word steps, a few milliseconds). Once it returns an error,
// Align stops and returns it: Ctrl-C or a client that left stops even one
// long page.
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
	defaultFrontCells = 1 << 20 // 4 MB: about 1,000 edits
	defaultBandCells  = 1 << 28 // 80 MB of bit-vectors
)

// WorkLimitError is an alignment its limits refuse: two long texts far
// apart. It is "too_much_work" in every host's error body (a 422 in the
// HTTP API).
type WorkLimitError struct {
	GT, OCR int // the two lengths
	Edits   int // a lower bound of the distance, as far as the passes that ran showed
}

func (e *WorkLimitError) Error() string {
	return fmt.Sprintf("aligning %d ground-truth units with %d OCR units at least %d edits apart is over this host's work limit: score such pages with the command line (docscore score text)", e.GT, e.OCR, e.Edits)
}

// ErrorCode is "too_much_work".
func (e *WorkLimitError) ErrorCode() string { return "too_much_work" }

// Align returns the Levenshtein distance between a and b (symbol ids,
// each < symbols) and an optimal edit script, the one SPEC G.2 chooses:
// traced back from the end, a match is preferred, then a substitution,
// then a deletion, then an insertion. It is the script a full dynamic
// programme's trace back gives, computed in O((n+m)·d) time with O(d²)
// memory for d edits while d² is under lim.FrontCells, and otherwise by
// a bit-parallel band of width about d: O(m·d/64) word steps with
// O(√m·d/64) words of checkpoints.
//
// The band's first pass is narrow (the fewest edits the
// diagonal-transition method left possible, or the corners' diagonals
// and 256 more); when the distance is more, that pass's value at the end
// is an upper bound of it, tightened by a few wider probes while they
// are cheap and help, and a last pass as wide as the tightest bound
// holds an optimal path, leaving out (Ukkonen's cutoff) the blocks no
// path of that many edits crosses.
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
	n, m := len(a), len(b)
	least := max(d+1, abs(m-n)) // the distance is at least this
	// The first pass is a narrow band, at most probeSlack diagonals
	// beside those between the two corners: when it is not enough, its
	// value at the end is an upper bound of the distance. A path that
	// wanders off the corners' diagonals (insertions and deletions out of
	// balance over a long stretch) makes that bound loose, and the pruned
	// pass's cost grows with its bound: so probes twice as wide follow
	// while each tightens the bound by more than 1 % and costs at most an
	// eighth of a pass as wide as the bound. The last pass is pruned
	// (Ukkonen's cut-off) with the tightest bound.
	k := min(least, abs(m-n)+probeSlack)
	var work int64
	prune := false
	best := bandInf // the tightest upper bound of the distance so far
	for {
		words, widest := bandCosts(n, m, k)
		work += 2 * 64 * words
		K := checkpointEvery(m)
		if (m/K+K+2)*widest*64 > lim.BandCells || lim.WorkCells > 0 && work > lim.WorkCells {
			return 0, nil, &WorkLimitError{GT: n, OCR: m, Edits: least}
		}
		dist, ops, err := alignBits(a, b, symbols, k, prune, lim)
		if err != nil || dist <= k {
			return dist, ops, err
		}
		work -= 64 * words // it traced nothing back
		least = max(least, k+1)
		if !prune && 100*dist < 99*best && 2*k < dist {
			probe, _ := bandCosts(n, m, 2*k)
			pass, _ := bandCosts(n, m, dist)
			if 8*probe <= pass {
				best, k = dist, 2*k
				continue
			}
		}
		k, prune = min(dist, best), true
	}
}

// probeSlack is the first pass's diagonals beyond those between the
// corners: 4 blocks of rows a column.
const probeSlack = 256

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
		// prev is front e−1 over diagonals pl..ph; out of them, negInf.
		var prev []int32
		pl, ph := 0, -1
		if e > 0 {
			prev, pl, ph = fronts[e-1], lo(e-1), hi(e-1)
		}
		for k := l; k <= h; k++ {
			i := 0
			if e > 0 {
				i = negInf + 1
				if k >= pl && k <= ph {
					i = int(prev[k-pl]) + 1
				}
				if k-1 >= pl && k-1 <= ph {
					i = max(i, int(prev[k-1-pl]))
				}
				if k+1 >= pl && k+1 <= ph {
					i = max(i, int(prev[k+1-pl])+1)
				}
				i = min(i, n, m-k)
				if i < max(0, -k) {
					i = negInf
				}
			}
			if i != negInf {
				for i < n && i+k < m && a[i] == b[i+k] {
					i++
				}
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

// band is the diagonals k = j − i an optimal path of d edits can use
// between texts of n and m units, and their count.
func band(n, m, d int) (kLo, kHi, w int) {
	diff := m - n
	s := (d - abs(diff)) / 2
	kLo, kHi = min(0, diff)-s, max(0, diff)+s
	return kLo, kHi, kHi - kLo + 1
}

// bandCosts are the words one pass of the band of k edits computes
// between texts of n and m units (n, m ≥ 1), and its widest column in
// words.
func bandCosts(n, m, k int) (words int64, widest int) {
	s := &bitBand{n: n, m: m}
	s.setBand(k)
	return s.costs()
}

// checkpointEvery is the columns between checkpoints: ⌈√n⌉.
func checkpointEvery(n int) int {
	K := 1
	for K*K < n {
		K++
	}
	return K
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
