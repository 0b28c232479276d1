package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/judging"
)

// FailureContext localizes a failure across a pipeline's dependency graph.
// It is careful attribution, not proof of causality. The empty value means
// nothing failed and is reported as JSON null.
type FailureContext string

// The failure contexts of the seed.
const (
	// CurrentStage: this stage failed while every upstream stage passed.
	CurrentStage FailureContext = "current_stage"
	// Upstream: this stage passed on the input it received, but an upstream
	// stage failed.
	Upstream FailureContext = "upstream"
	// UpstreamOrCombined: this stage and an upstream stage both failed; the
	// result must not be blamed on this stage alone.
	UpstreamOrCombined FailureContext = "upstream_or_combined"
	// Indeterminate: an uncertain or not-applicable verdict, here or
	// upstream, prevents attribution.
	Indeterminate FailureContext = "indeterminate"
)

// MarshalJSON writes the context, or null when nothing failed.
func (f FailureContext) MarshalJSON() ([]byte, error) {
	if f == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(f))
}

// UnmarshalJSON reads a context or null.
func (f *FailureContext) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*f = FailureContext(s)
	return nil
}

// Attribute returns the failure context of a stage with verdict v whose
// upstream stages (all of them, transitively) have the given verdicts:
//
//   - the stage is uncertain or not applicable: indeterminate;
//   - it failed: upstream_or_combined when an upstream stage failed, else
//     indeterminate when an upstream verdict is uncertain or not
//     applicable, else current_stage;
//   - it passed: upstream when an upstream stage failed, else
//     indeterminate when an upstream verdict is uncertain or not
//     applicable, else none ("").
func Attribute(v evalcase.Verdict, upstream []evalcase.Verdict) FailureContext {
	var upFail, upUnknown bool
	for _, u := range upstream {
		switch u {
		case evalcase.Fail:
			upFail = true
		case evalcase.Pass:
		default:
			upUnknown = true
		}
	}
	switch v {
	case evalcase.Fail:
		switch {
		case upFail:
			return UpstreamOrCombined
		case upUnknown:
			return Indeterminate
		}
		return CurrentStage
	case evalcase.Pass:
		switch {
		case upFail:
			return Upstream
		case upUnknown:
			return Indeterminate
		}
		return ""
	}
	return Indeterminate
}

// MaxPipelineStages caps the stages of one pipeline: a pipeline over it
// is an input error. The work and the report grow linearly with the
// stages; the cap keeps one request's dependency graph to a size a
// person reads.
const MaxPipelineStages = 5000

// upstreamState sums the verdicts upstream of a stage: whether one
// failed, whether one is uncertain or not applicable.
type upstreamState struct{ fail, unknown bool }

// with adds one upstream verdict.
func (u upstreamState) with(v evalcase.Verdict) upstreamState {
	switch v {
	case evalcase.Fail:
		u.fail = true
	case evalcase.Pass:
	default:
		u.unknown = true
	}
	return u
}

// join adds the verdicts upstream of an upstream stage.
func (u upstreamState) join(o upstreamState) upstreamState {
	return upstreamState{u.fail || o.fail, u.unknown || o.unknown}
}

// attribute is Attribute over the summed upstream verdicts.
func (u upstreamState) attribute(v evalcase.Verdict) FailureContext {
	var list []evalcase.Verdict
	if u.fail {
		list = append(list, evalcase.Fail)
	}
	if u.unknown {
		list = append(list, evalcase.Uncertain)
	}
	return Attribute(v, list)
}

// combineVerdicts folds metric (or stage) verdicts into one: any fail
// fails; otherwise any uncertain is uncertain; otherwise any pass passes;
// otherwise (nothing applied) not_applicable.
func combineVerdicts(vs []evalcase.Verdict) evalcase.Verdict {
	Has := map[evalcase.Verdict]bool{}
	for _, v := range vs {
		Has[v] = true
	}
	switch {
	case Has[evalcase.Fail]:
		return evalcase.Fail
	case Has[evalcase.Uncertain]:
		return evalcase.Uncertain
	case Has[evalcase.Pass]:
		return evalcase.Pass
	}
	return evalcase.NotApplicable
}

