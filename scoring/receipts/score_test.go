package receipts_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/donut"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
)

// runOf reads a run file given as lines.
func runOf(t *testing.T, lines ...string) *runfile.Run {
	t.Helper()
	run, err := runfile.Read(strings.NewReader(strings.Join(lines, "\n")), "run.jsonl", runfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func headerLine(phases, samples []string) string {
	h := runfile.NewHeader("r1", runfile.Planned{Phases: phases, SampleIDs: samples})
	b, _ := json.Marshal(h)
	return string(b)
}

// reqLine is a request record; finish and output "" write null.
func reqLine(phase, id string, status runfile.Status, finish, output string) string {
	r := runfile.Request{Type: runfile.TypeRequest, Phase: phase, SampleID: id, Status: status, LatencyS: 1}
	if finish != "" {
		r.FinishReason = &finish
	}
	if output != "" {
		r.Output = &output
	}
	b, _ := json.Marshal(r)
	return string(b)
}

func ok(phase, id, output string) string {
	return reqLine(phase, id, runfile.StatusOK, runfile.FinishStop, output)
}

var abRefs = receiptsread.References{
	{SampleID: "a", Text: "TOTAL 10", Source: "refs.jsonl:1"},
	{SampleID: "b", Text: "CASH 20 CHANGE 5", Source: "refs.jsonl:2"},
}

func pairs(ps []receiptsreport.Pair) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Phase+"/"+p.SampleID)
	}
	return out
}

func TestCompleteness(t *testing.T) {
	hdr := headerLine([]string{"c1", "c4"}, []string{"a", "b"})
	tests := []struct {
		name       string
		lines      []string
		complete   bool
		missing    []string
		duplicated []string // phase/sample@lines
		unplanned  []string
		records    int
		scored     int
		refusal    []string // what the refusal must name
	}{
		{
			name:     "complete",
			lines:    []string{hdr, ok("warmup", "a", "x"), ok("c1", "a", "TOTAL 10"), ok("c1", "b", "CASH"), ok("c4", "b", "y"), ok("c4", "a", "z")},
			complete: true, missing: []string{}, duplicated: []string{}, unplanned: []string{}, records: 4, scored: 4,
		},
		{
			name:     "missing pairs",
			lines:    []string{hdr, ok("c1", "a", "TOTAL 10"), ok("c4", "a", "z")},
			complete: false, missing: []string{"c1/b", "c4/b"}, duplicated: []string{}, unplanned: []string{}, records: 2, scored: 2,
			refusal: []string{"2 of 4 planned phase/sample pairs missing", "missing:    c1/b", "missing:    c4/b"},
		},
		{
			name:     "duplicated pair",
			lines:    []string{hdr, ok("c1", "a", "TOTAL 10"), ok("c1", "a", "TOTAL 99"), ok("c1", "b", "x"), ok("c4", "a", "z"), ok("c4", "b", "y")},
			complete: false, missing: []string{}, duplicated: []string{"c1/a@[2 3]"}, unplanned: []string{}, records: 5, scored: 4,
			refusal: []string{"1 pair recorded more than once", "duplicated: c1/a recorded 2 times (lines 2, 3)"},
		},
		{
			name: "unplanned pairs are scored and do not make a run incomplete",
			lines: []string{hdr, ok("c1", "a", "TOTAL 10"), ok("c1", "b", "x"), ok("c4", "a", "z"), ok("c4", "b", "y"),
				ok("c8", "a", "TOTAL"), ok("c1", "z-unplanned", "?")},
			complete: true, missing: []string{}, duplicated: []string{}, unplanned: []string{"c8/a", "c1/z-unplanned"}, records: 6, scored: 6,
		},
	}
	refs := append(receiptsread.References{{SampleID: "z-unplanned", Text: "Z"}}, abRefs...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := runOf(t, tc.lines...)
			rep, err := receipts.Score(refs, run, receipts.Options{})
			if tc.complete {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				var ie *receipts.IncompleteError
				if !errors.As(err, &ie) {
					t.Fatalf("err = %v, want an *IncompleteError", err)
				}
				for _, want := range tc.refusal {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("refusal %q does not name %q", err, want)
					}
				}
				rep, err = receipts.Score(refs, run, receipts.Options{AllowIncomplete: true})
				if err != nil {
					t.Fatal(err)
				}
			}
			if rep.Complete != tc.complete || rep.Incomplete == tc.complete {
				t.Errorf("complete = %v, incomplete = %v; want complete %v", rep.Complete, rep.Incomplete, tc.complete)
			}
			if got := pairs(rep.Missing); !reflect.DeepEqual(got, tc.missing) {
				t.Errorf("missing = %q, want %q", got, tc.missing)
			}
			dups := []string{}
			for _, d := range rep.Duplicated {
				dups = append(dups, fmt.Sprintf("%s/%s@%v", d.Phase, d.SampleID, d.Lines))
				if d.ScoredLine != d.Lines[0] || d.Count != len(d.Lines) {
					t.Errorf("duplicate %+v: the first record must be scored", d)
				}
			}
			if !reflect.DeepEqual(dups, tc.duplicated) {
				t.Errorf("duplicated = %q, want %q", dups, tc.duplicated)
			}
			unplanned := []string{}
			for _, u := range rep.Unplanned {
				unplanned = append(unplanned, u.Phase+"/"+u.SampleID)
			}
			if !reflect.DeepEqual(unplanned, tc.unplanned) {
				t.Errorf("unplanned = %q, want %q", unplanned, tc.unplanned)
			}
			if rep.Planned != 4 || rep.CompletedRecords != tc.records || rep.ScoredRecords != tc.scored || len(rep.Pages) != tc.scored {
				t.Errorf("planned %d, completed %d, scored %d (%d pages); want 4, %d, %d",
					rep.Planned, rep.CompletedRecords, rep.ScoredRecords, len(rep.Pages), tc.records, tc.scored)
			}
		})
	}
}

