package tables

import (
	"encoding/json"
	"math"
	"os"
	"sort"
	"testing"
)

const (
	demoPred = `<html><body><table><thead><tr><td><b>Name of algori</b></td><td><b>Notablefeatures</b></td></tr></thead><tbody><tr><td>MACS [23]</td><td>Uses both a control library and local statistics to minimize bias</td></tr><tr><td>SICER [15]</td><td>Designed for detecting diffusely enriched regions; for example, histone modification</td></tr><tr><td>PeakSEQ [24]</td><td>Corrects for reference genome mappability and local statistics</td></tr><tr><td>SISSRs [25]</td><td>High resolution, precise identification of binding-site location</td></tr><tr><td>F-seq [26]</td><td>Uses kernel density estimation</td></tr></tbody></table></body></html>`
	demoTrue = `<html><body><table><thead><tr><td><b>Name of algorithm</b></td><td><b>Notable features</b></td></tr></thead><tbody><tr><td>MACS [23]</td><td>Uses both a control library and local statistics to minimize bias</td></tr><tr><td>SICER [14]</td><td>Designed for detecting diffusely enriched regions; for example, histone modification</td></tr><tr><td>PeakSeq [24]</td><td>Corrects for reference genome mappability and local statistics</td></tr><tr><td>SISSRs [25]</td><td>High resolution, precise identification of binding-site location</td></tr><tr><td>F-seq [26]</td><td>Uses kernel density estimation</td></tr></tbody></table></body></html>`
)

func mustTable(t testing.TB, s string) *Node {
	t.Helper()
	n, err := ParseHTML(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTEDSDemo(t *testing.T) {
	got, err := TEDS(mustTable(t, demoPred), mustTable(t, demoTrue), TEDSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got != 0.9781765018607124 {
		t.Errorf("TEDS(demo) = %v, want 0.9781765018607124 (PubTabNet's demo.ipynb)", got)
	}
}

type samplePair struct{ gt, pred string }

func loadSamples(t testing.TB) map[string]samplePair {
	t.Helper()
	var gt map[string]struct {
		HTML string `json:"html"`
	}
	var pred map[string]string
	for name, v := range map[string]any{"testdata/pubtabnet_sample_gt.json": &gt, "testdata/pubtabnet_sample_pred.json": &pred} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]samplePair{}
	for k, g := range gt {
		out[k] = samplePair{gt: g.HTML, pred: pred[k]}
	}
	return out
}

// TestTEDSPubTabNetSamples holds TEDS and TEDS-S of PubTabNet's 20 sample
// pairs to testdata/teds_vectors.json, which testdata/oracle/teds_oracle.py
// (lxml and a textbook Zhang–Shasha) wrote, bit for bit; and to the
// numbers PubTabNet's demo printed (apted) within one unit in the last
// place, which one pair differs by: apted sums the same costs in another
// order.
func TestTEDSPubTabNetSamples(t *testing.T) {
	var vec map[string]struct {
		TEDS  float64 `json:"teds"`
		TEDSS float64 `json:"teds_s"`
	}
	var printed map[string]any
	for name, v := range map[string]any{"testdata/teds_vectors.json": &vec, "testdata/pubtabnet_printed.json": &printed} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	samples := loadSamples(t)
	if len(samples) != 20 {
		t.Fatalf("%d samples, want 20", len(samples))
	}
	samples["demo"] = samplePair{gt: demoTrue, pred: demoPred}
	keys := make([]string, 0, len(samples))
	for k := range samples {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var s Scorer
	for _, k := range keys {
		p := samples[k]
		want, ok := vec[k]
		if !ok {
			t.Fatalf("%s: no vector", k)
		}
		got, err := s.TEDS(mustTable(t, p.pred), mustTable(t, p.gt), TEDSOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gotS, err := s.TEDS(mustTable(t, p.pred), mustTable(t, p.gt), TEDSOptions{StructureOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if got != want.TEDS || gotS != want.TEDSS {
			t.Errorf("%s: TEDS, TEDS-S = %v, %v; oracle %v, %v", k, got, gotS, want.TEDS, want.TEDSS)
		}
		if pr, ok := printed[k].(float64); ok {
			if got != pr && math.Nextafter(got, pr) != pr {
				t.Errorf("%s: TEDS = %v, PubTabNet printed %v", k, got, pr)
			}
		}
	}
}
