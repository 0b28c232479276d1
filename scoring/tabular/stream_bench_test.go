package tabular_test

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// BenchmarkStreamJobs streams a generated corpus of 3,000 images (10
// pages, held in memory) as JSON with 1 and 2 jobs: images/s, and the
// speed-up of 2 jobs is the ratio of the two (make bench-stream).
func BenchmarkStreamJobs(b *testing.B) {
	const n = 3000
	c := tabulartest.New(tabulartest.Large(n, 10))
	var runs bytes.Buffer
	c.WriteRuns(&runs, tabulartest.RunsOptions{Images: n, Responses: true})
	req := tabular.Request{GT: c.GT, Runs: tabular.File{Name: "runs.jsonl"}}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.SetBytes(int64(runs.Len()))
			for b.Loop() {
				if _, err := tabularstream.Stream(nil, req, bytes.NewReader(runs.Bytes()), io.Discard, tabularstream.StreamOptions{Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "images/s")
		})
	}
}

var benchMemo = flag.Int("bench-memo", 0, "the streamed benchmarks' memo bound (0: the default)")

// BenchmarkBenchmarkCorpus scores the 450-image benchmark corpus with its
// rule file into JSON, the old way (the whole file in memory, ScoreRequest
// and the report's JSON) and streamed with 1 and 2 jobs, side by side.
func BenchmarkBenchmarkCorpus(b *testing.B) {
	memo := *benchMemo
	gt, runs := tabulartest.Generate(tabulartest.Benchmark)
	s, _ := sample.TabularRequest(true)
	req := tabular.Request{GT: gt, Runs: runs, Rules: s.Rules}
	b.Run("in-memory", func(b *testing.B) {
		for b.Loop() {
			rep, err := tabular.ScoreRequest(req)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := rep.JSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	// As the command line streams it: the rows go to a spool on disk,
	// here one that lets them go, rather than the 8 MB in-memory spool
	// that Stream keeps without one.
	b.Run("streamed/jobs=1/rows-discarded", func(b *testing.B) {
		discard := func() (tabularstream.Spool, error) { return discardSpool{}, nil }
		for b.Loop() {
			if _, err := tabularstream.Stream(nil, req, bytes.NewReader(runs.Data), io.Discard, tabularstream.StreamOptions{Jobs: 1, MaxMatches: memo, Spool: discard}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("streamed/jobs=%d", jobs), func(b *testing.B) {
			for b.Loop() {
				if _, err := tabularstream.Stream(nil, req, bytes.NewReader(runs.Data), io.Discard, tabularstream.StreamOptions{Jobs: jobs, MaxMatches: memo}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// discardSpool is a Spool that keeps nothing.
type discardSpool struct{}

func (discardSpool) Write(p []byte) (int, error)  { return len(p), nil }
func (discardSpool) Contents() (io.Reader, error) { return bytes.NewReader(nil), nil }
