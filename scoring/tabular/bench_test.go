package tabular_test

import (
	"testing"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// benchInput parses the benchmark corpus with the sample's rule file.
func benchInput(b *testing.B) tabular.Input {
	in, err := tabulartest.BenchmarkInput()
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// BenchmarkScore450 scores the whole benchmark corpus (450 image
// scorings) from parsed input, intervals off (--bootstrap 0): the scoring
// time BenchmarkIntervals450 and compareapi's BenchmarkCompareWithin450
// are measured against. It reports the time per image and per name pair
// considered. Target: under 100 ms per op on one core. (Before
// 2026-12-02: BenchmarkScoreTabular.)
func BenchmarkScore450(b *testing.B) {
	in := benchInput(b)
	pairs := 0
	for _, im := range in.Runs.Images {
		n := 0
		for _, p := range in.Pages {
			if p.ID == im.Page {
				n = len(p.Rows)
			}
		}
		pairs += n * len(im.Records)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tabular.Score(in); err != nil {
			b.Fatal(err)
		}
	}
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp/float64(len(in.Runs.Images)), "ns/image")
	b.ReportMetric(perOp/float64(pairs), "ns/pair")
	b.ReportMetric(float64(len(in.Runs.Images)), "images")
}

// BenchmarkIntervals450 computes the cells' intervals of the benchmark
// corpus (SPEC F.4: 2000 replicates) from its scored report: the cost
// intervals add to BenchmarkScore450's scoring, the units' contributions
// gathered from the image rows included. "%score" is its time as a share
// of the corpus's scoring (tabulartest.ScoreTime, median of 5, in the same
// process). Target: under 20 % of it (SPEC F, issue "the statistics cost
// little next to scoring"). (Before 2026-12-02: BenchmarkCellIntervals.)
func BenchmarkIntervals450(b *testing.B) {
	in := benchInput(b)
	rep, err := tabular.Score(in)
	if err != nil {
		b.Fatal(err)
	}
	score, err := tabulartest.ScoreTime(in, 5)
	if err != nil {
		b.Fatal(err)
	}
	iv := tabular.Intervals{Bootstrap: stats.DefaultReplicates}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := tabular.AddIntervals(rep.Fields, rep.Cells, rep.Images, iv); err != nil {
			b.Fatal(err)
		}
	}
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(100*perOp/float64(score.Nanoseconds()), "%score")
	b.ReportMetric(float64(score.Nanoseconds())/1e6, "score-ms")
	b.ReportMetric(float64(len(rep.Cells)), "cells")
}

// BenchmarkPreviewComparison computes a preview's comparison (SPEC F.6:
// 2000 replicates, 10000 randomization rounds per cell) of the benchmark
// corpus, its report compared with itself: the cost the comparison adds
// to a preview's two scorings (twice BenchmarkScoreTabular).
func BenchmarkPreviewComparison(b *testing.B) {
	rep, err := tabular.Score(benchInput(b))
	if err != nil {
		b.Fatal(err)
	}
	iv := tabular.Intervals{Bootstrap: stats.DefaultReplicates, Permutations: stats.DefaultPermutations}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tabular.PreviewComparison(nil, rep, rep.Cells, rep.Images, iv); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rep.Cells)), "cells")
}

// BenchmarkScoreRequest adds parsing of the files to the scoring.
func BenchmarkScoreRequest(b *testing.B) {
	req, err := tabulartest.BenchmarkRequest()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tabular.ScoreRequest(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadRuns parses the benchmark corpus's runs file alone.
func BenchmarkReadRuns(b *testing.B) {
	_, runs := tabulartest.Generate(tabulartest.Benchmark)
	s := schema.Default()
	b.SetBytes(int64(len(runs.Data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tabularread.ReadRuns(runs.Name, runs.Data, s, tabularread.RunsOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPreviewOpen450 scores the benchmark corpus with every OPEN row
// of the sample's rule file previewed, intervals off: the settled and the
// preview scorings, the list of what changed and, with several rows, one
// scoring per row of the images that changed (the attribution).
func BenchmarkPreviewOpen450(b *testing.B) {
	in := benchInput(b)
	in.Preview = rules.Selection{All: true}
	b.ReportAllocs()
	b.ResetTimer()
	var rep *tabularreport.Report
	for i := 0; i < b.N; i++ {
		var err error
		if rep, err = tabular.Score(in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rep.Preview.Changes)), "changes")
}
