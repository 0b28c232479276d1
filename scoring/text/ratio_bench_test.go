package text

import (
	"testing"
)

// benchGT and benchModel are one register page: the ground-truth names and
// what a model read (benchModel[i] is the reading of benchGT[i], except
// the last, made up), with OCR-style errors. A scorer compares every pair.
var benchGT = []string{
	"Leon qm Iacob Tedesco", "Francesco Kin?gsech", "Niccolò ?lelingen",
	"ser Moise qm Salamon Luzzatto", "Abram del fu Isach Morpurgo",
	"Zuanne Contarini", "dona Stella qm Lazaro Levi", "Iseppo Calimani",
	"messer Anselmo dal Medigo", "Marietta Grassin", "Hans Müller da Praga",
	"Samuel q. David Cohen", "rabbi Menachem Sullam", "Bortolo Brandolin",
	"Graziosa qm Abram Ascarelli", "Jörg Straßburger", "Alvise Mocenigo",
	"Perla de Ferrara", "Isacco Finzi", "Mordechai Ottolenghi da Verona",
	"Caterina Foscarini", "Lunardo Zen", "Diamante qm Gabriel Norsa",
	"Wolfgang Kürschner", "Benetto Vivante",
}

var benchModel = []string{
	"Leon qm Iacob Todesco", "Francesco Kiningsech",
	"Nicolo Lelingen", "Ser Moife qm Salamon Luzatto", "Abram del fu Isach Morpurgo",
	"Zuanne Contarim", "Dona Stella q. Lazaro Levi", "Iseppo Calimaui", "messer Anselmo dal Medico",
	"Marietta Grasin", "Hans Muller da Praga", "Samuel qm David Coen",
	"rabi Menachem Sulam", "Bortolo Brandolim", "Graziosa qm Abram Afcarelli",
	"Jorg Strassburger", "Alvise Moccnigo", "Perla da Ferrara", "Isaco Finzi",
	"Mordechai Ottolenghi", "Caterina Fofcarini", "Lunardo Zeu",
	"Diamante q Gabriel Norfa", "Wolfgang Kurschner", "Pietro Vianello",
}

type runePair struct{ a, b []rune }

// benchPairs returns every (GT, model) pair of the page: 625 pairs.
func benchPairs() []runePair {
	var ps []runePair
	for _, g := range benchGT {
		for _, m := range benchModel {
			ps = append(ps, runePair{[]rune(g), []rune(m)})
		}
	}
	return ps
}

// BenchmarkRatio measures Matcher.Ratio; one op is one name pair.
func BenchmarkRatio(b *testing.B) {
	pairs := benchPairs()
	var m Matcher
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := pairs[i]
		m.Ratio(p.a, p.b)
		if i++; i == len(pairs) {
			i = 0
		}
	}
}

// BenchmarkQuickRatio measures Matcher.QuickRatio; one op is one name pair.
func BenchmarkQuickRatio(b *testing.B) {
	pairs := benchPairs()
	var m Matcher
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := pairs[i]
		m.QuickRatio(p.a, p.b)
		if i++; i == len(pairs) {
			i = 0
		}
	}
}

// BenchmarkRatioString measures the allocating package-level Ratio.
func BenchmarkRatioString(b *testing.B) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Ratio(benchGT[i%len(benchGT)], benchModel[i%len(benchModel)])
		i++
	}
}

// BenchmarkRatioLong measures a long pair (a register line against its
// misreading, about 300 runes each), where autojunk acts.
func BenchmarkRatioLong(b *testing.B) {
	var line, read []rune
	for i := 0; len(line) < 300; i++ {
		line = append(line, []rune(benchGT[i%len(benchGT)]+", ")...)
		read = append(read, []rune(benchModel[(i+1)%len(benchModel)]+", ")...)
	}
	var m Matcher
	b.ReportAllocs()
	for b.Loop() {
		m.Ratio(line, read)
	}
}

// BenchmarkOracleRatio measures the map-based transliteration of CPython
// used by the tests, for comparison with BenchmarkRatio.
func BenchmarkOracleRatio(b *testing.B) {
	pairs := benchPairs()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := pairs[i]
		newOracle(p.a, p.b).ratio()
		if i++; i == len(pairs) {
			i = 0
		}
	}
}

// BenchmarkRatioSimilar measures Matcher.Ratio on the pairs a scorer keeps
// after a QuickRatio prefilter: each name against its own reading.
func BenchmarkRatioSimilar(b *testing.B) {
	var pairs []runePair
	for i, g := range benchGT {
		pairs = append(pairs, runePair{[]rune(g), []rune(benchModel[i])})
	}
	var m Matcher
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := pairs[i]
		m.Ratio(p.a, p.b)
		if i++; i == len(pairs) {
			i = 0
		}
	}
}
