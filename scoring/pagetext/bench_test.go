package pagetext

import (
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// benchText is n grapheme clusters of German-like text.
func benchText(r *rand.Rand, n int) []string {
	words := strings.Fields("über die vielen Sorgen wegen deſſelben vergaß Hartkopf der Frau Amtmännin das verſprochene zu überliefern Ein Erpreſſer wurde an ihn abgeſchickt")
	var out []string
	for len(out) < n {
		w := Clusters(words[r.IntN(len(words))])
		out = append(out, w...)
		out = append(out, " ")
	}
	return out[:n]
}

// withErrors changes about rate·len(cs) clusters: substitutions,
// insertions and deletions in equal parts.
func withErrors(r *rand.Rand, cs []string, rate float64) []string {
	out := make([]string, 0, len(cs)+len(cs)/50)
	for _, c := range cs {
		if r.Float64() >= rate {
			out = append(out, c)
			continue
		}
		switch r.IntN(3) {
		case 0:
			out = append(out, "x")
		case 1:
			out = append(out, c, "e")
		}
	}
	return out
}

// BenchmarkAlign200k aligns a 200,000-character page with 1 % of its
// characters in error (docs/performance.md).
func BenchmarkAlign200k(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 7))
	gt := benchText(r, 200_000)
	ocr := withErrors(r, gt, 0.01)
	gs, os := strings.Join(gt, ""), strings.Join(ocr, "")
	b.ReportAllocs()
	b.SetBytes(int64(len(gs)))
	start := cpuTime()
	for b.Loop() {
		if _, err := ScorePage(gs, os, AlignLimits{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkAlign200kErrors aligns the clusters of a 200,000-character
// page with its OCR at 1 %, 5 % and 20 % of the characters in error, and
// with an unrelated page of as many characters: the alignment alone
// (cluster ids), by Align ("new") and by the scalar band before it
// ("old", oldAlign; minutes past 5 %: run it with -bench
// 'Align200kErrors/.*/old' and -benchtime 1x). peak-MB is the most the
// live heap held during the op above what it held before, sampled every
// millisecond.
func BenchmarkAlign200kErrors(b *testing.B) {
	for _, c := range []struct {
		name string
		rate float64
	}{{"1%", 0.01}, {"5%", 0.05}, {"20%", 0.2}, {"unrelated", -1}} {
		r := rand.New(rand.NewPCG(7, 7))
		gt := benchText(r, 200_000)
		var ocr []string
		if c.rate < 0 {
			ocr = benchText(rand.New(rand.NewPCG(8, 8)), 200_000)
		} else {
			ocr = withErrors(r, gt, c.rate)
		}
		ga, oa, n := symbolIDs(gt, ocr)
		for _, impl := range []struct {
			name  string
			align func([]int32, []int32, int, AlignLimits) (int, []Op, error)
		}{{"new", Align}, {"old", oldAlign}} {
			b.Run(c.name+"/"+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				peak := watchHeap()
				start := cpuTime()
				d := 0
				for b.Loop() {
					var err error
					if d, _, err = impl.align(ga, oa, n, AlignLimits{}); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, start)
				b.ReportMetric(peak()/1e6, "peak-MB")
				b.ReportMetric(float64(d), "edits")
			})
		}
	}
}

// watchHeap samples the live heap every millisecond until the returned
// function is called, which gives the most it held above its level at the
// start, in bytes.
func watchHeap() func() float64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	var top atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := read(); v > top.Load() {
				top.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 {
		close(stop)
		<-done
		return float64(top.Load()) - float64(base)
	}
}

// BenchmarkPages scores 1,000 pages of 2,000 characters at 3 % errors, one
// core; pages/s is 1000 / (s/op).
func BenchmarkPages(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	type pair struct{ gt, ocr string }
	pages := make([]pair, 1000)
	for i := range pages {
		gt := benchText(r, 2000)
		pages[i] = pair{strings.Join(gt, ""), strings.Join(withErrors(r, gt, 0.03), "")}
	}
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		for _, p := range pages {
			if _, err := ScorePage(p.gt, p.ocr, AlignLimits{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
	if c := cpuTime() - start; c > 0 {
		b.ReportMetric(float64(len(pages)*b.N)/c.Seconds(), "pages/cpu-s")
	}
}