// PipelineEvaluator evaluates pipelines and cases. For each stage it
// selects metrics in this order, taking the first that has any: metrics
// written on the stage itself (cases files), StageMetrics by stage id,
// OperationMetrics by operation, then DefaultMetrics. A stage with no
// metrics is not_applicable.
type PipelineEvaluator struct {
	StageMetrics     map[string][]evalcase.Metric
	OperationMetrics map[string][]evalcase.Metric
	DefaultMetrics   []evalcase.Metric
	// Registry resolves each stage's operation against its OperationSpec.
	Registry *evalcase.OperationRegistry
	// MetricKinds builds the metrics written on stages; nil means
	// DefaultMetricKinds.
	MetricKinds casefile.MetricKinds
	// Checkpoints, when set, keeps every completed stage; a stage is
	// reused only while its fingerprint (the serialized stage, its
	// metrics, its upstream stages' fingerprints and CheckpointContext) is
	// unchanged.
	Checkpoints evalcase.CheckpointStore
	// CheckpointContext holds every external setting that can change a
	// result (judge provider, model, temperature, prompt version); it must
	// marshal to JSON.
	CheckpointContext any
	// JudgeName is recorded in reports; empty means "none".
	JudgeName string
}

// Evaluate evaluates one pipeline. A pipeline whose stage graph is invalid
// (unknown dependency, cycle, duplicate id) is an input error.
func (e *PipelineEvaluator) Evaluate(ctx context.Context, p casefile.PipelineCase) (PipelineReport, error) {
	if len(p.Stages) > MaxPipelineStages {
		return PipelineReport{}, inputerr.New("pipeline "+p.PipelineID, 0, "%d stages: over the cap of %d stages per pipeline (split it into pipelines)", len(p.Stages), MaxPipelineStages)
	}
	order, err := p.Order()
	if err != nil {
		return PipelineReport{}, err
	}
	index := make(map[string]int, len(p.Stages))
	for i, s := range p.Stages {
		index[s.Stage()] = i
	}
	stages := make([]StageReport, len(p.Stages))
	// above[i] sums the verdicts of every stage upstream of stage i,
	// directly or transitively: one pass over the direct dependencies in
	// dependency order, so a chain of n stages costs n steps, not n².
	above := make([]upstreamState, len(p.Stages))
	for _, i := range order {
		if err := ctx.Err(); err != nil {
			return PipelineReport{}, err
		}
		c := p.Stages[i]
		var upFPs []string // nil without dependencies: the fingerprint hashes null
		uv := make(map[string]evalcase.Verdict, len(c.DependsOn))
		for _, d := range c.DependsOn {
			j := index[d]
			upFPs = append(upFPs, stages[j].Fingerprint)
			uv[d] = stages[j].Verdict
			above[i] = above[i].with(stages[j].Verdict).join(above[j])
		}
		sr, err := e.evaluateStage(ctx, checkpointKey(p.PipelineID, c.Stage()), c, upFPs)
		if err != nil {
			return PipelineReport{}, fmt.Errorf("pipeline %q stage %q: %w", p.PipelineID, c.Stage(), err)
		}
		sr.UpstreamVerdicts = uv
		sr.FailureContext = above[i].attribute(sr.Verdict)
		stages[i] = sr
	}
	all := make([]evalcase.Verdict, len(stages))
	for i := range stages {
		all[i] = stages[i].Verdict
	}
	return PipelineReport{PipelineID: p.PipelineID, Verdict: combineVerdicts(all), Stages: stages}, nil
}

// EvaluateCase evaluates one case on its own (a pipeline of one stage
// with no dependencies).
func (e *PipelineEvaluator) EvaluateCase(ctx context.Context, c evalcase.EvaluationCase) (StageReport, error) {
	if len(c.DependsOn) > 0 {
		return StageReport{}, inputerr.New("case "+c.CaseID, 0, "a case on its own cannot depend on other stages (depends_on %v): put it in a pipeline", c.DependsOn)
	}
	sr, err := e.evaluateStage(ctx, checkpointKey("case:"+c.CaseID, c.Stage()), c, nil)
	if err != nil {
		return StageReport{}, fmt.Errorf("case %q: %w", c.CaseID, err)
	}
	sr.UpstreamVerdicts = map[string]evalcase.Verdict{}
	sr.FailureContext = Attribute(sr.Verdict, nil)
	return sr, nil
}

