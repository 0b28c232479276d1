package harness

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/agreement"
	"github.com/docscore/docscore/scoring/evalcase"
)

// panelMetric is a judge_panel result whose variants gave verdicts.
func panelMetric(name string, verdicts map[string]evalcase.Verdict) evalcase.MetricResult {
	var samples []map[string]any
	for _, v := range []string{"a", "b"} {
		samples = append(samples, map[string]any{"variant": v, "verdict": verdicts[v]})
	}
	d, _ := json.Marshal(map[string]any{"vote_rule": "majority", "samples": samples, "winning_vote": nil})
	return evalcase.MetricResult{Metric: name, Verdict: evalcase.Uncertain, Details: d}
}

// TestCompareWithPeoplePanel: a pipeline whose two stages share a case id
// and carry a two-variant panel. Variant a: (pass, pass), (fail, fail),
// (pass, fail) against the person; b: (pass, pass), (pass, fail),
// (uncertain → skipped). a: po = 2/3, pe = (2/3)(1/3) + (1/3)(2/3) = 4/9,
// κ = (2/9)/(5/9) = 0.4. b: po = 1/2, b said pass twice, the person pass
// and fail once each: pe = 1·1/2, κ = 0. The verdict naming no stage_id
// is ambiguous; an exact metric has no judge; a file of no verdicts gives
// the reason.
func TestCompareWithPeoplePanel(t *testing.T) {
	stage := func(caseID, id string, a, b evalcase.Verdict) StageReport {
		return StageReport{CaseID: caseID, StageID: id, Metrics: []evalcase.MetricResult{panelMetric("panel", map[string]evalcase.Verdict{"a": a, "b": b}), {Metric: "exact", Verdict: evalcase.Pass}}}
	}
	r := &Report{Pipelines: []PipelineReport{{PipelineID: "p", Stages: []StageReport{
		stage("c1", "extract", evalcase.Pass, evalcase.Pass), stage("c1", "total", evalcase.Fail, evalcase.Pass),
	}}}, Cases: []StageReport{stage("c2", "c2", evalcase.Pass, evalcase.Uncertain)}}
	read := func(verdicts string) *HumanVerdicts {
		t.Helper()
		h, err := ReadHumanVerdicts([]byte(`{"kind": "docscore-human-verdicts", "version": 1, "reviewed_by": "ann",
 "verdicts": [`+verdicts+`]}`), "people.json")
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h := read(`{"pipeline_id": "p", "case_id": "c1", "stage_id": "extract", "metric": "panel", "verdict": "pass"},
  {"case_id": "c1", "stage_id": "total", "metric": "panel", "verdict": "fail"},
  {"case_id": "c2", "metric": "panel", "verdict": "fail"}`)
	if err := r.CompareWithPeople(h); err != nil {
		t.Fatal(err)
	}
	a, b := r.Agreement.Human["a"], r.Agreement.Human["b"]
	if !near(a.Kappa, 0.4) || a.N != 3 || !near(b.Kappa, 0) || b.N != 2 || b.Skipped != 1 {
		t.Errorf("a %+v, b %+v", a, b)
	}
	if r.Agreement.HumanSource == nil || r.Agreement.HumanSource.Verdicts != 3 || len(r.Agreement.HumanSource.SHA256) != 64 {
		t.Errorf("source %+v", r.Agreement.HumanSource)
	}
	var md strings.Builder
	agreementMarkdown(&md, r.Agreement)
	for _, want := range []string{"Judges against people: 3 human verdict(s) by ann (people.json", "| a | 0.4 | 3 | 0 | 0.6667 | 0.4444 |", "| b | `pass` | `fail` | 1 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	for _, tc := range []struct{ verdicts, want string }{
		{`{"case_id": "c1", "metric": "panel", "verdict": "pass"}`, `people.json:2:15: verdicts[0]: 2 stages match case_id "c1": give pipeline_id and stage_id`},
		{`{"case_id": "c2", "metric": "exact", "verdict": "pass"}`, `metric "exact" of stage c2 was not judged by a model`},
		{`{"pipeline_id": "q", "case_id": "c1", "stage_id": "total", "metric": "panel", "verdict": "pass"}`, `no stage of the report has pipeline_id "q"`},
	} {
		if err := r.CompareWithPeople(read(tc.verdicts)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.verdicts, err, tc.want)
		}
	}
	if err := r.CompareWithPeople(read(``)); err != nil || r.Agreement.Human != nil || r.Agreement.HumanReason != ReasonNoHumanVerdicts {
		t.Errorf("no verdicts: %v %+v", err, r.Agreement)
	}
	// One category on both sides: κ is undefined, with the reason.
	if err := r.CompareWithPeople(read(`{"case_id": "c2", "metric": "panel", "verdict": "pass"}`)); err != nil {
		t.Fatal(err)
	}
	if a := r.Agreement.Human["a"]; a.Kappa != nil || a.Reason != agreement.ReasonKappaChance {
		t.Errorf("one category: %+v", a)
	}
}

func TestReadHumanVerdictsErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"kind": "harness", "version": 1, "reviewed_by": "x", "verdicts": []}`, `kind: expected "docscore-human-verdicts"`},
		{`{"kind": "docscore-human-verdicts", "version": 2, "reviewed_by": "x", "verdicts": []}`, "version: expected 1"},
		{`{"kind": "docscore-human-verdicts", "version": 1, "reviewed_by": "", "verdicts": []}`, "reviewed_by: expected a non-empty string"},
		{`{"kind": "docscore-human-verdicts", "version": 1, "reviewed_by": "x", "verdicts": [{"case_id": "c", "metric": "m", "verdict": "maybe"}]}`, `verdicts[0].verdict: "maybe": expected one of pass, fail, not_applicable`},
		{`{"kind": "docscore-human-verdicts", "version": 1, "reviewed_by": "x", "verdicts": [{"case_id": "c", "verdict": "pass"}]}`, `missing required field "metric"`},
		{`{"kind": "docscore-human-verdicts", "version": 1, "reviewed_by": "x", "verdicts": [{"case_id": "c", "metric": "m", "verdict": "pass", "extra": 1}]}`, "extra"},
	} {
		if _, err := ReadHumanVerdicts([]byte(tc.doc), "people.json"); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "people.json:") {
			t.Errorf("%s: err %v, want %q", tc.doc, err, tc.want)
		}
	}
}

func near(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 1e-12 }
