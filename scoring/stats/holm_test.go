package stats

import (
	"math"
	"testing"
)

// Holm's step-down adjustment on worked examples. The first is the
// Holm–Bonferroni example of the textbooks (four hypotheses, α 0.05:
// H4 and H1 rejected, H3 and H2 not), whose adjusted values R's
// p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") gives as
// 0.03 0.06 0.06 0.02.
func TestHolmAdjust(t *testing.T) {
	tests := []struct {
		name string
		p    []float64
		want []float64
	}{
		{"textbook", []float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{"ties share a value", []float64{0.01, 0.01, 0.5}, []float64{0.03, 0.03, 0.5}},
		{"monotone: a later small step keeps the max", []float64{0.02, 0.021, 0.022}, []float64{0.06, 0.06, 0.06}},
		{"capped at 1", []float64{0.6, 0.7}, []float64{1, 1}},
		{"one test is unadjusted", []float64{0.2}, []float64{0.2}},
		{"none", nil, []float64{}},
	}
	for _, tt := range tests {
		got := HolmAdjust(tt.p)
		if len(got) != len(tt.want) {
			t.Fatalf("%s: %v, want %v", tt.name, got, tt.want)
		}
		for i := range got {
			if math.Abs(got[i]-tt.want[i]) > 1e-15 {
				t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
				break
			}
		}
	}
}

// NewReport adjusts each statistic over the comparisons where its p is
// not null, sets significant from the adjusted p, and names the better
// side by the delta's sign (reversed for name CER).
func TestNewReportHolm(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	mk := func(p *float64, delta float64) *Comparison {
		return &Comparison{Stats: []StatComparison{
			{Name: "f1", P: p, Delta: f(delta)},
			{Name: "name_cer", LowerIsBetter: true, P: p, Delta: f(delta)},
		}}
	}
	cs := []*Comparison{mk(f(0.01), 0.1), mk(f(0.04), -0.1), mk(nil, 0.2), mk(f(0.005), -0.2)}
	o := DefaultOptions()
	r, err := NewReport("tabular", o, cs)
	if err != nil {
		t.Fatal(err)
	}
	// k = 3 (the null p is left out): 0.005·3, 0.01·2, 0.04·1 → max 0.02.
	wantHolm := []*float64{f(0.02), f(0.04), nil, f(0.015)}
	wantBetterF1 := []string{"b", "a", "", "a"}
	wantBetterCER := []string{"a", "b", "", "b"}
	for i, c := range r.Comparisons {
		for j, s := range c.Stats {
			if (s.PHolm == nil) != (wantHolm[i] == nil) || (s.PHolm != nil && math.Abs(*s.PHolm-*wantHolm[i]) > 1e-15) {
				t.Errorf("comparison %d %s: p_holm %v, want %v", i, s.Name, show(s.PHolm), show(wantHolm[i]))
			}
			want := wantBetterF1[i]
			if j == 1 {
				want = wantBetterCER[i]
			}
			got := ""
			if s.Better != nil {
				got = *s.Better
			}
			if got != want || s.Significant != (want != "") {
				t.Errorf("comparison %d %s: better %q significant %v, want %q", i, s.Name, got, s.Significant, want)
			}
		}
	}
	if !r.Regressed() {
		t.Error("Regressed() = false with significantly worse statistics")
	}
	// At α 0.01 no adjusted p (the smallest is 0.015) is significant.
	o.Alpha = 0.01
	r, _ = NewReport("tabular", o, cs)
	if r.Regressed() {
		t.Error("Regressed() = true at α 0.01")
	}
}

func TestNewReportRefusesDifferentStatistics(t *testing.T) {
	a := &Comparison{Stats: []StatComparison{{Name: "f1"}}}
	b := &Comparison{Stats: []StatComparison{{Name: "title", Group: "fields"}}}
	if _, err := NewReport("tabular", DefaultOptions(), []*Comparison{a, b}); err == nil {
		t.Error("no error for comparisons of different statistics")
	}
}
