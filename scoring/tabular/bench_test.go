package tabular_test

import (
	"bytes"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// benchInput parses the benchmark corpus with the sample's rule file.
func benchInput(b *testing.B) tabular.Input {
	gt, runs := tabulartest.Generate(tabulartest.Benchmark)
	s, err := sample.TabularRequest(true)
	if err != nil {
		b.Fatal(err)
	}
	in, err := tabular.Load(tabular.Request{GT: gt, Runs: runs, Rules: s.Rules})
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// BenchmarkScoreTabular scores the whole benchmark corpus (450 image
// scorings) from parsed input; it reports the time per image and per name
// pair considered. Target: under 100 ms per op on one core.
func BenchmarkScoreTabular(b *testing.B) {
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

// BenchmarkCellIntervals computes the cells' intervals of the benchmark
// corpus (SPEC F.4: 2000 replicates) from its scored report: the cost
// intervals add to BenchmarkScoreTabular's scoring. Target: under 20 % of
// it.
func BenchmarkCellIntervals(b *testing.B) {
	rep, err := tabular.Score(benchInput(b))
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
	gt, runs := tabulartest.Generate(tabulartest.Benchmark)
	s, _ := sample.TabularRequest(true)
	req := tabular.Request{GT: gt, Runs: runs, Rules: s.Rules}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tabular.ScoreRequest(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteJSON writes the benchmark corpus's report as JSON.
func BenchmarkWriteJSON(b *testing.B) {
	rep, err := tabular.Score(benchInput(b))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := rep.WriteJSON(&buf); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

// BenchmarkReadRuns parses the benchmark corpus's runs file alone.
func BenchmarkReadRuns(b *testing.B) {
	_, runs := tabulartest.Generate(tabulartest.Benchmark)
	s := schema.Default()
	b.SetBytes(int64(len(runs.Data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tabular.ReadRuns(runs.Name, runs.Data, s, tabular.RunsOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSummaryJSON writes the benchmark corpus's report summary: what
// the page's summarizeTabular answers.
func BenchmarkSummaryJSON(b *testing.B) {
	benchmarkEncode(b, func(t testing.TB, rep *tabular.Report) []byte {
		out, err := rep.SummaryJSON()
		if err != nil {
			t.Fatal(err)
		}
		return out
	})
}

// BenchmarkWriteJSONReflect and BenchmarkSummaryJSONReflect write the same
// bytes with encoding/json, the tests' oracle: the hand-written encoder's
// gain over reflection.
func BenchmarkWriteJSONReflect(b *testing.B) { benchmarkEncode(b, reflectJSON) }

func BenchmarkSummaryJSONReflect(b *testing.B) { benchmarkEncode(b, reflectSummaryJSON) }

// benchmarkEncode encodes the benchmark corpus's report with encode.
func benchmarkEncode(b *testing.B, encode func(testing.TB, *tabular.Report) []byte) {
	rep, err := tabular.Score(benchInput(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(encode(b, rep))
	}
	b.SetBytes(int64(n))
}
