package stats_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/stats"
)

// TestCIText: the Markdown form of an interval, of a null one, and of a
// statistic or a CI that is not there.
func TestCIText(t *testing.T) {
	ci := &stats.CI{Level: 0.9, Replicates: 500, Seed: 3, Unit: "page", Stats: []stats.StatInterval{
		{Name: "f1", Interval: &stats.Range{0.97123, 0.98816}},
		{Name: "title", Group: "fields"},
	}}
	var none *stats.CI
	for _, tc := range []struct {
		ci   *stats.CI
		path string
		want string
	}{
		{ci, "f1", " [0.9712, 0.9882]"},
		{ci, "fields.title", " [–]"},
		{ci, "recall", ""},
		{none, "f1", ""},
	} {
		if got := tc.ci.Text(tc.path); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	if got, want := ci.Footnote(), "In brackets: 90% bootstrap percentile intervals, 500 replicates over pages, seed 3.\n"; got != want {
		t.Errorf("Footnote() = %q, want %q", got, want)
	}
	if none.Footnote() != "" {
		t.Error("a nil CI has a footnote")
	}
}

// TestIntervalOptions: the host settings, defaults applied, and the
// input errors naming --bootstrap and --ci-level.
func TestIntervalOptions(t *testing.T) {
	o, err := stats.IntervalOptions(0, 0, 7)
	if err != nil || o.Level != stats.DefaultLevel || o.Replicates != 0 || o.Seed != 7 {
		t.Errorf("IntervalOptions(0, 0, 7) = %+v, %v", o, err)
	}
	for _, tc := range []struct {
		replicates int
		level      float64
		want       string
	}{
		{-1, 0, "bootstrap -1: expected a whole number of replicates from 0 to 1000000"},
		{stats.MaxDraws + 1, 0, "bootstrap 1000001"},
		{10, 1, "ci-level 1: expected a confidence level strictly between 0 and 1"},
		{10, -0.5, "ci-level -0.5"},
	} {
		if _, err := stats.IntervalOptions(tc.replicates, tc.level, 0); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("IntervalOptions(%d, %v): %v, want %q", tc.replicates, tc.level, err, tc.want)
		}
	}
}

// TestCIJSONEscapesNoHTML: names are written as the reports write every
// key, without \u003c escapes (a field may be called "a<b").
func TestCIJSONEscapesNoHTML(t *testing.T) {
	ci := &stats.CI{Level: 0.95, Unit: "page", Stats: []stats.StatInterval{{Name: "a<b&c", Group: "fields"}}}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as every report's encoder
	if err := enc.Encode(ci); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"a<b&c":null`) {
		t.Errorf("JSON %s escapes the name", b.String())
	}
}
