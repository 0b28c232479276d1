package harness

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/internal/mdtext"
	"github.com/docscore/docscore/scoring/judging"
)

// ReportVersion versions the JSON report's shape.
const ReportVersion = 1

// StageReport is the outcome of one stage.
type StageReport struct {
	CaseID    string           `json:"case_id"`
	StageID   string           `json:"stage_id"`
	Operation string           `json:"operation"`
	DependsOn []string         `json:"depends_on"`
	Verdict   evalcase.Verdict `json:"verdict"`
	// UpstreamVerdicts holds the verdict of every stage this one depends
	// on directly (its depends_on): a chain is named once, stage by
	// stage, so the report grows linearly with the stages. The failure
	// context still weighs every stage upstream, transitively.
	UpstreamVerdicts map[string]evalcase.Verdict `json:"upstream_verdicts"`
	FailureContext   FailureContext              `json:"failure_context"`
	// Scores merges the metrics' scores (see MetricResult.Scores).
	Scores map[string]float64 `json:"scores"`
	// MetricSelection says where the metrics came from: stage, stage_id,
	// operation, default or none.
	MetricSelection string                  `json:"metric_selection"`
	Metrics         []evalcase.MetricResult `json:"metrics"`
	// Producer is null when the producer of the prediction is unknown.
	Producer     *evalcase.Producer          `json:"producer"`
	References   []judging.ReferenceEntry    `json:"references"`
	Instructions []judging.InstructionRecord `json:"instructions"`
	// Fingerprint is the SHA-256 of the serialized stage, its metrics and
	// its upstream stages' fingerprints; a checkpoint is reused only when it
	// and the checkpoint context match.
	Fingerprint    string   `json:"fingerprint"`
	FromCheckpoint bool     `json:"from_checkpoint"`
	Warnings       []string `json:"warnings"`
}

// PipelineReport is the outcome of one pipeline; Stages keep the
// pipeline's order.
type PipelineReport struct {
	PipelineID string           `json:"pipeline_id"`
	Verdict    evalcase.Verdict `json:"verdict"`
	Stages     []StageReport    `json:"stages"`
}

// Summary counts stage verdicts and failure contexts.
type Summary struct {
	Pipelines          int `json:"pipelines"`
	Cases              int `json:"cases"`
	Stages             int `json:"stages"`
	Pass               int `json:"pass"`
	Fail               int `json:"fail"`
	Uncertain          int `json:"uncertain"`
	NotApplicable      int `json:"not_applicable"`
	CurrentStage       int `json:"current_stage"`
	Upstream           int `json:"upstream"`
	UpstreamOrCombined int `json:"upstream_or_combined"`
	Indeterminate      int `json:"indeterminate"`
}

// ReviewItem is a stage result that needs a person: an uncertain verdict,
// an unusable judge answer, retained dissent.
type ReviewItem struct {
	PipelineID string           `json:"pipeline_id,omitempty"`
	CaseID     string           `json:"case_id"`
	StageID    string           `json:"stage_id"`
	Metric     string           `json:"metric"`
	Verdict    evalcase.Verdict `json:"verdict"`
	Reason     string           `json:"reason"`
}

// Report is the complete outcome of an evaluation run.
type Report struct {
	Kind          string `json:"kind"`
	ReportVersion int    `json:"report_version"`
	// Source is the cases file's name as given, when there is one.
	Source string `json:"source,omitempty"`
	// Judge is the judge that ran, or "none" (deterministic metrics only).
	Judge                 string                    `json:"judge"`
	Summary               Summary                   `json:"summary"`
	Pipelines             []PipelineReport          `json:"pipelines"`
	Cases                 []StageReport             `json:"cases"`
	ReviewQueue           []ReviewItem              `json:"review_queue"`
	JudgeBaseInstructions judging.InstructionRecord `json:"judge_base_instructions"`
	Warnings              []string                  `json:"warnings"`
	// JudgeUsage is the model calls' usage, set by hosts that call models
	// (absent otherwise).
	JudgeUsage *judging.UsageSummary `json:"judge_usage,omitempty"`
	// Agreement is how far the judges agree (absent when no judge ran).
	Agreement *Agreement `json:"agreement,omitempty"`
	// Incomplete is true when a judge call was never made (a cost ceiling
	// stopped the run); NotJudged lists those stages' judge metrics.
	Incomplete bool         `json:"incomplete,omitempty"`
	NotJudged  []ReviewItem `json:"not_judged,omitempty"`
}

