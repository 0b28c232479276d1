package stats

import (
	"math"
	"testing"
)

// Hand-worked values of q(p) (SPEC F.4): h = (m−1)·p, j = ⌊h⌋,
// q = v[j] + (h−j)·(v[j+1]−v[j]), v[m] = v[m−1].
func TestQuantileHandWorked(t *testing.T) {
	seq := make([]float64, 2000)
	for i := range seq {
		seq[i] = float64(i)
	}
	tests := []struct {
		name string
		v    []float64
		p    float64
		want float64
	}{
		{"middle of four", []float64{1, 2, 3, 4}, 0.5, 2.5},       // h 1.5: 2 + 0.5·1
		{"p 0 is the minimum", []float64{1, 2, 3, 4}, 0, 1},       // h 0
		{"p 1 reads v[m] as v[m−1]", []float64{1, 2, 3, 4}, 1, 4}, // h 3, j 3
		{"one value", []float64{5}, 0.975, 5},                     // h 0
		{"quarter of two", []float64{0, 10}, 0.25, 2.5},           // h 0.25
		{"ties then a jump", []float64{1, 1, 1, 5}, 0.9, 3.8},     // h 2.7: 1 + 0.7·4
		{"2.5% of 0..1999", seq, (1 - 0.95) / 2, 49.975},          // h 49.975
		{"97.5% of 0..1999", seq, (1 + 0.95) / 2, 1949.025},       // h 1949.025
	}
	for _, tt := range tests {
		if got := Quantile(tt.v, tt.p); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: q(%v) = %v, want %v", tt.name, tt.p, got, tt.want)
		}
	}
}

func TestPercentileIntervalNull(t *testing.T) {
	vals := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(n - i) // unsorted on purpose
		}
		return v
	}
	tests := []struct {
		name              string
		kept, units, reps int
		null              bool
	}{
		{"one unit", 10, 1, 10, true},
		{"no unit", 10, 0, 10, true},
		{"half kept is enough", 5, 3, 10, false},
		{"under half kept", 4, 3, 10, true},
		{"nothing kept", 0, 3, 10, true},
		{"all kept", 10, 2, 10, false},
	}
	for _, tt := range tests {
		got := percentileInterval(vals(tt.kept), tt.units, tt.reps, 0.95)
		if (got == nil) != tt.null {
			t.Errorf("%s: interval %v, want null %v", tt.name, got, tt.null)
		}
	}
	// The values are sorted before the quantiles are read.
	if got := percentileInterval([]float64{3, 1, 2}, 3, 3, 0.5); *got != (Range{1.5, 2.5}) {
		t.Errorf("interval of {3,1,2} at 0.5 = %v, want [1.5 2.5]", *got)
	}
}
