package text

import (
	"github.com/agnivade/levenshtein"
)

// Levenshtein returns the edit distance between a and b in Unicode code
// points (insertions, deletions and substitutions each cost 1).
func Levenshtein(a, b string) int {
	if a == b {
		return 0
	}
	return levenshtein.ComputeDistance(a, b)
}

// CharAccuracy returns 1 − Levenshtein(gt, model)/len(gt) in code points,
// clamped to [0, 1] (SPEC A.3). An empty gt scores 1 against an empty
// model value and 0 otherwise.
func CharAccuracy(gt, model string) float64 {
	if gt == model {
		return 1
	}
	n := RuneCount(gt)
	if n == 0 {
		return 0
	}
	acc := 1 - float64(Levenshtein(gt, model))/float64(n)
	if acc < 0 {
		return 0
	}
	return acc
}

// RuneCount returns the number of code points in s.
func RuneCount(s string) int {
	n := 0
	for range s {
		n++
	}
	return n
}

// Wildcard is the ground-truth marker of one glyph the transcriber could
// not read.
const Wildcard = '?'

// WildcardAligner computes edit distances in which a Wildcard in the
// ground truth matches any single model character at no cost, and
// resolves those wildcards (SPEC A.2 step 3, A.6). It reuses its table
// across calls; the zero value is ready; it is not safe for concurrent use.
type WildcardAligner struct {
	table []int32
}

// distanceTable fills the (len(gt)+1)×(len(model)+1) edit table.
func (w *WildcardAligner) distanceTable(gt, model []rune) []int32 {
	cols := len(model) + 1
	size := (len(gt) + 1) * cols
	if cap(w.table) < size {
		w.table = make([]int32, size)
	}
	d := w.table[:size]
	for j := 0; j < cols; j++ {
		d[j] = int32(j)
	}
	for i := 1; i <= len(gt); i++ {
		row, prev := d[i*cols:], d[(i-1)*cols:]
		row[0] = int32(i)
		g := gt[i-1]
		for j := 1; j < cols; j++ {
			cost := int32(1)
			if g == model[j-1] || g == Wildcard {
				cost = 0
			}
			best := prev[j-1] + cost
			if v := prev[j] + 1; v < best {
				best = v
			}
			if v := row[j-1] + 1; v < best {
				best = v
			}
			row[j] = best
		}
	}
	return d
}

// Distance returns the wildcard edit distance between gt and model: a GT
// Wildcard substitutes for any model character at cost 0 and costs a
// deletion when nothing is read there. A Wildcard on the model side is a
// literal character.
func (w *WildcardAligner) Distance(gt, model []rune) int {
	// Ends that match (a character, or a Wildcard against anything) cost
	// nothing, and with insertions and deletions costing 1 some optimal
	// alignment pairs them: only the middle needs the table. A name and
	// its reading mostly differ in a letter or two.
	for len(gt) > 0 && len(model) > 0 && (gt[0] == model[0] || gt[0] == Wildcard) {
		gt, model = gt[1:], model[1:]
	}
	for len(gt) > 0 && len(model) > 0 && (gt[len(gt)-1] == model[len(model)-1] || gt[len(gt)-1] == Wildcard) {
		gt, model = gt[:len(gt)-1], model[:len(model)-1]
	}
	if len(gt) == 0 || len(model) == 0 {
		return len(gt) + len(model)
	}
	// Two rows of the table suffice for the distance.
	cols := len(model) + 1
	if cap(w.table) < 2*cols {
		w.table = make([]int32, 2*cols)
	}
	prev, row := w.table[:cols], w.table[cols:2*cols]
	for j := range prev {
		prev[j] = int32(j)
	}
	for i := 1; i <= len(gt); i++ {
		row[0] = int32(i)
		g := gt[i-1]
		for j := 1; j < cols; j++ {
			cost := int32(1)
			if g == model[j-1] || g == Wildcard {
				cost = 0
			}
			row[j] = min(prev[j-1]+cost, prev[j]+1, row[j-1]+1)
		}
		prev, row = row, prev
	}
	return int(prev[cols-1])
}

// Resolve returns gt with every Wildcard that aligns to a model character
// replaced by that character (SPEC A.6: backtrace from the end, preferring
// the diagonal, then deleting a GT character, then inserting a model
// character). A Wildcard aligned to nothing stays. When gt holds no
// Wildcard, Resolve returns gt itself.
func (w *WildcardAligner) Resolve(gt, model []rune) []rune {
	if !containsWildcard(gt) {
		return gt
	}
	d := w.distanceTable(gt, model)
	cols := len(model) + 1
	out := append([]rune(nil), gt...)
	i, j := len(gt), len(model)
	for i > 0 || j > 0 {
		cur := d[i*cols+j]
		if i > 0 && j > 0 {
			cost := int32(1)
			if gt[i-1] == model[j-1] || gt[i-1] == Wildcard {
				cost = 0
			}
			if d[(i-1)*cols+j-1]+cost == cur {
				if gt[i-1] == Wildcard {
					out[i-1] = model[j-1]
				}
				i, j = i-1, j-1
				continue
			}
		}
		if i > 0 && d[(i-1)*cols+j]+1 == cur {
			i--
			continue
		}
		j--
	}
	return out
}

func containsWildcard(s []rune) bool {
	for _, r := range s {
		if r == Wildcard {
			return true
		}
	}
	return false
}
