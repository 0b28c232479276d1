package pagetext

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
)

// naiveAlign is the full dynamic programme and its trace back, SPEC G.2's
// definition of the script.
func naiveAlign(a, b []int32) (int, []Op) {
	n, m := len(a), len(b)
	D := make([][]int, n+1)
	for i := range D {
		D[i] = make([]int, m+1)
		for j := range D[i] {
			switch {
			case i == 0:
				D[i][j] = j
			case j == 0:
				D[i][j] = i
			default:
				c := D[i-1][j-1]
				if a[i-1] != b[j-1] {
					c++
				}
				D[i][j] = min(c, D[i-1][j]+1, D[i][j-1]+1)
			}
		}
	}
	ops := []Op{}
	i, j := n, m
	for i > 0 || j > 0 {
		switch {
		case i > 0 && j > 0 && a[i-1] == b[j-1] && D[i-1][j-1] == D[i][j]:
			i, j = i-1, j-1
			ops = append(ops, Op{Match, int32(i), int32(j)})
		case i > 0 && j > 0 && D[i-1][j-1]+1 == D[i][j]:
			i, j = i-1, j-1
			ops = append(ops, Op{Sub, int32(i), int32(j)})
		case i > 0 && D[i-1][j]+1 == D[i][j]:
			i--
			ops = append(ops, Op{Del, int32(i), -1})
		default:
			j--
			ops = append(ops, Op{Ins, -1, int32(j)})
		}
	}
	reverse(ops)
	return D[n][m], ops
}

func randSeq(r *rand.Rand, n, alpha int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(r.IntN(alpha))
	}
	return s
}

func mutate(r *rand.Rand, s []int32, edits, alpha int) []int32 {
	t := append([]int32(nil), s...)
	for range edits {
		p := r.IntN(len(t) + 1)
		switch r.IntN(3) {
		case 0:
			t = append(t[:p], append([]int32{int32(r.IntN(alpha))}, t[p:]...)...)
		case 1:
			if p < len(t) {
				t = append(t[:p], t[p+1:]...)
			}
		default:
			if p < len(t) {
				t[p] = int32(r.IntN(alpha))
			}
		}
	}
	return t
}

func TestAlignAgreesWithTheFullProgramme(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for it := range 3000 {
		alpha := 1 + r.IntN(5)
		a := randSeq(r, r.IntN(150), alpha)
		var b []int32
		if it%3 == 0 {
			b = randSeq(r, r.IntN(150), alpha)
		} else {
			b = mutate(r, a, r.IntN(20), alpha)
		}
		wantD, wantOps := naiveAlign(a, b)
		if got := Distance(a, b, alpha); got != wantD {
			t.Fatalf("Distance(%v, %v) = %d, want %d", a, b, got, wantD)
		}
		d, ops, ok, err := alignFronts(a, b, AlignLimits{FrontCells: 1 << 30})
		if err != nil || !ok || d != wantD || !reflect.DeepEqual(ops, wantOps) {
			t.Fatalf("alignFronts(%v, %v) = %d %v, want %d %v", a, b, d, ops, wantD, wantOps)
		}
		bops, err := alignBand(a, b, wantD, AlignLimits{BandCells: 1 << 30})
		if err != nil || !reflect.DeepEqual(bops, wantOps) {
			t.Fatalf("alignBand(%v, %v) = %v %v, want %v", a, b, bops, err, wantOps)
		}
		d, ops, err = Align(a, b, alpha, AlignLimits{FrontCells: 1 + r.IntN(40)})
		if err != nil || d != wantD || !reflect.DeepEqual(ops, wantOps) {
			t.Fatalf("Align small fronts (%v, %v) = %d %v %v, want %d %v", a, b, d, ops, err, wantD, wantOps)
		}
	}
}

func TestDistanceLong(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		a := randSeq(r, 100+r.IntN(300), 4)
		b := mutate(r, a, r.IntN(100), 4)
		want, _ := naiveAlign(a, b)
		if got := Distance(a, b, 4); got != want {
			t.Fatalf("len %d/%d: %d, want %d", len(a), len(b), got, want)
		}
	}
}

// TestWorkLimit: two long texts far apart are refused before the work,
// with the lengths and a lower bound of the distance.
func TestWorkLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a, b := randSeq(r, 200_000, 30), randSeq(r, 200_000, 30)
	_, _, err := Align(a, b, 30, AlignLimits{BandCells: 1 << 23, WorkCells: 1 << 28})
	var wl *WorkLimitError
	if !errors.As(err, &wl) || wl.GT != 200_000 || wl.Edits < 2000 || wl.ErrorCode() != "too_much_work" {
		t.Fatalf("err %v", err)
	}
}
