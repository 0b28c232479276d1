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

// benchmarkPartsRequest is the benchmark corpus as the page sends it
// today: the files name their texts by part, and the texts travel beside
// the small JSON request (site/js/parts.js).
func benchmarkPartsRequest(b *testing.B) (string, []string) {
	req, _ := benchmarkRequest(b)
	var parts []string
	part := func(f *api.File) {
		parts = append(parts, f.Text)
		f.Text, f.Part = "", len(parts)
	}
	for i := range req.GT {
		part(&req.GT[i])
	}
	part(&req.Runs)
	part(req.Rules)
	return mustJSON(b, req), parts
}

// BenchmarkCallSummarizeTabularParts is summarizeTabular with the request
// the page sends: the texts beside the JSON.
func BenchmarkCallSummarizeTabularParts(b *testing.B) {
	js, parts := benchmarkPartsRequest(b)
	b.ReportAllocs()
	for b.Loop() {
		if out := core.Call("summarizeTabular", js, parts...); !strings.HasPrefix(out, RawMarker+"\n{") {
			b.Fatalf("answer %.200s", out)
		}
	}
}

// BenchmarkDecodeTabularRequest decodes the page's request (texts as
// parts, a JSON request of about 200 bytes) and gives the files their
// texts: next to the scoring, nothing.
func BenchmarkDecodeTabularRequest(b *testing.B) {
	js, parts := benchmarkPartsRequest(b)
	r := Request{JSON: []byte(js), Parts: parts}
	b.ReportAllocs()
	for b.Loop() {
		var req api.TabularRequest
		if err := Decode("summarizeTabular", r, &req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(js)), "request-bytes")
}
