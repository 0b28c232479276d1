package tabulartest

import (
	"bytes"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
)

// BenchmarkRequest is the Benchmark corpus with the sample's rule file:
// the files of the project's 450-image benchmark, intervals off
// (--bootstrap 0).
func BenchmarkRequest() (tabular.Request, error) {
	gt, runs := Generate(Benchmark)
	s, err := sample.TabularRequest(true)
	if err != nil {
		return tabular.Request{}, err
	}
	return tabular.Request{GT: gt, Runs: runs, Rules: s.Rules}, nil
}

// BenchmarkInput is BenchmarkRequest's files parsed (tabular.Load).
func BenchmarkInput() (tabular.Input, error) {
	req, err := BenchmarkRequest()
	if err != nil {
		return tabular.Input{}, err
	}
	return tabular.Load(req)
}

// ScoreTime is the median time of n scorings of in (tabular.Score, from
// parsed input): the scoring time the benchmarks of the statistics report
// their own as a share of ("%score"), measured in the same process so that
// the machine's load falls on both alike.
func ScoreTime(in tabular.Input, n int) (time.Duration, error) {
	return median(n, func() error {
		_, err := tabular.Score(in)
		return err
	})
}

// CommandTime is the median time of n streamed scorings of req into its
// JSON report on GOMAXPROCS jobs: the work of "docscore score tabular"
// at its defaults, from the files' bytes to the report's.
func CommandTime(req tabular.Request, n int) (time.Duration, error) {
	o := tabularstream.StreamOptions{Jobs: runtime.GOMAXPROCS(0)}
	return median(n, func() error {
		_, err := tabularstream.Stream(nil, req, bytes.NewReader(req.Runs.Data), io.Discard, o)
		return err
	})
}

// median is the median time of n calls of f.
func median(n int, f func() error) (time.Duration, error) {
	times := make([]time.Duration, n)
	for i := range times {
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		times[i] = time.Since(start)
	}
	slices.Sort(times)
	return times[n/2], nil
}