func newReport(judge string) *Report {
	if judge == "" {
		judge = "none"
	}
	return &Report{
		Kind: "harness", ReportVersion: ReportVersion, Judge: judge,
		Pipelines: []PipelineReport{}, Cases: []StageReport{}, ReviewQueue: []ReviewItem{}, Warnings: []string{},
		JudgeBaseInstructions: judging.InstructionRecord{
			Name: "judge_base_instructions", Source: "docscore", Version: judging.BaseJudgeInstructionsVersion,
			SHA256: evalcase.SHA256Hex([]byte(judging.BaseJudgeInstructions)), Text: judging.BaseJudgeInstructions,
		},
	}
}

// finish fills the summary, review queue and warnings.
func (r *Report) finish() {
	s := Summary{Pipelines: len(r.Pipelines), Cases: len(r.Cases)}
	seenWarn := map[string]bool{}
	agree := agreementCollector{dissent: map[string]bool{}, samples: map[string][][]string{}}
	r.ReviewQueue = []ReviewItem{}
	r.Warnings = []string{}
	r.NotJudged = nil
	visit := func(pipeline string, st StageReport) {
		s.Stages++
		switch st.Verdict {
		case evalcase.Pass:
			s.Pass++
		case evalcase.Fail:
			s.Fail++
		case evalcase.Uncertain:
			s.Uncertain++
		default:
			s.NotApplicable++
		}
		switch st.FailureContext {
		case CurrentStage:
			s.CurrentStage++
		case Upstream:
			s.Upstream++
		case UpstreamOrCombined:
			s.UpstreamOrCombined++
		case Indeterminate:
			s.Indeterminate++
		}
		for _, m := range st.Metrics {
			item := ReviewItem{PipelineID: pipeline, CaseID: st.CaseID, StageID: st.StageID, Metric: m.Metric, Verdict: m.Verdict, Reason: m.Reason}
			if m.RequiresReview || m.Verdict == evalcase.Uncertain {
				r.ReviewQueue = append(r.ReviewQueue, item)
			}
			if m.NotJudged {
				r.NotJudged = append(r.NotJudged, item)
			}
		}
		agree.stage(pipeline, st)
		for _, w := range st.Warnings {
			if !seenWarn[w] {
				seenWarn[w] = true
				r.Warnings = append(r.Warnings, w)
			}
		}
	}
	for _, p := range r.Pipelines {
		for _, st := range p.Stages {
			visit(p.PipelineID, st)
		}
	}
	for _, c := range r.Cases {
		visit("", c)
	}
	r.Summary = s
	r.Agreement = agree.result()
	r.Incomplete = len(r.NotJudged) > 0
}

// JSON encodes the report: two-space indentation, struct field order, map
// keys sorted, no HTML escaping, a final newline. The same report always
// gives the same bytes.
func (r *Report) JSON() ([]byte, error) {
	return jsonout.Marshal(r)
}

// HasVerdict reports whether any stage has one of the verdicts.
func (r *Report) HasVerdict(vs ...evalcase.Verdict) bool {
	match := func(v evalcase.Verdict) bool {
		for _, w := range vs {
			if v == w {
				return true
			}
		}
		return false
	}
	for _, p := range r.Pipelines {
		for _, st := range p.Stages {
			if match(st.Verdict) {
				return true
			}
		}
	}
	for _, c := range r.Cases {
		if match(c.Verdict) {
			return true
		}
	}
	return false
}

