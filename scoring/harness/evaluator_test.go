package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/harness/expression"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/judging"
)

func TestAttribute(t *testing.T) {
	tests := []struct {
		v        evalcase.Verdict
		upstream []evalcase.Verdict
		want     FailureContext
	}{
		{evalcase.Pass, nil, ""},
		{evalcase.Pass, []evalcase.Verdict{evalcase.Pass, evalcase.Pass}, ""},
		{evalcase.Fail, nil, CurrentStage},
		{evalcase.Fail, []evalcase.Verdict{evalcase.Pass}, CurrentStage},
		{evalcase.Pass, []evalcase.Verdict{evalcase.Fail}, Upstream},
		{evalcase.Pass, []evalcase.Verdict{evalcase.Pass, evalcase.Fail}, Upstream},
		{evalcase.Pass, []evalcase.Verdict{evalcase.Fail, evalcase.Uncertain}, Upstream},
		{evalcase.Fail, []evalcase.Verdict{evalcase.Fail}, UpstreamOrCombined},
		{evalcase.Fail, []evalcase.Verdict{evalcase.Uncertain, evalcase.Fail}, UpstreamOrCombined},
		{evalcase.Uncertain, nil, Indeterminate},
		{evalcase.Uncertain, []evalcase.Verdict{evalcase.Fail}, Indeterminate},
		{evalcase.NotApplicable, []evalcase.Verdict{evalcase.Pass}, Indeterminate},
		{evalcase.Fail, []evalcase.Verdict{evalcase.Uncertain}, Indeterminate},
		{evalcase.Fail, []evalcase.Verdict{evalcase.NotApplicable}, Indeterminate},
		{evalcase.Pass, []evalcase.Verdict{evalcase.NotApplicable}, Indeterminate},
	}
	for _, tt := range tests {
		if got := Attribute(tt.v, tt.upstream); got != tt.want {
			t.Errorf("Attribute(%s, %v) = %q, want %q", tt.v, tt.upstream, got, tt.want)
		}
	}
}

