package prices

import (
	"math"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/judging"
)

// TestBundled: the bundled table parses, is dated, and prices the models
// the examples and docs name.
func TestBundled(t *testing.T) {
	tb := Bundled()
	if tb.Written != "2026-12-02" || !strings.Contains(tb.Note, "check before relying on it") || !strings.Contains(tb.Describe(), "written 2026-12-02 (check before relying on it)") {
		t.Errorf("table %q written %q note %q", tb.Name, tb.Written, tb.Note)
	}
	for _, m := range [][2]string{{"openai", "gpt-5"}, {"openai", "gpt-5-mini"}, {"openai", "gpt-4o-2024-08-06"}, {"anthropic", "claude-3-5-sonnet-20241022"}, {"anthropic", "claude-sonnet-4-5"}} {
		p, ok := tb.Lookup(m[0], m[1])
		if !ok || p.InputPerMTok <= 0 || p.OutputPerMTok <= p.InputPerMTok || p.CachedInputPerMTok > p.InputPerMTok || p.BatchDiscount != 0.5 {
			t.Errorf("%s/%s: %+v %v", m[0], m[1], p, ok)
		}
	}
	if _, ok := tb.Lookup("anthropic", "gpt-5"); ok {
		t.Error("a model matched under another provider")
	}
}

// TestCost: usage × price, cached input at its price, batch at the
// discount.
func TestCost(t *testing.T) {
	u := judging.Usage{InputTokens: 1_000_000, CachedInputTokens: 400_000, OutputTokens: 100_000}
	// gpt-5-mini: 600k × 0.25 + 400k × 0.025 + 100k × 2.00 = 0.15 + 0.01 + 0.2
	got, err := Cost("openai", "gpt-5-mini", u, false)
	if err != nil || math.Abs(got-0.36) > 1e-12 {
		t.Errorf("cost %v %v", got, err)
	}
	got, err = Cost("openai", "gpt-5-mini", u, true)
	if err != nil || math.Abs(got-0.18) > 1e-12 {
		t.Errorf("batch cost %v %v", got, err)
	}
	if _, err := Cost("openai", "gpt-nope", u, false); err == nil || !strings.Contains(err.Error(), "openai/gpt-nope is not in the bundled price table") {
		t.Errorf("unknown: %v", err)
	}
}

// TestParseErrors: each error names the file, the line and what was
// expected.
func TestParseErrors(t *testing.T) {
	head := "written = 2026-12-01\n"
	entry := "[[model]]\nprovider = \"openai\"\nmodel = \"m\"\ninput = 1\noutput = 2\n"
	for _, tc := range []struct{ name, text, want string }{
		{"syntax", head + "[[model]]\nprovider = = 1\nmodel = \"m\"\n", "p.toml:3:"},
		{"no date", entry, "p.toml:1:1: no written = YYYY-MM-DD"},
		{"bad date", "written = \"last week\"\n" + entry, "p.toml:1:1: written = \"last week\": expected the date"},
		{"date type", "written = 3\n" + entry, "p.toml:1:1: written = 3"},
		{"unknown key", head + entry + "inptu = 3\n", "p.toml:7:1: unknown key \"model.inptu\""},
		{"unknown top key", "writen = 1\n" + head, "p.toml:1:1: unknown key \"writen\""},
		{"no provider", head + "[[model]]\nmodel = \"m\"\ninput = 1\noutput = 2\n", "p.toml:2:1: [[model]] 1: provider"},
		{"no output", head + "[[model]]\nprovider = \"openai\"\nmodel = \"m\"\ninput = 1\n", "p.toml:2:1: [[model]] 1: output: missing for openai/m"},
		{"negative", head + entry + "[[model]]\nprovider = \"openai\"\nmodel = \"n\"\ninput = 1\noutput = -2\n", "p.toml:11:1: [[model]] 2: output = -2"},
		{"nan", head + "[[model]]\nprovider = \"openai\"\nmodel = \"m\"\ninput = nan\noutput = 2\n", "p.toml:5:1: [[model]] 1: input = NaN"},
		{"discount", head + entry + "batch_discount = 1\n", "p.toml:7:1: [[model]] 1: batch_discount = 1"},
		{"string price", head + "[[model]]\nprovider = \"openai\"\nmodel = \"m\"\ninput = \"1\"\noutput = 2\n", "p.toml:5:"},
		{"duplicate", head + entry + entry, "p.toml:9:1: [[model]] 2: openai/m is priced twice (first at line 2)"},
	} {
		_, err := Parse("p.toml", []byte(tc.text))
		if _, ok := inputerr.As(err); !ok || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestParseDefaults: cached input defaults to the input price, the batch
// discount to 0, and a string date is accepted.
func TestParseDefaults(t *testing.T) {
	tb, err := Parse("p.toml", []byte("written = \"2026-12-01\"\n[[model]]\nprovider = \"openai\"\nmodel = \"m\"\ninput = 1\noutput = 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := tb.Lookup("openai", "m-20261201")
	if !ok || p.CachedInputPerMTok != 1 || p.BatchDiscount != 0 || p.Line != 2 || tb.Written != "2026-12-01" {
		t.Errorf("%+v %v", p, ok)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(t.TempDir() + "/none.toml")
	if err == nil || !strings.Contains(err.Error(), "none.toml: cannot read the price table") {
		t.Errorf("%v", err)
	}
}

// TestBundledDescription: the description read without a parse is the
// parsed table's.
func TestBundledDescription(t *testing.T) {
	if got, want := BundledDescription(), Bundled().Describe(); got != want {
		t.Errorf("BundledDescription() = %q, want %q", got, want)
	}
}
