package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{3 * ms}, 3 * ms},
		{[]time.Duration{9 * ms, 1 * ms, 5 * ms}, 5 * ms},
		{[]time.Duration{4 * ms, 1 * ms, 2 * ms, 10 * ms}, 3 * ms},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestRatioAndReport(t *testing.T) {
	ms := time.Millisecond
	r := Result{Base: []time.Duration{2 * ms, 2 * ms, 100 * ms}, Subject: []time.Duration{3 * ms, 5 * ms, 4 * ms}}
	if got := r.Ratio(); got != 2 {
		t.Errorf("ratio %v, want 2", got)
	}
	if s := r.String(); !strings.Contains(s, "ratio 2.00×") || !strings.Contains(s, "median   4.00 ms") {
		t.Errorf("report:\n%s", s)
	}
}

// TestMeasureRunsBoth runs a real binary (the test's own) as both sides.
func TestMeasureRunsBoth(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := measure(3, []string{self, "-test.run=^$"}, []string{self, "-test.run=^$"}, []string{self, "-test.run=^$"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 {
		t.Fatalf("%d results", len(rs))
	}
	for _, r := range rs {
		if len(r.Base) != 3 || len(r.Subject) != 3 || r.Ratio() <= 0 {
			t.Errorf("%+v", r)
		}
	}
	if _, err := measure(1, []string{self, "-test.run=^$"}, []string{"/nonexistent/docscore"}); err == nil {
		t.Error("a missing binary: no error")
	}
}
