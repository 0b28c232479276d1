package text

import "testing"

func BenchmarkZZChain(b *testing.B) {
	pairs := benchPairs()
	var m Matcher
	i := 0
	for b.Loop() {
		p := pairs[i]
		m.chain(p.a, p.b)
		if i++; i == len(pairs) {
			i = 0
		}
	}
}

func BenchmarkZZChainScan(b *testing.B) {
	pairs := benchPairs()
	var m Matcher
	i := 0
	for b.Loop() {
		p := pairs[i]
		m.chain(p.a, p.b)
		m.scan(p.a, p.b)
		if i++; i == len(pairs) {
			i = 0
		}
	}
}

func BenchmarkZZEmpty(b *testing.B) {
	pairs := benchPairs()
	var m Matcher
	i := 0
	for b.Loop() {
		p := pairs[i]
		m.RealQuickRatio(p.a, p.b)
		if i++; i == len(pairs) {
			i = 0
		}
	}
}
