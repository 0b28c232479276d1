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

// BenchmarkCallDropTabular is the page's own call after a drop on the
// benchmark corpus: the rule file's check and the report's summary, not
// the report, on a dispatcher without a session (every call parses and
// scores; the page's first drop).
func BenchmarkCallDropTabular(b *testing.B) { benchmarkCall(b, "dropTabular") }

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

// BenchmarkCallDropTabularParts is dropTabular with the request the page
// sends: the texts beside the JSON.
func BenchmarkCallDropTabularParts(b *testing.B) {
	js, parts := benchmarkPartsRequest(b)
	b.ReportAllocs()
	for b.Loop() {
		if out := core.Call("dropTabular", js, parts...); !strings.HasPrefix(out, RawMarker+"\n{") {
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
		if err := Decode("dropTabular", r, &req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(js)), "request-bytes")
}

// The page's calls after a drop, on the benchmark corpus, with the
// session the page's core keeps (NewSession) and without one (New: the
// core before it kept one): a preview switched on and off, a download of
// the report and a drill-down. Compare each pair for what the session
// saves.

// BenchmarkPreviewToggle is one preview switched on and then off again.
func BenchmarkPreviewToggle(b *testing.B) {
	withAndWithoutSession(b, func(b *testing.B, d *Dispatcher, req api.TabularRequest) {
		off := mustJSON(b, req)
		req.Preview = "open"
		on := mustJSON(b, req)
		for b.Loop() {
			sessionCall(b, d, "dropTabular", on)
			sessionCall(b, d, "dropTabular", off)
		}
	})
}

// BenchmarkDownloadAfterDrop is the JSON report's download after a drop.
func BenchmarkDownloadAfterDrop(b *testing.B) {
	withAndWithoutSession(b, func(b *testing.B, d *Dispatcher, req api.TabularRequest) {
		req.Format = "json"
		download := mustJSON(b, req)
		for b.Loop() {
			sessionCall(b, d, "scoreTabular", download)
		}
	})
}

// BenchmarkDrillDownAfterDrop is one image's drill-down after a drop, its
// runs file cut to that line as the page sends it.
func BenchmarkDrillDownAfterDrop(b *testing.B) {
	withAndWithoutSession(b, func(b *testing.B, d *Dispatcher, req api.TabularRequest) {
		const line = 200
		lines := strings.SplitAfter(req.Runs.Text, "\n")
		req.Runs.Text = strings.Repeat("\n", line-1) + strings.TrimSuffix(lines[line-1], "\n")
		detail := mustJSON(b, api.TabularDetailRequest{TabularRequest: req, Line: line})
		for b.Loop() {
			if out := d.Call("tabularDetail", detail); !strings.HasPrefix(out, "{\n  \"error\": null,") {
				b.Fatalf("answer %.200s", out)
			}
		}
	})
}

// withAndWithoutSession runs bench, after a drop of the benchmark corpus,
// on a dispatcher with a session and on one without.
func withAndWithoutSession(b *testing.B, bench func(b *testing.B, d *Dispatcher, req api.TabularRequest)) {
	for _, c := range []struct {
		name string
		d    *Dispatcher
	}{{"session", NewSession(api.TabularOperations())}, {"cold", New(api.TabularOperations())}} {
		b.Run(c.name, func(b *testing.B) {
			req, drop := benchmarkRequest(b)
			sessionCall(b, c.d, "dropTabular", drop)
			bench(b, c.d, req)
		})
	}
}

func sessionCall(b *testing.B, d *Dispatcher, method, request string) {
	b.Helper()
	out := d.Call(method, request)
	if !strings.HasPrefix(out, RawMarker+"\n{") || (method == "dropTabular" && !strings.Contains(out, "\n  \"error\": null,\n")) {
		b.Fatalf("%s: %.300s", method, out)
	}
}
