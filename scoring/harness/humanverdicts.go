package harness

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/agreement"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/judging"
)

// HumanVerdictsKind identifies a file of human verdicts.
const HumanVerdictsKind = "docscore-human-verdicts"

// HumanVerdict is a person's verdict on one judged metric of one stage.
type HumanVerdict struct {
	PipelineID string
	CaseID     string
	// StageID may be empty: the case's one stage.
	StageID string
	Metric  string
	Verdict evalcase.Verdict
	at      string
}

// HumanVerdicts is a file of human verdicts: the decisions a person took
// on judged stages (the review queue, or a sample of the stages), to
// compare the judges with.
type HumanVerdicts struct {
	Name       string
	SHA256     string
	ReviewedBy string
	Verdicts   []HumanVerdict
	d          *casefile.Decoder
}

// HumanSource says where a report's human verdicts came from.
type HumanSource struct {
	File       string `json:"file"`
	SHA256     string `json:"sha256"`
	ReviewedBy string `json:"reviewed_by"`
	Verdicts   int    `json:"verdicts"`
}

// ReasonNoHumanVerdicts is Agreement.HumanReason when the human verdicts
// file lists none.
const ReasonNoHumanVerdicts = "the human verdicts file lists no verdict: there are no human decisions to compare the judges with"

// ReadHumanVerdicts reads a human verdicts file:
//
//	{"kind": "docscore-human-verdicts", "version": 1, "reviewed_by": "ann@example.org",
//	 "verdicts": [{"pipeline_id": "…", "case_id": "…", "stage_id": "…", "metric": "judge", "verdict": "pass", "note": "…"}]}
//
// pipeline_id, stage_id and note are optional (an empty pipeline_id or
// stage_id matches any, and must leave one stage); a verdict is pass, fail or
// not_applicable (a person's verdict decides: uncertain is not one).
// Errors are input errors naming the file, line and what was expected.
func ReadHumanVerdicts(data []byte, name string) (*HumanVerdicts, error) {
	v, tree, err := ingest.ParseTree(ingest.StripBOM(data), name, 0)
	if err != nil {
		return nil, err
	}
	d := &casefile.Decoder{Name: name, Tree: tree}
	obj, err := d.Object(v, "")
	if err != nil {
		return nil, err
	}
	if err := d.Keys(obj, "", []string{"kind", "version", "reviewed_by", "verdicts"}, []string{"kind", "version", "reviewed_by", "verdicts"}); err != nil {
		return nil, err
	}
	if k, _ := obj["kind"].(string); k != HumanVerdictsKind {
		return nil, d.ErrAt("kind", "expected %q", HumanVerdictsKind)
	}
	if n, _ := obj["version"].(json.Number); string(n) != "1" {
		return nil, d.ErrAt("version", "expected 1")
	}
	h := &HumanVerdicts{Name: name, SHA256: evalcase.SHA256Hex(data), d: d}
	if h.ReviewedBy, err = d.ReqString(obj, "", "reviewed_by"); err != nil {
		return nil, err
	}
	items, err := d.Array(obj["verdicts"], "verdicts")
	if err != nil {
		return nil, err
	}
	for i, it := range items {
		at := "verdicts[" + strconv.Itoa(i) + "]"
		m, err := d.Object(it, at)
		if err != nil {
			return nil, err
		}
		if err := d.Keys(m, at, []string{"pipeline_id", "case_id", "stage_id", "metric", "verdict", "note"}, []string{"case_id", "metric", "verdict"}); err != nil {
			return nil, err
		}
		hv := HumanVerdict{at: at}
		if hv.PipelineID, err = d.OptString(m, at, "pipeline_id"); err != nil {
			return nil, err
		}
		if hv.CaseID, err = d.ReqString(m, at, "case_id"); err != nil {
			return nil, err
		}
		if hv.StageID, err = d.OptString(m, at, "stage_id"); err != nil {
			return nil, err
		}
		if hv.Metric, err = d.ReqString(m, at, "metric"); err != nil {
			return nil, err
		}
		vs, err := d.EnumString(m, at, "verdict", []string{string(evalcase.Pass), string(evalcase.Fail), string(evalcase.NotApplicable)})
		if err != nil {
			return nil, err
		}
		hv.Verdict = evalcase.Verdict(vs)
		if _, err := d.OptString(m, at, "note"); err != nil {
			return nil, err
		}
		h.Verdicts = append(h.Verdicts, hv)
	}
	return h, nil
}

