package stats

import "testing"

// A replicate — drawing the indices, summing the contributions, and
// computing every statistic — allocates nothing, for a cell and for a
// paired comparison (bootstrap draw and randomization round alike), and
// so does counting the draws of few paired units.
func TestReplicateAllocatesNothing(t *testing.T) {
	c := synthTabular(t, "tabular/m/G", 50, 0.8, "alloc")
	w, n := c.Schema.Width, len(c.units)
	g := Stream(0, "alloc")
	sa, sb := make([]float64, w), make([]float64, w)
	vals := make([]float64, 0, 64)
	st := c.Schema.Stats
	seqs, patterns := make([]int32, 27), make([]int32, 8)
	tests := []struct {
		name string
		f    func()
	}{
		{"cell replicate", func() {
			drawSum(g, c.comp, n, w, sa)
			vals = vals[:0]
			for i := range st {
				if v, ok := st[i].value(sa); ok {
					vals = append(vals, v)
				}
			}
		}},
		{"paired replicate", func() {
			drawSum2(g, c.comp, c.comp, n, w, sa, sb)
			for i := range st {
				_, _ = diff(&st[i], sa, sb)
			}
		}},
		{"randomization round", func() {
			swapSum(g, c.comp, c.comp, n, w, sa, sb)
			for i := range st {
				_, _ = diff(&st[i], sa, sb)
			}
		}},
		// Few units (enumerate.go): a replicate or round only counts its
		// sequence or pattern.
		{"paired replicate, 3 units counted", func() { countSequences(g, 3, 1, seqs) }},
		{"randomization round, 3 units counted", func() { countPatterns(g, 3, 1, patterns) }},
	}
	for _, tt := range tests {
		if a := testing.AllocsPerRun(100, tt.f); a != 0 {
			t.Errorf("%s: %v allocations, want 0", tt.name, a)
		}
	}
}

// BenchmarkReplicate is one bootstrap replicate of a 50-page tabular cell
// with two fields: 50 draws and every statistic (0 allocs/op).
func BenchmarkReplicate(b *testing.B) {
	c := synthTabular(b, "tabular/m/G", 50, 0.8, "bench")
	w, n := c.Schema.Width, len(c.units)
	g := Stream(0, "bench")
	sum := make([]float64, w)
	st := c.Schema.Stats
	var kept int
	b.ReportAllocs()
	for b.Loop() {
		drawSum(g, c.comp, n, w, sum)
		for i := range st {
			if _, ok := st[i].value(sum); ok {
				kept++
			}
		}
	}
}

// BenchmarkInterval is a whole cell interval at the defaults (2000
// replicates) on a 50-page cell.
func BenchmarkInterval(b *testing.B) {
	c := synthTabular(b, "tabular/m/G", 50, 0.8, "bench")
	o := DefaultOptions()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Interval(c, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompare is a whole paired comparison at the defaults (2000
// replicates, 10000 rounds) of two 50-page cells.
func BenchmarkCompare(b *testing.B) { benchmarkCompare(b, 50) }

// BenchmarkCompare3Units is the same of two 3-page cells, as the
// benchmark corpus's cells are: the draws are counted, each of the 27
// sequences and 8 patterns summed once (enumerate.go).
func BenchmarkCompare3Units(b *testing.B) { benchmarkCompare(b, 3) }

func benchmarkCompare(b *testing.B, pages int) {
	x := synthTabular(b, "tabular/m/G", pages, 0.8, "bench")
	y := synthTabular(b, "tabular/m/N", pages, 0.85, "bench2")
	o := DefaultOptions()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(x, y, o); err != nil {
			b.Fatal(err)
		}
	}
}
