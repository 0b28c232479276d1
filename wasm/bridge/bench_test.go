package bridge

import (
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// benchmarkRequest is the 450-image benchmark corpus with the sample's
// rule file, as the page sends it (JSON).
func benchmarkRequest(b *testing.B) (api.TabularRequest, string) {
	gt, runs := tabulartest.Generate(tabulartest.Benchmark)
	s, err := sample.TabularRequest(true)
	if err != nil {
		b.Fatal(err)
	}
	s.GT, s.Runs = gt, runs
	req := toAPI(s, "", "json")
	return req, mustJSON(b, req)
}

// BenchmarkCallScoreTabular is one bridge call on the benchmark corpus:
// decoding the request, parsing, scoring, encoding the report and the
// envelope. Compare with BenchmarkScoreTabularDirect for the bridge's cost;
// run it under GOOS=js GOARCH=wasm for the WebAssembly time.
func BenchmarkCallScoreTabular(b *testing.B) { benchmarkCall(b, "scoreTabular") }

// BenchmarkCallSummarizeTabular is the page's own call after a drop on
// the benchmark corpus: the report's summary, not the report.
func BenchmarkCallSummarizeTabular(b *testing.B) { benchmarkCall(b, "summarizeTabular") }

// benchmarkCall calls method on the benchmark corpus, whose answer is raw.
func benchmarkCall(b *testing.B, method string) {
	_, js := benchmarkRequest(b)
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		out := core.Call(method, js)
		if len(out) < 1000 || !strings.HasPrefix(out, RawMarker+"\n{") {
			b.Fatalf("answer %.200s", out)
		}
	}
	b.ReportMetric(float64(tabulartest.Benchmark.Images()), "images")
}

// BenchmarkScoreTabularDirect is api.ScoreTabular on the same corpus with
// no JSON request or envelope: the native command line's work.
func BenchmarkScoreTabularDirect(b *testing.B) {
	req, _ := benchmarkRequest(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := api.ScoreTabular(req); err != nil {
			b.Fatal(err)
		}
	}
}
