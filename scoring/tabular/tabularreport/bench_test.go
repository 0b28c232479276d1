package tabularreport_test

import (
	"bytes"
	"testing"

	"github.com/docscore/docscore/scoring/tabular"
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

// BenchmarkSummaryJSON writes the benchmark corpus's report summary: what
// the page's summarizeTabular answers.
func BenchmarkSummaryJSON(b *testing.B) {
	benchmarkEncode(b, func(t testing.TB, rep *tabularreport.Report) []byte {
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
func benchmarkEncode(b *testing.B, encode func(testing.TB, *tabularreport.Report) []byte) {
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
