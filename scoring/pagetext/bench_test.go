package pagetext

import (
	"math/rand/v2"
	"strings"
	"testing"
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

// BenchmarkAlign200kBand is the same page through the banded programme
// alone (the path past the diagonal-transition limit).
func BenchmarkAlign200kBand(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 7))
	gt := benchText(r, 200_000)
	ocr := withErrors(r, gt, 0.01)
	ga, oa, n := symbolIDs(gt, ocr)
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if _, _, err := Align(ga, oa, n, AlignLimits{FrontCells: 1}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
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
