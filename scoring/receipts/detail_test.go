package receipts_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
)

// TestDetailAgreesWithReport opens every page of the sample's complete
// and incomplete runs: the detail's scores and flags are the report's
// page's, its segments spell the texts as scored, the tokens marked LCS
// are a common subsequence of the report's length on both sides, and the
// numbers marked missing are the report's missing numbers, in order.
func TestDetailAgreesWithReport(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	byID := map[string]string{}
	for _, r := range refs {
		byID[r.SampleID] = r.Text
	}
	for _, file := range []string{"run.jsonl", "run_incomplete.jsonl"} {
		run := loadSampleRun(t, file)
		rep, err := receipts.Score(refs, run, receipts.Options{AllowIncomplete: true})
		if err != nil {
			t.Fatal(err)
		}
		outputs := map[int]string{}
		for _, r := range run.Requests {
			outputs[r.Line] = r.OutputString()
		}
		for _, pg := range rep.Pages {
			where := fmt.Sprintf("%s %s/%s", file, pg.Phase, pg.SampleID)
			d, err := receipts.Detail(refs, run, pg.Phase, pg.SampleID)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			want := pg
			want.Structured = nil
			if !reflect.DeepEqual(d.Page, want) {
				got, _ := json.Marshal(d.Page)
				exp, _ := json.Marshal(want)
				t.Fatalf("%s: detail page\n%s\nreport page\n%s", where, got, exp)
			}
			if !d.Aligned {
				t.Fatalf("%s: not aligned", where)
			}
			predText := ""
			if pg.ScoredText {
				predText = receipts.Fold(receipts.Clean(outputs[pg.Line]))
			}
			if got := join(d.Prediction); got != predText {
				t.Errorf("%s: prediction segments spell %q, want %q", where, got, predText)
			}
			if got := join(d.Reference); got != receipts.Fold(byID[pg.SampleID]) {
				t.Errorf("%s: reference segments spell %q", where, got)
			}
			p, r := marked(d.Prediction), marked(d.Reference)
			if len(p) != pg.LCS || !reflect.DeepEqual(p, r) {
				t.Errorf("%s: LCS %d, marked %d in the prediction and %d in the reference (same: %v)", where, pg.LCS, len(p), len(r), reflect.DeepEqual(p, r))
			}
			var missing []string
			for _, s := range d.Reference {
				if s.Missing {
					missing = append(missing, s.Text)
				}
				if s.Missing && s.Kind != "number" {
					t.Errorf("%s: %q marked missing, not a number", where, s.Text)
				}
			}
			if !reflect.DeepEqual(nonEmpty(missing), pg.MissingNumbers) {
				t.Errorf("%s: marked missing %q, report %q", where, missing, pg.MissingNumbers)
			}
		}
	}
	run := loadSampleRun(t, "run.jsonl")
	if _, err := receipts.Detail(refs, run, "c9", "cord-test-0000"); err == nil || !strings.Contains(err.Error(), `no record of phase "c9"`) {
		t.Errorf("unknown phase: %v", err)
	}
	if _, err := receipts.Detail(refs[:1], run, "c1", "cord-test-0003"); err == nil || !strings.Contains(err.Error(), "no reference for sample_id") {
		t.Errorf("no reference: %v", err)
	}
}

func join(segs []receipts.Segment) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteString(s.Text)
	}
	return b.String()
}

func marked(segs []receipts.Segment) []string {
	out := []string{}
	for _, s := range segs {
		if s.LCS {
			out = append(out, s.Text)
		}
	}
	return out
}

func nonEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestDetailAlignmentIsALongestCommonSubsequence checks the marks of
// random texts over a small vocabulary, across the 64-token word
// boundaries, against LCSDP.
func TestDetailAlignmentIsALongestCommonSubsequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	words := []string{"a", "b", "c", "1", "2,50", "d"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString(" ")
		}
		return b.String()
	}
	for k := range 200 {
		pred, ref := text(rng.IntN(150)), text(rng.IntN(150))
		d := receipts.DetailText(pred, ref)
		pw, rw := receipts.Words(receipts.Tokenize(pred)), receipts.Words(receipts.Tokenize(ref))
		want := receipts.LCSDP(pw, rw)
		p, r := marked(d.Prediction), marked(d.Reference)
		if len(p) != want || !reflect.DeepEqual(p, r) || !d.Aligned {
			t.Fatalf("case %d: marked %d and %d tokens (same %v), LCS %d", k, len(p), len(r), reflect.DeepEqual(p, r), want)
		}
	}
	// Too long to align: nothing marked, said so.
	long := strings.Repeat("x ", 1500)
	if d := receipts.DetailText(strings.Repeat("x ", 90000), long); d.Aligned || len(marked(d.Prediction)) != 0 {
		t.Fatalf("a 90,000 × 1,500 token alignment: aligned %v", d.Aligned)
	}
}