func TestCombineVerdicts(t *testing.T) {
	tests := []struct {
		in   []evalcase.Verdict
		want evalcase.Verdict
	}{
		{nil, evalcase.NotApplicable},
		{[]evalcase.Verdict{evalcase.NotApplicable, evalcase.NotApplicable}, evalcase.NotApplicable},
		{[]evalcase.Verdict{evalcase.Pass, evalcase.NotApplicable}, evalcase.Pass},
		{[]evalcase.Verdict{evalcase.Pass, evalcase.Uncertain}, evalcase.Uncertain},
		{[]evalcase.Verdict{evalcase.Uncertain, evalcase.Fail, evalcase.Pass}, evalcase.Fail},
	}
	for _, tt := range tests {
		if got := combineVerdicts(tt.in); got != tt.want {
			t.Errorf("combineVerdicts(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// constMetric returns a fixed verdict and counts its calls.
type constMetric struct {
	name    string
	verdict evalcase.Verdict
	calls   *int64
}

func (m constMetric) Name() string { return m.name }
func (m constMetric) Evaluate(_ context.Context, _ evalcase.EvaluationCase) (evalcase.MetricResult, error) {
	if m.calls != nil {
		atomic.AddInt64(m.calls, 1)
	}
	return evalcase.MetricResult{Verdict: m.verdict, Scores: map[string]float64{"s": 1}}, nil
}

func stage(id string, deps ...string) evalcase.EvaluationCase {
	return evalcase.EvaluationCase{CaseID: "doc", StageID: id, Operation: "op-" + id, Prediction: map[string]any{"v": id}, DependsOn: deps}
}

func TestPipelineGraphErrors(t *testing.T) {
	tests := []struct {
		name   string
		stages []evalcase.EvaluationCase
		want   string
	}{
		{"unknown dependency", []evalcase.EvaluationCase{stage("a"), stage("b", "nope")}, `stage "b" depends on "nope", which is not a stage of this pipeline`},
		{"self dependency", []evalcase.EvaluationCase{stage("a", "a")}, `stage "a" depends on itself`},
		{"cycle", []evalcase.EvaluationCase{stage("a", "c"), stage("b", "a"), stage("c", "b")}, "depends_on forms a cycle: a -> c -> b -> a"},
		{"duplicate id", []evalcase.EvaluationCase{stage("a"), stage("a")}, `two stages have the id "a"`},
		{"no id", []evalcase.EvaluationCase{{Prediction: 1}}, "neither stage_id nor case_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &PipelineEvaluator{DefaultMetrics: []evalcase.Metric{constMetric{"m", evalcase.Pass, nil}}}
			_, err := e.Evaluate(context.Background(), casefile.PipelineCase{PipelineID: "p", Stages: tt.stages})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if _, ok := inputerr.As(err); !ok {
				t.Errorf("%v is not an input error", err)
			}
		})
	}
}

// TestPipelineOrderAndUpstream evaluates a diamond listed out of order:
// every stage lists its direct dependencies' verdicts, and its failure
// context weighs every stage upstream.
func TestPipelineOrderAndUpstream(t *testing.T) {
	p := casefile.PipelineCase{PipelineID: "p", Stages: []evalcase.EvaluationCase{stage("d", "b", "c"), stage("b", "a"), stage("c", "a"), stage("a")}}
	var order []string
	e := &PipelineEvaluator{DefaultMetrics: []evalcase.Metric{&FunctionMetric{MetricName: "m", Func: func(_ context.Context, s evalcase.EvaluationCase) (float64, error) {
		order = append(order, s.Stage())
		if s.Stage() == "b" {
			return 0, nil
		}
		return 1, nil
	}}}}
	r, err := e.Evaluate(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, ","); got != "a,b,c,d" {
		t.Errorf("evaluation order %s, want a,b,c,d", got)
	}
	d := r.Stages[0]
	if d.StageID != "d" || len(d.UpstreamVerdicts) != 2 || d.UpstreamVerdicts["c"] != evalcase.Pass || d.UpstreamVerdicts["b"] != evalcase.Fail {
		t.Errorf("stage d: %+v", d.UpstreamVerdicts)
	}
	if d.FailureContext != Upstream || r.Stages[1].FailureContext != CurrentStage || r.Stages[2].FailureContext != "" {
		t.Errorf("contexts d=%q b=%q c=%q", d.FailureContext, r.Stages[1].FailureContext, r.Stages[2].FailureContext)
	}
	if r.Verdict != evalcase.Fail {
		t.Errorf("pipeline verdict %s", r.Verdict)
	}
}

func TestMetricSelectionOrder(t *testing.T) {
	pick := func(name string) []evalcase.Metric { return []evalcase.Metric{constMetric{name, evalcase.Pass, nil}} }
	e := &PipelineEvaluator{
		StageMetrics:     map[string][]evalcase.Metric{"by-stage": pick("stage-metric"), "both": pick("stage-metric")},
		OperationMetrics: map[string][]evalcase.Metric{"op-by-op": pick("op-metric"), "op-both": pick("op-metric")},
		DefaultMetrics:   pick("default-metric"),
	}
	inline := stage("by-op")
	inline.StageID = "inline"
	inline.Metrics = []evalcase.MetricSpec{{Name: "inline-metric", Expression: "true"}}
	inline.Operation = "op-both"
	tests := []struct {
		c         evalcase.EvaluationCase
		metric    string
		selection string
	}{
		{stage("by-stage"), "stage-metric", "stage_id"},
		{stage("both"), "stage-metric", "stage_id"},
		{stage("by-op"), "op-metric", "operation"},
		{stage("other"), "default-metric", "default"},
		{inline, "inline-metric", "stage"},
	}
	for _, tt := range tests {
		sr, err := e.EvaluateCase(context.Background(), tt.c)
		if err != nil {
			t.Fatal(err)
		}
		if len(sr.Metrics) != 1 || sr.Metrics[0].Metric != tt.metric || sr.MetricSelection != tt.selection {
			t.Errorf("stage %s: metrics %+v selection %s, want %s by %s", tt.c.Stage(), sr.Metrics, sr.MetricSelection, tt.metric, tt.selection)
		}
	}
	none, err := (&PipelineEvaluator{}).EvaluateCase(context.Background(), stage("x"))
	if err != nil || none.Verdict != evalcase.NotApplicable || none.MetricSelection != "none" || none.FailureContext != Indeterminate {
		t.Errorf("no metrics: %+v, %v", none, err)
	}
}

func TestStageScoresMerge(t *testing.T) {
	got := stageScores([]evalcase.MetricResult{
		{Metric: "exact", Scores: map[string]float64{"field_accuracy": 0.5, "x": 1}},
		{Metric: "judge", Scores: map[string]float64{"f1": 0.8, "x": 0}},
	})
	want := map[string]float64{"field_accuracy": 0.5, "exact/x": 1, "f1": 0.8, "judge/x": 0}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}

// TestFunctionMetricSeedExample is the seed's Python API example in Go: an
// exact metric on the extraction and a Go function that recomputes the
// total from the stage input.
func TestFunctionMetricSeedExample(t *testing.T) {
	items := map[string]any{"line_items": []any{
		map[string]any{"quantity": 2, "unit_price": 4.25},
		map[string]any{"quantity": 1, "unit_price": 3.00},
	}}
	gt, err := evalcase.ArtifactFromValue(items, evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth, ArtifactID: "human-transcription"})
	if err != nil {
		t.Fatal(err)
	}
	totalMatches := func(s evalcase.EvaluationCase) (bool, error) {
		expected := 0.0
		for _, row := range s.InputData.(map[string]any)["line_items"].([]any) {
			r := row.(map[string]any)
			q, _ := evalcase.Number(r["quantity"])
			p, _ := evalcase.Number(r["unit_price"])
			expected += q * p
		}
		got, ok := evalcase.Number(s.Prediction.(map[string]any)["total"])
		if !ok {
			return false, ErrUndecided
		}
		return got == expected, nil
	}
	e := &PipelineEvaluator{OperationMetrics: map[string][]evalcase.Metric{
		"parse_line_items":              {&ExactStructuredMetric{}},
		"sum_quantity_times_unit_price": {NewFunctionMetric("recalculate_total", "calculation_accuracy", totalMatches)},
	}}
	for _, tt := range []struct {
		total any
		want  evalcase.Verdict
	}{{11.50, evalcase.Pass}, {12.0, evalcase.Fail}, {"n/a", evalcase.Uncertain}} {
		p := casefile.PipelineCase{PipelineID: "document-processing", Stages: []evalcase.EvaluationCase{
			{CaseID: "document-001", StageID: "extract", Operation: "parse_line_items", Prediction: items, References: []evalcase.ReferenceArtifact{gt}},
			{CaseID: "document-001", StageID: "calculate-total", Operation: "sum_quantity_times_unit_price", InputData: items,
				Prediction: map[string]any{"total": tt.total}, DependsOn: []string{"extract"}},
		}}
		r, err := e.Evaluate(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		calc := r.Stages[1]
		if calc.Verdict != tt.want {
			t.Errorf("total %v: %s, want %s", tt.total, calc.Verdict, tt.want)
		}
		if tt.want != evalcase.Uncertain && calc.Scores["calculation_accuracy"] != map[evalcase.Verdict]float64{evalcase.Pass: 1, evalcase.Fail: 0}[tt.want] {
			t.Errorf("total %v: scores %v", tt.total, calc.Scores)
		}
	}
}

func TestMetricErrorsStopTheRun(t *testing.T) {
	boom := errors.New("provider down")
	e := &PipelineEvaluator{DefaultMetrics: []evalcase.Metric{&FunctionMetric{MetricName: "m", Func: func(context.Context, evalcase.EvaluationCase) (float64, error) { return 0, boom }}}}
	_, err := e.Evaluate(context.Background(), casefile.PipelineCase{PipelineID: "p", Stages: []evalcase.EvaluationCase{stage("a")}})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), `pipeline "p" stage "a": metric "m"`) {
		t.Fatalf("error %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Evaluate(ctx, casefile.PipelineCase{PipelineID: "p", Stages: []evalcase.EvaluationCase{stage("a")}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestCheckpointReuse(t *testing.T) {
	var calls int64
	counting := constMetric{"counting", evalcase.Pass, &calls}
	store := evalcase.NewMemoryCheckpointStore()
	newEval := func(ctx any) *PipelineEvaluator {
		return &PipelineEvaluator{DefaultMetrics: []evalcase.Metric{counting}, Checkpoints: store, CheckpointContext: ctx}
	}
	p := casefile.PipelineCase{PipelineID: "p", Stages: []evalcase.EvaluationCase{stage("a"), stage("b", "a"), stage("c")}}
	run := func(e *PipelineEvaluator, p casefile.PipelineCase) PipelineReport {
		t.Helper()
		r, err := e.Evaluate(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ctx1 := map[string]any{"judge_model": "m1"}
	first := run(newEval(ctx1), p)
	if calls != 3 {
		t.Fatalf("first run: %d metric calls, want 3", calls)
	}
	second := run(newEval(ctx1), p)
	if calls != 3 {
		t.Fatalf("rerun called the metric %d more times, want 0", calls-3)
	}
	for i := range second.Stages {
		if !second.Stages[i].FromCheckpoint || second.Stages[i].Fingerprint != first.Stages[i].Fingerprint {
			t.Errorf("stage %s not reused", second.Stages[i].StageID)
		}
	}
	// A changed context reruns everything.
	run(newEval(map[string]any{"judge_model": "m2"}), p)
	if calls != 6 {
		t.Fatalf("changed context: %d calls, want 6", calls)
	}
	// A changed stage reruns it and the stages that depend on it, not the others.
	changed := p
	changed.Stages = append([]evalcase.EvaluationCase{}, p.Stages...)
	changed.Stages[0].Prediction = map[string]any{"v": "edited"}
	r := run(newEval(map[string]any{"judge_model": "m2"}), changed)
	if calls != 8 {
		t.Fatalf("changed stage a: %d calls, want 8 (a and b rerun)", calls)
	}
	if r.Stages[0].FromCheckpoint || r.Stages[1].FromCheckpoint || !r.Stages[2].FromCheckpoint {
		t.Errorf("from_checkpoint a=%v b=%v c=%v, want false false true", r.Stages[0].FromCheckpoint, r.Stages[1].FromCheckpoint, r.Stages[2].FromCheckpoint)
	}
	// A corrupt checkpoint is not trusted: the stage reruns.
	store.Save(checkpointKey("p", "c"), []byte("{not json"))
	run(newEval(map[string]any{"judge_model": "m2"}), changed)
	if calls != 9 {
		t.Fatalf("corrupt checkpoint: %d calls, want 9", calls)
	}
}

func TestCheckpointChangedMetricReruns(t *testing.T) {
	store := evalcase.NewMemoryCheckpointStore()
	eval := func(expr string) StageReport {
		m, err := expression.NewExpressionMetric(evalcase.MetricSpec{Name: "m", Expression: expr})
		if err != nil {
			t.Fatal(err)
		}
		sr, err := (&PipelineEvaluator{DefaultMetrics: []evalcase.Metric{m}, Checkpoints: store}).EvaluateCase(context.Background(), stage("a"))
		if err != nil {
			t.Fatal(err)
		}
		return sr
	}
	if sr := eval("true"); sr.Verdict != evalcase.Pass || sr.FromCheckpoint {
		t.Fatalf("%+v", sr)
	}
	if sr := eval("false"); sr.Verdict != evalcase.Fail || sr.FromCheckpoint {
		t.Fatalf("a changed expression reused the checkpoint: %+v", sr)
	}
}

func TestReplaceModeGuard(t *testing.T) {
	c := stage("a")
	c.JudgeInstruction = "Only check the currency."
	c.JudgeInstructionMode = evalcase.ModeReplace
	e := &PipelineEvaluator{DefaultMetrics: []evalcase.Metric{constMetric{"m", evalcase.Pass, nil}}}
	_, err := e.EvaluateCase(context.Background(), c)
	if err == nil || !strings.Contains(err.Error(), "allow_unsafe_judge_override") {
		t.Fatalf("replace without override: %v", err)
	}
	if _, ok := inputerr.As(err); !ok {
		t.Errorf("not an input error: %v", err)
	}
	if _, err := judging.BuildJudgeRequest(c); err == nil {
		t.Error("BuildJudgeRequest accepted replace without the override")
	}
	c.AllowUnsafeJudgeOverride = true
	r, err := e.Run(context.Background(), nil, []evalcase.EvaluationCase{c})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "replaces the protected judge instructions") {
		t.Errorf("warnings %v", r.Warnings)
	}
	if !strings.Contains(string(r.Markdown()), "⚠ stage \"a\" replaces the protected judge instructions") {
		t.Error("the Markdown report does not show the warning")
	}
	req, err := judging.BuildJudgeRequest(c)
	if err != nil || req.Instructions != "Only check the currency." || len(req.Warnings) != 1 {
		t.Errorf("replace request: %q %v %v", req.Instructions, req.Warnings, err)
	}
}

// chain is a pipeline of n stages, stage i depending on stage i-1.
func chain(n int) casefile.PipelineCase {
	p := casefile.PipelineCase{PipelineID: "chain"}
	for i := 0; i < n; i++ {
		var deps []string
		if i > 0 {
			deps = []string{fmt.Sprintf("s%d", i-1)}
		}
		p.Stages = append(p.Stages, stage(fmt.Sprintf("s%d", i), deps...))
	}
	return p
}

// TestChainAttribution checks that a failure at the head of a chain
// reaches every stage below it through passing stages, each stage naming
// only the stage it depends on.
func TestChainAttribution(t *testing.T) {
	cases := []struct {
		name string
		head evalcase.Verdict
		want FailureContext
	}{
		{"failed head", evalcase.Fail, Upstream},
		{"uncertain head", evalcase.Uncertain, Indeterminate},
		{"passing head", evalcase.Pass, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &PipelineEvaluator{StageMetrics: map[string][]evalcase.Metric{"s0": {constMetric{"m", c.head, nil}}},
				DefaultMetrics: []evalcase.Metric{constMetric{"m", evalcase.Pass, nil}}}
			r, err := e.Evaluate(context.Background(), chain(4))
			if err != nil {
				t.Fatal(err)
			}
			last := r.Stages[3]
			if len(last.UpstreamVerdicts) != 1 || last.UpstreamVerdicts["s2"] != evalcase.Pass {
				t.Errorf("upstream_verdicts %v, want only s2: pass", last.UpstreamVerdicts)
			}
			if last.FailureContext != c.want {
				t.Errorf("failure context %q, want %q", last.FailureContext, c.want)
			}
		})
	}
}

// TestLongChainIsLinear checks that a chain's report grows linearly with
// its stages (it grew with their square when every stage listed its whole
// upstream), that a pipeline over MaxPipelineStages is an input error
// naming the cap, and that a cancelled context stops the stage loop.
func TestLongChainIsLinear(t *testing.T) {
	size := func(n int) int {
		e := &PipelineEvaluator{DefaultMetrics: []evalcase.Metric{constMetric{"m", evalcase.Fail, nil}}}
		r, err := e.Run(context.Background(), []casefile.PipelineCase{chain(n)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	small, big := size(500), size(2000)
	if ratio := float64(big) / float64(small); ratio > 4.4 {
		t.Errorf("2,000 stages: %d bytes, 500 stages: %d bytes: %.1f times for 4 times the stages", big, small, ratio)
	}
	e := &PipelineEvaluator{DefaultMetrics: []evalcase.Metric{constMetric{"m", evalcase.Pass, nil}}}
	_, err := e.Evaluate(context.Background(), chain(MaxPipelineStages+1))
	if _, ok := inputerr.As(err); !ok || !strings.Contains(err.Error(), fmt.Sprintf("over the cap of %d stages", MaxPipelineStages)) {
		t.Errorf("%d stages: error %v, want an input error naming the cap", MaxPipelineStages+1, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Evaluate(ctx, chain(10)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}