// Run evaluates pipelines and standalone cases into one report.
func (e *PipelineEvaluator) Run(ctx context.Context, pipelines []casefile.PipelineCase, cases []evalcase.EvaluationCase) (*Report, error) {
	r := newReport(e.JudgeName)
	seenP := map[string]bool{}
	for _, p := range pipelines {
		if seenP[p.PipelineID] {
			return nil, inputerr.New("pipeline "+p.PipelineID, 0, "two pipelines have the id %q", p.PipelineID)
		}
		seenP[p.PipelineID] = true
		pr, err := e.Evaluate(ctx, p)
		if err != nil {
			return nil, err
		}
		r.Pipelines = append(r.Pipelines, pr)
	}
	seenC := map[string]bool{}
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if seenC[c.CaseID] {
			return nil, inputerr.New("case "+c.CaseID, 0, "two cases have the id %q", c.CaseID)
		}
		seenC[c.CaseID] = true
		sr, err := e.EvaluateCase(ctx, c)
		if err != nil {
			return nil, err
		}
		r.Cases = append(r.Cases, sr)
	}
	r.finish()
	return r, nil
}

// selectMetrics picks the stage's metrics and says where they came from.
func (e *PipelineEvaluator) selectMetrics(c evalcase.EvaluationCase) ([]evalcase.Metric, string, error) {
	if len(c.Metrics) > 0 {
		kinds := e.MetricKinds
		if kinds == nil {
			kinds = DefaultMetricKinds()
		}
		ms, err := kinds.Build(c.Metrics)
		if err != nil {
			return nil, "", inputerr.New("stage "+c.Stage(), 0, "%v", err)
		}
		return ms, "stage", nil
	}
	if ms := e.StageMetrics[c.Stage()]; len(ms) > 0 {
		return ms, "stage_id", nil
	}
	if ms := e.OperationMetrics[c.Operation]; len(ms) > 0 && c.Operation != "" {
		return ms, "operation", nil
	}
	if len(e.DefaultMetrics) > 0 {
		return e.DefaultMetrics, "default", nil
	}
	return nil, "none", nil
}

// fingerprintInput is what a stage fingerprint hashes: the serialized
// stage, its metrics and its upstream stages' fingerprints. It leaves out
// the checkpoint context, so every host reports the same fingerprint.
type fingerprintInput struct {
	Version  int                     `json:"version"`
	Case     evalcase.EvaluationCase `json:"case"`
	Metrics  []string                `json:"metrics"`
	Upstream []string                `json:"upstream"`
}

// checkpointFingerprint joins a stage fingerprint with the checkpoint
// context: a checkpoint is reused only when both match.
func checkpointFingerprint(stageFP string, context any) (string, error) {
	b, err := evalcase.CanonicalJSON(struct {
		Stage   string `json:"stage"`
		Context any    `json:"context"`
	}{stageFP, context})
	if err != nil {
		return "", fmt.Errorf("checkpoint context: %w", err)
	}
	return evalcase.SHA256Hex(b), nil
}