func TestDuplicateScoresFirstRecord(t *testing.T) {
	run := runOf(t, headerLine([]string{"c1"}, []string{"a"}), ok("c1", "a", "TOTAL 10"), ok("c1", "a", "nothing"))
	rep, err := receipts.Score(abRefs, run, receipts.Options{AllowIncomplete: true})
	if err != nil {
		t.Fatal(err)
	}
	p := rep.Pages[0]
	if p.Line != 2 || p.F1 == nil || *p.F1 != 1 || !reflect.DeepEqual(p.Flags, []string{receiptsreport.FlagDuplicated}) {
		t.Errorf("page = %+v, want line 2 scored with F1 1 and flag duplicated", p)
	}
}

func TestUnplannedPhaseOrder(t *testing.T) {
	run := runOf(t, headerLine([]string{"c4", "c1"}, []string{"a"}), ok("c8", "a", "x"), ok("c1", "a", "TOTAL 10"), ok("c4", "a", "TOTAL"))
	rep, err := receipts.Score(abRefs, run, receipts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range rep.Phases {
		names = append(names, fmt.Sprintf("%s:%v", p.Phase, p.Primary))
	}
	if want := []string{"c4:false", "c1:true", "c8:false"}; !reflect.DeepEqual(names, want) {
		t.Errorf("phases = %q, want planned order then unplanned: %q", names, want)
	}
}

// TestUnplannedPhaseListedOnce: an unplanned phase with several pairs has
// one summary (it had one per pair; FuzzStreamMatchesInMemory found it,
// the streamed scoring listing it once).
func TestUnplannedPhaseListedOnce(t *testing.T) {
	run := runOf(t, headerLine([]string{"c1"}, []string{"a", "b"}), ok("c1", "a", "TOTAL 10"), ok("c1", "b", "CASH"),
		ok("c8", "a", "x"), ok("c8", "b", "CASH 20"), ok("c9", "a", "y"), ok("c8", "c", "z"))
	rep, err := receipts.Score(append(abRefs, receiptsread.Reference{SampleID: "c", Text: "Z", Source: "refs.jsonl:3"}), run, receipts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range rep.Phases {
		names = append(names, fmt.Sprintf("%s:%d", p.Phase, p.Pages))
	}
	if want := []string{"c1:2", "c8:3", "c9:1"}; !reflect.DeepEqual(names, want) {
		t.Errorf("phases:pages = %q, want each phase once: %q", names, want)
	}
}

// TestStatusRule: only ok + stop contributes text; every other request is
// an empty prediction that stays in the denominators.
func TestStatusRule(t *testing.T) {
	type want struct {
		scored, empty, truncated bool
		pred                     int
		f1                       float64
		flags                    []string
	}
	tests := []struct {
		name string
		line string
		want want
	}{
		{"ok stop", ok("c1", "a", "<b>TOTAL</b> 10"), want{true, false, false, 2, 1, []string{}}},
		{"ok length", reqLine("c1", "a", runfile.StatusOK, "length", "TOTAL 10"), want{false, false, true, 0, 0, []string{"truncated", "not_scored"}}},
		{"ok other finish", reqLine("c1", "a", runfile.StatusOK, "content_filter", "TOTAL 10"), want{false, false, false, 0, 0, []string{"not_scored"}}},
		{"ok no finish reason", reqLine("c1", "a", runfile.StatusOK, "", "TOTAL 10"), want{false, false, false, 0, 0, []string{"not_scored"}}},
		{"timeout with partial output", reqLine("c1", "a", runfile.StatusTimeout, "", "TOTAL 10"), want{false, false, false, 0, 0, []string{"not_scored"}}},
		{"http error", reqLine("c1", "a", runfile.StatusHTTPError, "", ""), want{false, true, false, 0, 0, []string{"empty_output", "not_scored"}}},
		{"transport error", reqLine("c1", "a", runfile.StatusTransportError, "", ""), want{false, true, false, 0, 0, []string{"empty_output", "not_scored"}}},
		{"cancelled", reqLine("c1", "a", runfile.StatusCancelled, "stop", "TOTAL 10"), want{false, false, false, 0, 0, []string{"not_scored"}}},
		{"ok stop empty", ok("c1", "a", " \n"), want{true, true, false, 0, 0, []string{"empty_output"}}},
		{"ok stop only markup", ok("c1", "a", "<p></p><x_0.1><class_Text>"), want{true, false, false, 0, 0, []string{"empty_after_cleaning"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := runOf(t, headerLine([]string{"c1"}, []string{"a"}), tc.line)
			rep, err := receipts.Score(abRefs, run, receipts.Options{})
			if err != nil {
				t.Fatal(err)
			}
			p := rep.Pages[0]
			got := want{p.ScoredText, p.EmptyOutput, p.Truncated, p.PredTokens, *p.F1, p.Flags}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("page = %+v, want %+v", got, tc.want)
			}
			ph := rep.Phases[0]
			if ph.Pages != 1 || ph.PagesWithF1 != 1 || ph.NumericRef != 1 || *ph.RougeLF1Mean != tc.want.f1 {
				t.Errorf("phase = %+v: the page must stay in every denominator", ph)
			}
			if p.RefTokens != 2 || p.NumericRef != 1 {
				t.Errorf("reference side: %d tokens, %d numbers; want 2 and 1", p.RefTokens, p.NumericRef)
			}
		})
	}
}

func TestPhaseAggregates(t *testing.T) {
	refs := append(receiptsread.References{{SampleID: "empty", Text: "", Source: "x"}}, abRefs...)
	run := runOf(t, headerLine([]string{"c1"}, []string{"a", "b", "empty"}),
		ok("c1", "a", "TOTAL 10"),                         // F1 1, numbers 1/1
		reqLine("c1", "b", runfile.StatusTimeout, "", ""), // F1 0, numbers 0/2
		ok("c1", "empty", "whatever 3"),                   // F1 null, no numbers
	)
	rep, err := receipts.Score(refs, run, receipts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ph := rep.Phases[0]
	if ph.Pages != 3 || ph.PagesWithF1 != 2 || *ph.RougeLF1Mean != 0.5 || ph.NumericMatched != 1 || ph.NumericRef != 3 ||
		*ph.NumericRecall != 1.0/3 || ph.ScoredText != 2 || ph.EmptyOutputs != 1 {
		t.Errorf("phase = %+v", ph)
	}
	if !reflect.DeepEqual(ph.StatusCounts, map[string]int{"ok": 2, "timeout": 1}) ||
		!reflect.DeepEqual(ph.FinishReasonCounts, map[string]int{"stop": 2, "null": 1}) {
		t.Errorf("counts = %v, %v", ph.StatusCounts, ph.FinishReasonCounts)
	}
	e := rep.Pages[2]
	if e.F1 != nil || e.Recall != nil || e.Precision == nil || *e.Precision != 0 || e.NumericRecall != nil {
		t.Errorf("empty-reference page = %+v: F1, recall and numeric recall null, precision 0", e)
	}
}

func TestScoreInputErrors(t *testing.T) {
	hdr := headerLine([]string{"c1"}, []string{"a"})
	sha := func(s string) string {
		r := runfile.Request{Type: runfile.TypeRequest, Phase: "c1", SampleID: "a", Status: runfile.StatusOK, ImageSHA256: s}
		b, _ := json.Marshal(r)
		return string(b)
	}
	tests := []struct {
		name     string
		refs     receiptsread.References
		lines    []string
		file     string
		line     int
		contains string
	}{
		{"unknown sample", abRefs, []string{hdr, ok("c1", "a", "x"), ok("c1", "nope", "x")}, "run.jsonl", 3, `no reference for sample_id "nope"`},
		{"two references", append(receiptsread.References{{SampleID: "a", Source: "refs/a.json"}}, abRefs...), []string{hdr, ok("c1", "a", "x")}, "refs.jsonl:1", 0, "already has a reference from refs/a.json"},
		{"image mismatch", receiptsread.References{{SampleID: "a", Text: "x", ImageSHA256: "00ff", Source: "t.parquet row 0"}}, []string{hdr, sha("11ee")}, "run.jsonl", 2, "differs from the reference image"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := receipts.Score(tc.refs, runOf(t, tc.lines...), receipts.Options{AllowIncomplete: true})
			e, ok := inputerr.As(err)
			if !ok || e.File != tc.file || e.Line != tc.line || !strings.Contains(e.Msg, tc.contains) {
				t.Errorf("err = %v, want %s:%d containing %q", err, tc.file, tc.line, tc.contains)
			}
		})
	}
	// A warmup for an unknown sample is never scored, so it needs no reference.
	if _, err := receipts.Score(abRefs, runOf(t, hdr, ok("warmup", "nope", "x"), ok("c1", "a", "x")), receipts.Options{}); err != nil {
		t.Errorf("warmup of an unknown sample: %v", err)
	}
	// A matching image hash is fine (case-insensitive hex).
	refs := receiptsread.References{{SampleID: "a", Text: "x", ImageSHA256: "00FF"}}
	if _, err := receipts.Score(refs, runOf(t, hdr, sha("00ff")), receipts.Options{}); err != nil {
		t.Errorf("matching image hash: %v", err)
	}
}

// insertCost is TED(∅, tree): the sum of the insertion costs of every node
// below the root, computed independently of the Zhang–Shasha code.
func insertCost(n *donut.Node) int {
	c := 0
	for _, k := range n.Children {
		c += donut.InsertCost(k) + insertCost(k)
	}
	return c
}

// TestStructuredOnSampleReferences scores perturbed parses of the sample's
// gt_parse objects as JSON predictions.
func TestStructuredOnSampleReferences(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	gt := func(i int) map[string]any {
		v, err := donut.Parse(refs[i].GTParse)
		if err != nil {
			t.Fatal(err)
		}
		return v.(map[string]any)
	}
	toJSON := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// 0: identical; 1: one character of the first item's name changed;
	// 2: the total dropped; 3: fenced identical JSON; 4: plain text.
	changed := gt(1)
	item := changed["menu"].([]any)[0].(map[string]any)
	item["nm"] = item["nm"].(string) + "X"
	dropped := gt(2)
	total := dropped["total"]
	delete(dropped, "total")
	outputs := []string{toJSON(gt(0)), toJSON(changed), toJSON(dropped), "```json\n" + toJSON(gt(3)) + "\n```", "CAFE LATTE 2"}

	ids := []string{refs[0].SampleID, refs[1].SampleID, refs[2].SampleID, refs[3].SampleID, refs[4].SampleID}
	lines := []string{headerLine([]string{"c1", "c4"}, ids)}
	for i, out := range outputs {
		lines = append(lines, ok("c1", ids[i], out))
	}
	for _, id := range ids {
		lines = append(lines, ok("c4", id, "TOTAL"))
	}
	rep, err := receipts.Score(refs, runOf(t, lines...), receipts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	size := func(i int) int { return insertCost(donut.Tree(donut.Normalize(gt(i)))) }
	fields := func(i int) int { return len(donut.Flatten(donut.Normalize(gt(i)))) }
	totalTree := donut.Tree(donut.Normalize(map[string]any{"total": total}))
	totalFields := len(donut.Flatten(donut.Normalize(map[string]any{"total": total})))
	wantAcc := []float64{1, 1 - 1/float64(size(1)), 1 - float64(insertCost(totalTree))/float64(size(2)), 1, 0}
	wantMatched := []int{fields(0), fields(1) - 1, fields(2) - totalFields, fields(3), 0}
	for i := range outputs {
		s := rep.Pages[i].Structured
		if s == nil || s.TEDAccuracy == nil {
			t.Fatalf("page %d: no structured score", i)
		}
		if d := *s.TEDAccuracy - wantAcc[i]; d > 1e-12 || d < -1e-12 {
			t.Errorf("page %d: TED accuracy %v, want %v", i, *s.TEDAccuracy, wantAcc[i])
		}
		if s.FieldsMatched != wantMatched[i] || s.FieldsRef != fields(i) || s.Parsed != (i < 4) {
			t.Errorf("page %d: %+v, want %d of %d fields matched, parsed %v", i, s, wantMatched[i], fields(i), i < 4)
		}
	}
	c1 := rep.Phases[0].Structured
	if c1 == nil || c1.Pages != 5 || c1.Parsed != 4 {
		t.Fatalf("c1 structured = %+v", c1)
	}
	var m, p, g int
	mean := 0.0
	for i := range outputs {
		s := rep.Pages[i].Structured
		m, p, g = m+s.FieldsMatched, p+s.FieldsPred, g+s.FieldsRef
		mean += *s.TEDAccuracy / 5
	}
	if f1, _ := donut.F1(m, p, g); *c1.FieldF1 != f1 || c1.FieldsMatched != m || c1.FieldsPred != p || c1.FieldsRef != g {
		t.Errorf("c1 field F1 = %v (%d/%d/%d), want pooled %v (%d/%d/%d)", *c1.FieldF1, c1.FieldsMatched, c1.FieldsPred, c1.FieldsRef, f1, m, p, g)
	}
	if d := *c1.TEDAccuracyMean - mean; d > 1e-12 || d < -1e-12 {
		t.Errorf("c1 TED accuracy mean = %v, want %v", *c1.TEDAccuracyMean, mean)
	}
	// c4 has no JSON prediction: under auto, no structured metrics there.
	if rep.Phases[1].Structured != nil || rep.Pages[5].Structured != nil {
		t.Error("c4 got structured metrics without any JSON prediction")
	}
	on, err := receipts.Score(refs, runOf(t, lines...), receipts.Options{Structured: receipts.StructuredOn})
	if err != nil {
		t.Fatal(err)
	}
	if s := on.Phases[1].Structured; s == nil || s.Parsed != 0 || *s.TEDAccuracyMean != 0 || *s.FieldF1 != 0 {
		t.Errorf("StructuredOn, c4 = %+v: want every page scored as an empty parse", s)
	}
	off, err := receipts.Score(refs, runOf(t, lines...), receipts.Options{Structured: receipts.StructuredOff})
	if err != nil {
		t.Fatal(err)
	}
	if off.Phases[0].Structured != nil || off.Pages[0].Structured != nil {
		t.Error("StructuredOff computed structured metrics")
	}
}
