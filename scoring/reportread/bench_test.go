package reportread

import (
	"bytes"
	"testing"

	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// benchmarkReport is the JSON report of the benchmark corpus (450 images).
func benchmarkReport(b *testing.B) struct{ Text string } {
	req, err := tabulartest.BenchmarkRequest()
	if err != nil {
		b.Fatal(err)
	}
	rep, err := tabular.ScoreRequest(req)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		b.Fatal(err)
	}
	return struct{ Text string }{buf.String()}
}

// BenchmarkSkipReport450 checks the benchmark corpus's JSON report as
// skipValue does an image row's unread members.
func BenchmarkSkipReport450(b *testing.B) {
	f := benchmarkReport(b)
	b.SetBytes(int64(len(f.Text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := skipValue(f.Text, 0, 0); !ok {
			b.Fatal("refused")
		}
	}
}
