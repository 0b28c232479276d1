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
	checkNoFallback(t)
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
		bops, err := oldAlignBand(a, b, wantD, AlignLimits{})
		if err != nil || !reflect.DeepEqual(bops, wantOps) {
			t.Fatalf("oldAlignBand(%v, %v) = %v %v, want %v", a, b, bops, err, wantOps)
		}
		// The bit-parallel band at the distance and wider, and narrower
		// (then an upper bound and no script).
		for _, k := range []int{wantD, wantD + r.IntN(70), max(abs(len(b)-len(a)), wantD-1-r.IntN(10))} {
			bd, bops, err := alignBits(a, b, alpha, k, k >= wantD && r.IntN(2) == 0, AlignLimits{})
			switch {
			case err != nil:
				t.Fatal(err)
			case k >= wantD && (bd != wantD || !reflect.DeepEqual(bops, wantOps)):
				t.Fatalf("alignBits(%v, %v, k %d) = %d %v, want %d %v", a, b, k, bd, bops, wantD, wantOps)
			case k < wantD && (bd < wantD || bops != nil):
				t.Fatalf("alignBits(%v, %v, k %d < %d) = %d %v, want a bound and no script", a, b, k, wantD, bd, bops)
			}
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

// TestWorkLimit: two long texts far apart are refused before the
// second pass's work, with the lengths and a lower bound of the distance
// (the fronts' 1,000 edits); under a cap on the band's memory alone, too.
func TestWorkLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	a, b := randSeq(r, 200_000, 30), randSeq(r, 200_000, 30)
	for _, lim := range []AlignLimits{{BandCells: 1 << 26, WorkCells: 1 << 34}, {BandCells: 1 << 26}} {
		_, _, err := Align(a, b, 30, lim)
		var wl *WorkLimitError
		if !errors.As(err, &wl) || wl.GT != 200_000 || wl.Edits < 1000 || wl.ErrorCode() != "too_much_work" {
			t.Fatalf("%+v: err %v", lim, err)
		}
	}
}

// TestAlignAgreesWithTheOldAlign: the bit-parallel band gives the very
// script the scalar band before it gave (oldAlign, its oracle), over
// texts of up to 3,000 units (up to 47 blocks of rows), alphabets of 1 to
// 2,000 symbols (the dense match table and the sparse one), error rates
// from none to unrelated texts, and first passes narrower than the
// distance (FrontCells small).
func TestAlignAgreesWithTheOldAlign(t *testing.T) {
	checkNoFallback(t)
	raised := floorsRaised.Load()
	defer func() {
		if floorsRaised.Load() == raised {
			t.Error("no segment of a trace back had its floor raised: traceFloor is not exercised")
		}
	}()
	defer func(w int) { denseEqWords = w }(denseEqWords)
	r := rand.New(rand.NewPCG(31, 31))
	alphas := []int{1, 2, 4, 30, 2000}
	rates := []float64{0, 0.01, 0.05, 0.2, 0.5, -1}
	runs := 400
	if testing.Short() {
		runs = 60
	}
	for it := range runs {
		alpha := alphas[r.IntN(len(alphas))]
		rate := rates[r.IntN(len(rates))]
		n := r.IntN(3000)
		if it%4 == 0 {
			n = r.IntN(200)
		}
		a := randSeq(r, n, alpha)
		var b []int32
		if rate < 0 {
			b = randSeq(r, r.IntN(3000), alpha)
		} else {
			b = mutate(r, a, int(rate*float64(n)), alpha)
		}
		denseEqWords = 1 << 20
		if it%2 == 1 {
			denseEqWords = 0
		}
		front := 1 + r.IntN(5000)
		wantD, wantOps, err := oldAlign(a, b, alpha, AlignLimits{FrontCells: front})
		if err != nil {
			t.Fatal(err)
		}
		d, ops, err := Align(a, b, alpha, AlignLimits{FrontCells: front})
		if err != nil || d != wantD || !reflect.DeepEqual(ops, wantOps) {
			t.Fatalf("run %d (n %d, m %d, alphabet %d, rate %v, dense %d): Align = %d, %d ops, %v; the old Align %d, %d ops",
				it, len(a), len(b), alpha, rate, denseEqWords, d, len(ops), err, wantD, len(wantOps))
		}
	}
}

// checkNoFallback fails t when a pruned pass of the band fell back to
// the full band during it, or a segment of the trace back to its blocks
// without traceFloor's floor.
func checkNoFallback(t *testing.T) {
	before, beforeFloor := pruneFallbacks.Load(), floorFallbacks.Load()
	t.Cleanup(func() {
		if n := pruneFallbacks.Load() - before; n > 0 {
			t.Errorf("%d pruned passes fell back to the full band", n)
		}
		if n := floorFallbacks.Load() - beforeFloor; n > 0 {
			t.Errorf("%d segments of the trace back were recomputed without their floor", n)
		}
	})
}

// TestPrunedBandAgrees: the pruned pass, given any k at least the
// distance, traces the scalar band's script, on texts edited by runs:
// runs of insertions and deletions longer than a block (paths down one
// column of the band, or along row 0 and column 0), repeats (ties
// everywhere), texts against a short or an empty one.
func TestPrunedBandAgrees(t *testing.T) {
	checkNoFallback(t)
	raised := floorsRaised.Load()
	defer func() {
		if floorsRaised.Load() == raised {
			t.Error("no segment of a trace back had its floor raised: traceFloor is not exercised")
		}
	}()
	r := rand.New(rand.NewPCG(41, 43))
	runs := 1500
	if testing.Short() {
		runs = 300
	}
	for it := range runs {
		alpha := 1 + r.IntN(6)
		a := randSeq(r, r.IntN(700), alpha)
		b := append([]int32(nil), a...)
		for range r.IntN(6) {
			p := r.IntN(len(b) + 1)
			run := randSeq(r, r.IntN(300), alpha)
			switch r.IntN(3) {
			case 0: // a run inserted
				b = append(b[:p], append(run, b[p:]...)...)
			case 1: // a run deleted
				b = append(b[:p], b[min(len(b), p+len(run)):]...)
			default: // a run repeated
				b = append(b[:p], append(append([]int32(nil), b[max(0, p-len(run)):p]...), b[p:]...)...)
			}
		}
		b = mutate(r, b, r.IntN(30), alpha)
		if it%7 == 0 { // one run of up to 300 deleted from distinct symbols
			alpha = 5000
			a = randSeq(r, 100+r.IntN(600), alpha)
			p := r.IntN(len(a) - 50)
			b = append(append([]int32(nil), a[:p]...), a[min(len(a), p+r.IntN(300)):]...)
		}
		if it%5 == 0 {
			a, b = b, a
		}
		d := Distance(a, b, alpha)
		want, err := oldAlignBand(a, b, d, AlignLimits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{d, d + r.IntN(40), d + r.IntN(400)} {
			got, ops, err := alignBits(a, b, alpha, k, true, AlignLimits{})
			if err != nil || got != d || !reflect.DeepEqual(ops, want) {
				t.Fatalf("run %d: n %d, m %d, k %d: %d, %d ops, %v; want %d, %d ops", it, len(a), len(b), k, got, len(ops), err, d, len(want))
			}
		}
	}
}
