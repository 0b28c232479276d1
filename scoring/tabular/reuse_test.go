package tabular_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// TestScoreReusingGivesScoresReport switches a preview on and off and
// changes the gate with one Reuse, as the page does, and checks every
// report, byte for byte, against ScoreContext's; and that the settled
// scoring is kept for the same input and gate only.
func TestScoreReusingGivesScoresReport(t *testing.T) {
	in := sampleInput(t)
	other := sampleInput(t) // equal, but not the same values
	var reuse tabular.Reuse
	steps := []struct {
		in      tabular.Input
		preview string
		gate    float64
	}{
		{in, "", 0}, {in, "open", 0}, {in, "", 0}, {in, "32", 0}, {in, "open", 0.5}, {in, "", 0.5},
		{other, "open", 0.5}, {in, "", 0}, {other, "", 0}, {in, "open", 0.7},
	}
	for i, st := range steps {
		sel, err := rules.ParseSelection(st.preview)
		if err != nil {
			t.Fatal(err)
		}
		in := st.in
		in.Preview, in.Gate = sel, st.gate
		want, err := tabular.ScoreContext(nil, in, tabular.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := tabular.ScoreReusing(nil, in, tabular.Limits{}, &reuse)
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range []func(*tabularreport.Report) ([]byte, error){(*tabularreport.Report).JSON, (*tabularreport.Report).SummaryJSON} {
			g, _ := enc(got)
			w, _ := enc(want)
			if !bytes.Equal(g, w) {
				t.Fatalf("step %d (preview %q, gate %v): the report differs from ScoreContext's", i, st.preview, st.gate)
			}
		}
	}
}

// TestScoreReusingWithinLimits checks that a capped scoring reuses
// nothing: the cap counts the whole scoring, settled and preview.
func TestScoreReusingWithinLimits(t *testing.T) {
	in := sampleInput(t)
	var reuse tabular.Reuse
	if _, err := tabular.ScoreReusing(nil, in, tabular.Limits{}, &reuse); err != nil {
		t.Fatal(err)
	}
	in.Preview = rules.Selection{All: true}
	lim := tabular.Limits{MaxPairs: 10}
	_, want := tabular.ScoreContext(nil, in, lim)
	_, got := tabular.ScoreReusing(nil, in, lim, &reuse)
	var wl *tabular.WorkLimitError
	if !errors.As(want, &wl) || !errors.As(got, &wl) || got.Error() != want.Error() {
		t.Fatalf("capped: got %v, want %v", got, want)
	}
}

// sampleInput loads the bundled sample with its rule file.
func sampleInput(t *testing.T) tabular.Input {
	t.Helper()
	req, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	in, err := tabular.Load(req)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
