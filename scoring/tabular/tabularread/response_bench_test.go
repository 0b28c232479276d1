package tabularread

import (
	"encoding/json"
	"testing"
)

// BenchmarkExtractRecords finds the records of the sample's raw answers:
// "scan" is ExtractRecords, "decoder" the json.Decoder search it
// replaced, side by side in one run.
func BenchmarkExtractRecords(b *testing.B) {
	var responses []string
	for _, l := range sampleRunLines(b) {
		var obj struct {
			Response *string `json:"response"`
		}
		if json.Unmarshal([]byte(l), &obj) == nil && obj.Response != nil {
			responses = append(responses, *obj.Response)
		}
	}
	if len(responses) == 0 {
		b.Fatal("no raw answers in the sample")
	}
	for _, c := range []struct {
		name string
		f    func(string) ([]string, bool)
	}{{"scan", ExtractRecords}, {"decoder", extractRecordsDecoder}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, r := range responses {
					c.f(r) // some sample answers hold no records
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(responses)), "ns/answer")
		})
	}
}
