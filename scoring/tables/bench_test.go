package tables

import (
	"fmt"
	"sort"
	"strings"
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
	cpu0 := cpuSeconds()
	for range b.N {
		for i := range pred {
			if _, err := s.TEDS(pred[i], gt[i], TEDSOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu := cpuSeconds() - cpu0
	b.ReportMetric(float64(b.N*len(pred))/b.Elapsed().Seconds(), "pairs/s")
	if cpu > 0 {
		// On a shared machine the wall rate drops with the load; the rate
		// per CPU second (GC included, GOMAXPROCS 1 with -cpu 1) does not.
		b.ReportMetric(float64(b.N*len(pred))/cpu, "pairs/cpu-s")
	}
	b.ReportMetric(float64(nodes)/float64(len(pred)), "gt-elements/pair")
}

// BenchmarkGriTSPubTabNet computes GriTS-Top and GriTS-Con of the same
// 20 pairs.
func BenchmarkGriTSPubTabNet(b *testing.B) {
	samples := loadSamples(b)
	var pred, gt []*Node
	for _, p := range samples {
		pred, gt = append(pred, mustTable(b, p.pred)), append(gt, mustTable(b, p.gt))
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for range b.N {
		for i := range pred {
			if _, err := GriTS(pred[i], gt[i], GriTSOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N*len(pred))/cpu, "pairs/cpu-s")
	}
	b.ReportMetric(float64(b.N*len(pred))/b.Elapsed().Seconds(), "pairs/s")
}

// markdownBenchText is a model's answer: a sentence, then a 40-row table
// in a fence with some inline markup.
func markdownBenchText() string {
	var sb strings.Builder
	sb.WriteString("Here is the table:\n\n```markdown\n| Item | **Qty** | Price | Notes |\n|:--|--:|--:|---|\n")
	for i := range 40 {
		fmt.Fprintf(&sb, "| item %d | %d | $%d.50 | *note* with `code` and &amp; ~~old~~ |\n", i, i%7, i*3)
	}
	sb.WriteString("```\n")
	return sb.String()
}

// BenchmarkParseMarkdown reads a model's Markdown table with the
// package's reader; BenchmarkParseMarkdownGomarkdown with the gomarkdown
// reader it replaced, for comparison.
func BenchmarkParseMarkdown(b *testing.B) {
	benchmarkMarkdown(b, parseMarkdown)
}

// BenchmarkParseMarkdownGomarkdown: see BenchmarkParseMarkdown.
func BenchmarkParseMarkdownGomarkdown(b *testing.B) {
	benchmarkMarkdown(b, parseGomarkdown)
}

func benchmarkMarkdown(b *testing.B, parse func(string, int) ([]*Node, error)) {
	text := markdownBenchText()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if t, err := parse(text, DefaultMaxNodes); err != nil || len(t) != 1 {
			b.Fatal(len(t), err)
		}
	}
}

// BenchmarkParseHTML reads PubTabNet's 20 sample pairs' HTML (both sides)
// into trees once per iteration.
func BenchmarkParseHTML(b *testing.B) {
	samples := loadSamples(b)
	var srcs []string
	size := 0
	for _, s := range samples {
		srcs = append(srcs, s.pred, s.gt)
		size += len(s.pred) + len(s.gt)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for range b.N {
		for _, s := range srcs {
			if _, err := ParseHTML(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