func (e *PipelineEvaluator) evaluateStage(ctx context.Context, key string, c evalcase.EvaluationCase, upstreamFPs []string) (StageReport, error) {
	if err := ctx.Err(); err != nil {
		return StageReport{}, err
	}
	if e.Registry != nil {
		c = e.Registry.Resolve(c)
	}
	c = evalcase.ApplySpec(c)
	if err := c.CheckInstructionGuard(); err != nil {
		return StageReport{}, inputerr.New("case "+c.CaseID, 0, "%v", err)
	}
	metrics, selection, err := e.selectMetrics(c)
	if err != nil {
		return StageReport{}, err
	}
	var descr []string
	seen := map[string]bool{}
	for _, m := range metrics {
		if seen[m.Name()] {
			return StageReport{}, inputerr.New("stage "+c.Stage(), 0, "two metrics are named %q", m.Name())
		}
		seen[m.Name()] = true
		d := m.Name()
		if f, ok := m.(evalcase.Fingerprinter); ok {
			d += "|" + f.Fingerprint()
		}
		descr = append(descr, d)
	}
	fpBytes, err := evalcase.CanonicalJSON(fingerprintInput{Version: checkpointVersion, Case: c, Metrics: descr, Upstream: upstreamFPs})
	if err != nil {
		return StageReport{}, fmt.Errorf("fingerprint: %w", err)
	}
	fp := evalcase.SHA256Hex(fpBytes)
	cpFP, err := checkpointFingerprint(fp, e.CheckpointContext)
	if err != nil {
		return StageReport{}, err
	}

	var results []evalcase.MetricResult
	fromCheckpoint := false
	if e.Checkpoints != nil {
		results, fromCheckpoint, err = loadCheckpoint(e.Checkpoints, key, cpFP)
		if err != nil {
			return StageReport{}, fmt.Errorf("checkpoint %s: %w", key, err)
		}
	}
	if !fromCheckpoint {
		results = make([]evalcase.MetricResult, 0, len(metrics))
		for _, m := range metrics {
			res, err := m.Evaluate(ctx, c)
			if err != nil {
				return StageReport{}, fmt.Errorf("metric %q: %w", m.Name(), err)
			}
			if res.Metric == "" {
				res.Metric = m.Name()
			}
			if res.Scores == nil {
				res.Scores = map[string]float64{}
			}
			if err := res.Check(); err != nil {
				return StageReport{}, err
			}
			results = append(results, res)
		}
		if e.Checkpoints != nil && !anyNotJudged(results) {
			if err := saveCheckpoint(e.Checkpoints, key, cpFP, results); err != nil {
				return StageReport{}, fmt.Errorf("checkpoint %s: %w", key, err)
			}
		}
	}
	var vs []evalcase.Verdict
	for _, r := range results {
		vs = append(vs, r.Verdict)
	}
	instr, warnings := judging.StageInstructions(c)
	refs := []judging.ReferenceEntry{}
	for _, r := range c.References {
		refs = append(refs, judging.ReferenceEntry{ArtifactID: r.ArtifactID, Authority: r.Authority, Kind: r.Kind, MediaType: r.MediaType, ComparisonMode: r.ComparisonMode, SHA256: r.SHA256, Metadata: r.Metadata})
	}
	deps := c.DependsOn
	if deps == nil {
		deps = []string{}
	}
	if warnings == nil {
		warnings = []string{}
	}
	return StageReport{
		CaseID: c.CaseID, StageID: c.Stage(), Operation: c.Operation, DependsOn: deps,
		Verdict: combineVerdicts(vs), Scores: stageScores(results), MetricSelection: selection,
		Metrics: results, Producer: c.Producer, References: refs, Instructions: instr,
		Fingerprint: fp, FromCheckpoint: fromCheckpoint, Warnings: warnings,
	}, nil
}

// stageScores merges the metrics' scores: a score name reported by one
// metric keeps its name; a name reported by several becomes
// "<metric>/<score>" for each of them.
func stageScores(results []evalcase.MetricResult) map[string]float64 {
	count := map[string]int{}
	for _, r := range results {
		for k := range r.Scores {
			count[k]++
		}
	}
	out := map[string]float64{}
	for _, r := range results {
		keys := make([]string, 0, len(r.Scores))
		for k := range r.Scores {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if count[k] > 1 {
				out[r.Metric+"/"+k] = r.Scores[k]
			} else {
				out[k] = r.Scores[k]
			}
		}
	}
	return out
}

// anyNotJudged reports whether a metric's judge call was never made: such
// a stage is not checkpointed, so a rerun asks again.
func anyNotJudged(results []evalcase.MetricResult) bool {
	for _, r := range results {
		if r.NotJudged {
			return true
		}
	}
	return false
}
