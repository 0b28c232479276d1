package tables

import (
	"sort"
	"testing"
)

// BenchmarkTEDSPubTabNet scores PubTabNet's 20 sample pairs (a few
// hundred nodes each) once per iteration on one goroutine; pairs/s is the
// speed SPEC H sets at 500 or more.
func BenchmarkTEDSPubTabNet(b *testing.B) {
	samples := loadSamples(b)
	keys := make([]string, 0, len(samples))
	for k := range samples {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var pred, gt []*Node
	nodes := 0
	for _, k := range keys {
		p, g := mustTable(b, samples[k].pred), mustTable(b, samples[k].gt)
		pred, gt = append(pred, p), append(gt, g)
		nodes += countElements(g)
	}
	var s Scorer
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i := range pred {
			if _, err := s.TEDS(pred[i], gt[i], TEDSOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(pred))/b.Elapsed().Seconds(), "pairs/s")
	b.ReportMetric(float64(nodes)/float64(len(pred)), "gt-elements/pair")
}