// Markdown renders the report's summary: a table of every stage, the
// failing and undecided stages with their context and metrics, what to
// rerun, the review queue, instruction fingerprints and warnings.
func (r *Report) Markdown() []byte {
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "# Evaluation report\n\n")
	if r.Source != "" {
		fmt.Fprintf(&b, "Source: `%s` · ", r.Source)
	}
	fmt.Fprintf(&b, "judge: %s · %d pipeline(s), %d case(s), %d stage(s): %d pass, %d fail, %d uncertain, %d not applicable\n\n",
		r.Judge, s.Pipelines, s.Cases, s.Stages, s.Pass, s.Fail, s.Uncertain, s.NotApplicable)
	if u := r.JudgeUsage; u != nil {
		fmt.Fprintf(&b, "Judge calls: %d made, %d reused from checkpoints · tokens: %d in, %d out", u.Calls, u.CachedCalls, u.Total.InputTokens, u.Total.OutputTokens)
		if u.Total.CostUSD != nil {
			fmt.Fprintf(&b, " · cost: $%s", strconv.FormatFloat(*u.Total.CostUSD, 'f', 4, 64))
		}
		b.WriteString("\n\n")
		b.WriteString(u.CostMarkdown())
	}
	if r.Incomplete {
		fmt.Fprintf(&b, "## Not judged\n\n**Incomplete run**: %d judge metric(s) were not judged and have no score.\n\n| pipeline | stage | metric | reason |\n|---|---|---|---|\n", len(r.NotJudged))
		for _, it := range r.NotJudged {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(it.PipelineID), mdCell(it.StageID), mdCell(it.Metric), mdCell(it.Reason))
		}
		b.WriteString("\n")
	}
	if len(r.Warnings) > 0 {
		b.WriteString("## Warnings\n\n")
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "- ⚠ %s\n", mdText(w))
		}
		b.WriteString("\n")
	}
	agreementMarkdown(&b, r.Agreement)
	b.WriteString("## Stages\n\n")
	b.WriteString("| pipeline | stage | operation | verdict | failure context | upstream | scores |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	type row struct {
		pipeline string
		st       StageReport
	}
	var rows []row
	for _, p := range r.Pipelines {
		for _, st := range p.Stages {
			rows = append(rows, row{p.PipelineID, st})
		}
	}
	for _, c := range r.Cases {
		rows = append(rows, row{"", c})
	}
	for _, rw := range rows {
		p := rw.pipeline
		if p == "" {
			p = "(case)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(p), mdCell(rw.st.StageID), mdCell(rw.st.Operation),
			verdictMark(rw.st.Verdict), contextText(rw.st.FailureContext), upstreamText(rw.st.UpstreamVerdicts), scoresText(rw.st.Scores))
	}
	b.WriteString("\n")
	var attention []row
	for _, rw := range rows {
		if rw.st.Verdict != evalcase.Pass || rw.st.FailureContext != "" || needsReview(rw.st) {
			attention = append(attention, rw)
		}
	}
	if len(attention) > 0 {
		b.WriteString("## Stages that need attention\n\n")
		for _, rw := range attention {
			title := rw.st.StageID
			if rw.pipeline != "" {
				title = rw.pipeline + " / " + rw.st.StageID
			}
			fmt.Fprintf(&b, "### %s: %s (%s)\n\n", mdText(title), rw.st.Verdict, contextText(rw.st.FailureContext))
			if len(rw.st.UpstreamVerdicts) > 0 {
				fmt.Fprintf(&b, "Upstream: %s\n\n", upstreamText(rw.st.UpstreamVerdicts))
			}
			for _, m := range rw.st.Metrics {
				fmt.Fprintf(&b, "- `%s`: %s", m.Metric, m.Verdict)
				if len(m.Scores) > 0 {
					fmt.Fprintf(&b, " (%s)", scoresText(m.Scores))
				}
				if m.Reason != "" {
					fmt.Fprintf(&b, ": %s", mdText(m.Reason))
				}
				b.WriteString("\n")
				for _, mm := range mismatchLines(m.Details) {
					fmt.Fprintf(&b, "  - %s\n", mm)
				}
				for _, pl := range panelLines(m.Details) {
					fmt.Fprintf(&b, "  - %s\n", pl)
				}
			}
			if len(rw.st.Metrics) == 0 {
				b.WriteString("- no metric applies to this stage\n")
			}
			fmt.Fprintf(&b, "\nRerun: %s\n\n", rerunAdvice(rw.st))
		}
	}
	if len(r.ReviewQueue) > 0 {
		b.WriteString("## Review queue\n\n| pipeline | stage | metric | verdict | reason |\n|---|---|---|---|---|\n")
		for _, it := range r.ReviewQueue {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", mdCell(it.PipelineID), mdCell(it.StageID), mdCell(it.Metric), it.Verdict, mdCell(it.Reason))
		}
		b.WriteString("\n")
	}
	b.WriteString("## Instructions and fingerprints\n\n| pipeline | stage | instruction | source | version | sha256 |\n|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| | | judge base instructions | docscore | %s | `%s` |\n", mdCell(r.JudgeBaseInstructions.Version), r.JudgeBaseInstructions.SHA256[:16])
	for _, rw := range rows {
		for _, in := range rw.st.Instructions {
			if in.Name == "judge_instructions" && in.Mode == evalcase.ModeAppend && in.SHA256 == r.JudgeBaseInstructions.SHA256 {
				continue // the base instructions unchanged: listed above
			}
			name := strings.ReplaceAll(in.Name, "_", " ")
			if in.Mode != "" {
				name += " (" + string(in.Mode) + ")"
			}
			ver := in.Version
			if in.Status != "" {
				ver += " (" + string(in.Status) + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | `%s` |\n", mdCell(rw.pipeline), mdCell(rw.st.StageID), name, mdCell(in.Source), mdCell(ver), in.SHA256[:16])
		}
	}
	b.WriteString("\nFingerprints are the first 16 hex digits of SHA-256; the JSON report has them in full.\n")
	return []byte(b.String())
}

// needsReview reports whether any metric of a stage asked for review.
func needsReview(st StageReport) bool {
	for _, m := range st.Metrics {
		if m.RequiresReview {
			return true
		}
	}
	return false
}

