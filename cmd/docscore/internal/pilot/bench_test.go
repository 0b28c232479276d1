package pilot

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/docscore/docscore/scoring/runfile"
)

// instantAnswer is the fixed answer of the benchmark's server.
var instantAnswer = []byte(`{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"TOTAL 174,600"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`)

// BenchmarkRunnerOverhead measures the runner against a server that
// answers at once: one measured phase at concurrency 64, b.N requests,
// each recorded with (fsync) and without (nosync) an fsync per record.
// The req/s metric is what the runner sustains; SPEC B.4's pilot needs it
// to be far above what a GPU serves (at least 2,000 req/s with fsync).
func BenchmarkRunnerOverhead(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(instantAnswer)
	}))
	defer srv.Close()
	img := fakeImage("receipt")
	for _, mode := range []struct {
		name   string
		noSync bool
	}{{"fsync", false}, {"nosync", true}} {
		b.Run(mode.name, func(b *testing.B) {
			samples := make([]Sample, b.N)
			ids := make([]string, b.N)
			for i := range samples {
				ids[i] = fmt.Sprintf("b%07d", i)
				samples[i] = Sample{Data: img, MediaType: "image/png"}
				samples[i].SampleID = ids[i]
				samples[i].ImageSHA256 = sha256Hex(img)
			}
			engine, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL + "/v1", Model: "bench", MaxTokens: 4096, Prompt: "Read the receipt.", MaxConns: 64})
			if err != nil {
				b.Fatal(err)
			}
			defer engine.Close()
			o := Options{
				Out:        filepath.Join(b.TempDir(), "run.jsonl"),
				Header:     runfile.NewHeader("bench", runfile.Planned{Phases: []string{"c64"}, SampleIDs: ids}),
				Samples:    samples,
				Phases:     []Phase{{Name: "c64", Concurrency: 64}},
				Engine:     engine,
				Deadline:   30 * time.Second,
				NoSync:     mode.noSync,
				skipWarmup: true,
			}
			b.ResetTimer()
			start := time.Now()
			sum, err := Run(context.Background(), o)
			elapsed := time.Since(start)
			b.StopTimer()
			if err != nil || sum.Written != b.N || sum.Failed != 0 {
				b.Fatalf("run: %v, %+v", err, sum)
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
		})
	}
}