// judgeRatings returns the ratings of a judged metric: an llm_judge
// metric's verdict under its judge model's label, a judge_panel metric's
// sample verdicts under their variants' names (the names PanelAgreement
// uses). ok is false for a metric no model judged.
func judgeRatings(m evalcase.MetricResult) (map[string]string, bool) {
	if len(m.Details) == 0 {
		return nil, false
	}
	if strings.Contains(string(m.Details), `"vote_rule"`) {
		var d judging.PanelDetails
		if json.Unmarshal(m.Details, &d) != nil || d.VoteRule == "" {
			return nil, false
		}
		out := map[string]string{}
		for _, s := range d.Samples {
			out[s.Variant] = rating(s.Verdict)
		}
		return out, true
	}
	var d judging.JudgeDetails
	if json.Unmarshal(m.Details, &d) != nil || d.Instruction == "" {
		return nil, false
	}
	name := m.Metric
	if d.Judge != nil {
		name = d.Judge.Label()
	}
	return map[string]string{name: rating(m.Verdict)}, true
}

// CompareWithPeople sets the report's agreement.human: per judge, Cohen's
// κ between its verdicts and the person's on the stages h decides, with
// the confusion matrix (judge verdict × human verdict). A judge's
// uncertain verdict or unusable answer gives no rating (skipped). A human
// verdict naming no stage or metric of the report, a metric no model
// judged, or a stage and metric decided twice is an input error naming
// h's file and line. Run it after the report is complete.
func (r *Report) CompareWithPeople(h *HumanVerdicts) error {
	type key struct{ pipeline, caseID, stage, metric string }
	seen := map[key]string{}
	pairs := map[string][]agreement.Pair{}
	for _, hv := range h.Verdicts {
		type hit struct {
			pipeline string
			st       StageReport
		}
		var found []hit
		match := func(pipeline string, st StageReport) {
			if (hv.PipelineID == "" || pipeline == hv.PipelineID) && st.CaseID == hv.CaseID && (hv.StageID == "" || st.StageID == hv.StageID) {
				found = append(found, hit{pipeline, st})
			}
		}
		for _, p := range r.Pipelines {
			for _, st := range p.Stages {
				match(p.PipelineID, st)
			}
		}
		for _, c := range r.Cases {
			match("", c)
		}
		switch {
		case len(found) == 0:
			return h.d.ErrAt(hv.at, "no stage of the report has pipeline_id %q, case_id %q and stage_id %q", hv.PipelineID, hv.CaseID, hv.StageID)
		case len(found) > 1:
			return h.d.ErrAt(hv.at, "%d stages match case_id %q: give pipeline_id and stage_id", len(found), hv.CaseID)
		}
		st := found[0].st
		k := key{found[0].pipeline, st.CaseID, st.StageID, hv.Metric}
		if prev, dup := seen[k]; dup {
			return h.d.ErrAt(hv.at, "stage %s, metric %s is decided twice (first at %s)", st.StageID, hv.Metric, prev)
		}
		seen[k] = hv.at
		var ratings map[string]string
		ok, present := false, false
		for _, m := range st.Metrics {
			if m.Metric == hv.Metric {
				present = true
				ratings, ok = judgeRatings(m)
			}
		}
		if !present {
			return h.d.ErrAt(hv.at, "stage %s has no metric %q", st.StageID, hv.Metric)
		}
		if !ok {
			return h.d.ErrAt(hv.at, "metric %q of stage %s was not judged by a model: there is no judge verdict to compare", hv.Metric, st.StageID)
		}
		for j, v := range ratings {
			pairs[j] = append(pairs[j], agreement.Pair{Judge: v, Human: string(hv.Verdict)})
		}
	}
	if r.Agreement == nil {
		r.Agreement = &Agreement{}
	}
	r.Agreement.HumanSource = &HumanSource{File: h.Name, SHA256: h.SHA256, ReviewedBy: strings.TrimSpace(h.ReviewedBy), Verdicts: len(h.Verdicts)}
	r.Agreement.Human, r.Agreement.HumanReason = nil, ""
	if len(pairs) == 0 {
		r.Agreement.HumanReason = ReasonNoHumanVerdicts
		return nil
	}
	r.Agreement.Human = map[string]agreement.Kappa{}
	for j, ps := range pairs {
		r.Agreement.Human[j] = agreement.CohenKappa(ps)
	}
	return nil
}
