package compareapi

import (
	"bytes"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/reportread"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// scoreTimes are the 450-image benchmark corpus's scoring times (ns),
// measured in the benchmark's process so that the machine's load falls on
// both alike: Score is tabular.Score from parsed input on one thread
// (tabulartest.ScoreTime, median of 5, scoring/tabular's
// BenchmarkScore450); Command is "docscore score tabular" at its defaults,
// from the files' bytes to the JSON report on GOMAXPROCS jobs
// (tabulartest.CommandTime, median of 5).
type scoreTimes struct{ Score, Command float64 }

// benchmarkReport is the 450-image benchmark corpus's JSON report (about
// 8 MB, intervals off) and the corpus's scoring times.
func benchmarkReport(b *testing.B) (api.File, scoreTimes) {
	req, err := tabulartest.BenchmarkRequest()
	if err != nil {
		b.Fatal(err)
	}
	in, err := tabular.Load(req)
	if err != nil {
		b.Fatal(err)
	}
	rep, err := tabular.Score(in)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		b.Fatal(err)
	}
	score, err := tabulartest.ScoreTime(in, 5)
	if err != nil {
		b.Fatal(err)
	}
	command, err := tabulartest.CommandTime(req, 5)
	if err != nil {
		b.Fatal(err)
	}
	times := scoreTimes{float64(score.Nanoseconds()), float64(command.Nanoseconds())}
	return api.File{Name: "benchmark.json", Text: buf.String()}, times
}

// BenchmarkCompareWithin450 is "docscore compare --within" on the
// benchmark corpus's JSON report at SPEC F's defaults (2,000 bootstrap
// replicates, 10,000 permutations): reading the 8 MB report, the 45
// comparisons (every two cells sharing a phase or a model) and the JSON
// comparison report. "%score" and "%command" are its time as a share of
// the corpus's scoring times (scoreTimes). Target: under 20 % of both.
func BenchmarkCompareWithin450(b *testing.B) {
	f, score := benchmarkReport(b)
	req := &CompareRequest{Base: f, Within: true}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := CompareOperation().Run(api.NoCancel, req); err != nil {
			b.Fatal(err)
		}
	}
	reportShare(b, score)
}

// BenchmarkCompareWithin450Parsed is BenchmarkCompareWithin450 with the
// report already read: the statistics and the comparison report alone.
func BenchmarkCompareWithin450Parsed(b *testing.B) {
	f, score := benchmarkReport(b)
	req := &CompareRequest{Base: f, Within: true}
	base, err := reportread.Read(f)
	if err != nil {
		b.Fatal(err)
	}
	o := req.Options()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := buildFrom(api.NoCancel, base, req, o)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := render(rep.Report, "json", sideNames(req)); err != nil {
			b.Fatal(err)
		}
	}
	reportShare(b, score)
	b.ReportMetric(float64(len(base.Cells)), "cells")
}

// BenchmarkReadReport450 reads the benchmark corpus's JSON report back
// into its cells' units and contributions: the part of
// BenchmarkCompareWithin450 that BenchmarkCompareWithin450Parsed leaves
// out.
func BenchmarkReadReport450(b *testing.B) {
	f, score := benchmarkReport(b)
	b.SetBytes(int64(len(f.Text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := reportread.Read(f); err != nil {
			b.Fatal(err)
		}
	}
	reportShare(b, score)
}

// reportShare reports the benchmark's time per op as a share of the
// corpus's scoring times ("%score", "%command"), and those times.
func reportShare(b *testing.B, t scoreTimes) {
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(100*perOp/t.Score, "%score")
	b.ReportMetric(t.Score/1e6, "score-ms")
	b.ReportMetric(100*perOp/t.Command, "%command")
	b.ReportMetric(t.Command/1e6, "command-ms")
}
