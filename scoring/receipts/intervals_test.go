package receipts_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
)

// TestPhaseIntervalsWithStructuredMetrics: with structured metrics in
// the report, every phase's ci has the four statistics (SPEC F.4), a
// phase without them gets null structured intervals kept on no draw, and
// the Markdown shows the structured intervals.
func TestPhaseIntervalsWithStructuredMetrics(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	var ids []string
	for i := range 5 {
		ids = append(ids, refs[i].SampleID)
	}
	lines := []string{headerLine([]string{"c1", "c4"}, ids)}
	for i, id := range ids {
		out := string(refs[i].GTParse) // a perfect structured prediction
		if i == 4 {
			out = "CAFE LATTE 2"
		}
		lines = append(lines, ok("c1", id, out))
	}
	for _, id := range ids {
		lines = append(lines, ok("c4", id, "TOTAL"))
	}
	rep, err := receipts.Score(refs, runOf(t, lines...), receipts.Options{Bootstrap: 500, CILevel: 0.9, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Phases[0].Structured == nil || rep.Phases[1].Structured != nil {
		t.Fatalf("structured metrics on c1 only expected: %+v, %+v", rep.Phases[0].Structured, rep.Phases[1].Structured)
	}
	for _, ph := range rep.Phases {
		ci := ph.CI
		if ci == nil || ci.Units != 5 || ci.Unit != "sample" || ci.Replicates != 500 || ci.Level != 0.9 || ci.Seed != 4 {
			t.Fatalf("%s: ci %+v", ph.Phase, ci)
		}
		var paths []string
		for _, s := range ci.Stats {
			paths = append(paths, s.Group+"."+s.Name)
		}
		if got := strings.Join(paths, " "); got != ".rouge_l_f1_mean .numeric_recall structured.ted_accuracy_mean structured.field_f1" {
			t.Errorf("%s: statistics %s", ph.Phase, got)
		}
	}
	if s, _ := rep.Phases[0].CI.Get("structured.field_f1"); s.Interval == nil || s.Kept != 500 {
		t.Errorf("c1 field F1 interval %+v, want one kept on every draw", s)
	}
	if s, _ := rep.Phases[1].CI.Get("structured.ted_accuracy_mean"); s.Interval != nil || s.Kept != 0 {
		t.Errorf("c4 TED interval %+v, want null, kept on no draw", s)
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "In brackets: 90% bootstrap percentile intervals, 500 replicates over samples, seed 4.") ||
		strings.Count(md.String(), " [") < 6 {
		t.Errorf("Markdown without the intervals:\n%s", md.String())
	}
}

// TestBadPhaseIntervalSettings: settings out of range are input errors
// naming the option.
func TestBadPhaseIntervalSettings(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	for _, tc := range []struct {
		opts receipts.Options
		want string
	}{
		{receipts.Options{Bootstrap: -1}, "bootstrap -1"},
		{receipts.Options{Bootstrap: 5, CILevel: 2}, "ci-level 2"},
	} {
		_, err := receipts.Score(refs, loadSampleRun(t, "run.jsonl"), tc.opts)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want an input error naming %q", tc.opts, err, tc.want)
		}
	}
}