func verdictMark(v evalcase.Verdict) string {
	switch v {
	case evalcase.Pass:
		return "✅ pass"
	case evalcase.Fail:
		return "❌ fail"
	case evalcase.Uncertain:
		return "❔ uncertain"
	}
	return "➖ not applicable"
}

func contextText(f FailureContext) string {
	if f == "" {
		return "—"
	}
	return string(f)
}

func upstreamText(m map[string]evalcase.Verdict) string {
	return mapText(m, func(k string, v evalcase.Verdict) string { return mdCell(k) + ": " + string(v) })
}

func scoresText(m map[string]float64) string {
	return mapText(m, func(k string, v float64) string { return mdCell(k) + " " + formatScore(v) })
}

// mapText writes m's entries in key order with entry, joined by ", ";
// an empty map is "—".
func mapText[V any](m map[string]V, entry func(k string, v V) string) string {
	if len(m) == 0 {
		return "—"
	}
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, entry(k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// formatScore prints at most four decimals, without trailing zeros.
func formatScore(f float64) string { return mdtext.Score(f) }

func rerunAdvice(st StageReport) string {
	ups := make([]string, 0, len(st.UpstreamVerdicts))
	for k, v := range st.UpstreamVerdicts {
		if v != evalcase.Pass {
			ups = append(ups, k)
		}
	}
	if len(ups) == 0 {
		// Every direct dependency passed: the failure or the
		// undecided verdict is further up, through them.
		for k := range st.UpstreamVerdicts {
			ups = append(ups, k)
		}
	}
	sort.Strings(ups)
	upList := strings.Join(ups, ", ")
	switch st.FailureContext {
	case CurrentStage:
		if len(st.UpstreamVerdicts) == 0 {
			return "this stage failed on its own input: fix it (its action instruction or model) and rerun it, then the stages that depend on it."
		}
		return "this stage failed while everything upstream of it passed: fix this stage (its action instruction or model) and rerun it."
	case Upstream:
		return fmt.Sprintf("this stage passed on the input it received; fix the failing upstream stage(s) %s and rerun them, then this stage.", upList)
	case UpstreamOrCombined:
		return fmt.Sprintf("rerun this stage with corrected input from %s. If it then passes, the upstream error caused this failure; if it still fails, this stage also has a problem of its own.", upList)
	case Indeterminate:
		if st.Verdict == evalcase.Uncertain || st.Verdict == evalcase.NotApplicable {
			return "this stage could not be decided: add an exact reference or a judge, or review it by hand, then rerun."
		}
		return fmt.Sprintf("an upstream verdict (%s) is uncertain or not applicable: decide it first, then read this stage again.", upList)
	}
	return "nothing to rerun."
}

// mismatchLines lists the mismatched fields of an exact metric's details.
func mismatchLines(details json.RawMessage) []string {
	if len(details) == 0 {
		return nil
	}
	var d exactDetails
	if json.Unmarshal(details, &d) != nil {
		return nil
	}
	var out []string
	for _, ref := range d.References {
		for _, m := range ref.Mismatches {
			exp, _ := json.Marshal(m.Expected)
			act := "missing"
			if !m.Missing {
				a, _ := json.Marshal(m.Actual)
				act = string(a)
			}
			out = append(out, fmt.Sprintf("`%s`: expected %s, got %s (%s)", m.Path, mdText(string(exp)), mdText(act), mdText(ref.ArtifactID)))
		}
	}
	return out
}

// panelLines renders a panel's votes for the Markdown report.
func panelLines(details []byte) []string {
	if len(details) == 0 || !strings.Contains(string(details), `"vote_rule"`) {
		return nil
	}
	var d judging.PanelDetails
	if err := json.Unmarshal(details, &d); err != nil || d.VoteRule == "" {
		return nil
	}
	var out []string
	groups := append([]judging.PanelGroup(nil), d.Groups...)
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].Group < groups[j].Group })
	for _, g := range groups {
		out = append(out, fmt.Sprintf("group `%s` votes %s (%s)", mdText(g.Group), g.Vote, g.Counts))
	}
	for _, s := range d.Samples {
		line := fmt.Sprintf("variant `%s` (%s, temperature %s, %s): %s", mdText(s.Variant), mdText(s.Group), judging.TemperatureText(s.Temperature), s.Provenance, s.Verdict)
		if s.Unusable != "" {
			line += ": " + mdText(s.Unusable)
		}
		out = append(out, line)
	}
	for _, ds := range d.Dissent {
		out = append(out, fmt.Sprintf("dissent `%s`: %s: %s", mdText(ds.Variant), ds.Verdict, mdText(ds.Rationale)))
	}
	return out
}

// mdText keeps user text on one Markdown line.
func mdText(s string) string { return mdtext.Line(s) }

// mdCell escapes user text for a table cell.
func mdCell(s string) string { return mdtext.Cell(s) }
