package tables

import (
	"math/rand/v2"
	"testing"
)

func textbook(a, b []int32) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev = cur
	}
	return prev[len(b)]
}

// TestLevMatchesTextbook sweeps random sequences over small alphabets
// across the 64-token boundary of the bit-parallel path.
func TestLevMatchesTextbook(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var l lev
	for range 3000 {
		alpha := 1 + r.IntN(6)
		seq := func() []int32 {
			s := make([]int32, r.IntN(140))
			for i := range s {
				s[i] = int32(r.IntN(alpha))
			}
			return s
		}
		a, b := seq(), seq()
		if got, want := l.distance(a, b, alpha), textbook(a, b); got != want {
			t.Fatalf("distance(%v, %v) = %d, want %d", a, b, got, want)
		}
	}
}
