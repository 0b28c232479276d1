package prices

import (
	"math"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/judging"
)

// FuzzParse: any input parses to a valid table or fails with an input
// error naming the file; never a panic. A valid table prices every model
// finitely and non-negatively, batch no dearer than direct. Seeds in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add(bundled)
	f.Add([]byte("written = 2026-12-01\n[[model]]\nprovider = \"openai\"\nmodel = \"m\"\ninput = 1\noutput = 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := Parse("f.toml", data)
		if err != nil {
			e, ok := inputerr.As(err)
			if !ok || e.File != "f.toml" || e.Line < 0 {
				t.Fatalf("not an input error naming the file: %#v", err)
			}
			return
		}
		if tb.Written == "" {
			t.Fatal("no date")
		}
		u := judging.Usage{InputTokens: 1000, CachedInputTokens: 300, OutputTokens: 500}
		for _, p := range tb.Models {
			q, ok := tb.Lookup(p.Provider, p.Model)
			if !ok || q != p {
				t.Fatalf("lookup %s/%s: %+v", p.Provider, p.Model, q)
			}
			c, b := p.Cost(u, false), p.Cost(u, true)
			if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 || b > c || b < 0 {
				t.Fatalf("%+v: cost %v batch %v", p, c, b)
			}
		}
	})
}
