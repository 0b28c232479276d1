package harness

import (
	"bytes"
	"context"
	"io"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/judging"
)

// EvaluatorOptions configure NewCaseEvaluator and EvaluateCaseFile.
type EvaluatorOptions struct {
	// MetricKinds builds the file's metric specs; nil means
	// DefaultMetricKinds (with Judge, when set, behind llm_judge).
	MetricKinds casefile.MetricKinds
	// Judge, when set, backs the llm_judge kind and joins the default
	// metrics; nil means deterministic metrics only.
	Judge judging.Judge
	// JudgeName is recorded in the report ("none" when empty).
	JudgeName string
	// JudgeProbes ask the judge again to measure its consistency: Samples
	// times each (--judge-samples), and with the references in a second,
	// seeded order (--shuffle-references).
	JudgeProbes       judging.JudgeProbes
	Checkpoints       evalcase.CheckpointStore
	CheckpointContext any
}

// NewCaseEvaluator builds the PipelineEvaluator the cases file f
// describes.
func NewCaseEvaluator(f *casefile.CaseFile, opts EvaluatorOptions) (*PipelineEvaluator, error) {
	kinds := opts.MetricKinds
	if kinds == nil {
		kinds = DefaultMetricKinds()
	}
	if opts.Judge != nil {
		kinds = kinds.With(evalcase.KindLLMJudge, judging.ProbedJudgeMetricKind(opts.Judge, evalcase.KindLLMJudge, opts.JudgeProbes))
	}
	reg, err := evalcase.NewOperationRegistry(f.OperationSpecs...)
	if err != nil {
		return nil, inputerr.New(f.Name, 0, "%v", err)
	}
	e := &PipelineEvaluator{
		StageMetrics: map[string][]evalcase.Metric{}, OperationMetrics: map[string][]evalcase.Metric{},
		Registry: reg, MetricKinds: kinds, Checkpoints: opts.Checkpoints,
		CheckpointContext: opts.CheckpointContext, JudgeName: opts.JudgeName,
	}
	build := func(where string, specs []evalcase.MetricSpec) ([]evalcase.Metric, error) {
		ms, err := kinds.Build(specs)
		if err != nil {
			return nil, inputerr.New(f.Name, 0, "%s: %v", where, err)
		}
		return ms, nil
	}
	for k, specs := range f.StageMetrics {
		if e.StageMetrics[k], err = build("stage_metrics."+k, specs); err != nil {
			return nil, err
		}
	}
	for k, specs := range f.OperationMetrics {
		if e.OperationMetrics[k], err = build("operation_metrics."+k, specs); err != nil {
			return nil, err
		}
	}
	if f.DefaultMetricsSet {
		if e.DefaultMetrics, err = build("default_metrics", f.DefaultMetrics); err != nil {
			return nil, err
		}
	} else {
		e.DefaultMetrics = []evalcase.Metric{&ExactStructuredMetric{}}
		if opts.Judge != nil {
			e.DefaultMetrics = append(e.DefaultMetrics, &judging.LLMJudgeMetric{Judge: opts.Judge, Samples: opts.JudgeProbes.Samples, ShuffleReferences: opts.JudgeProbes.ShuffleReferences})
		}
	}
	return e, nil
}

// EvaluateCaseFile evaluates every pipeline and case of the cases file f
// into one report.
func EvaluateCaseFile(ctx context.Context, f *casefile.CaseFile, opts EvaluatorOptions) (*Report, error) {
	e, err := NewCaseEvaluator(f, opts)
	if err != nil {
		return nil, err
	}
	r, err := e.Run(ctx, f.Pipelines, f.Cases)
	if err != nil {
		return nil, err
	}
	r.Source = f.Name
	return r, nil
}

// ReadCaseFile reads a cases file (casefile.ReadCaseFile) with
// DefaultMetricKinds when opts names no metric kinds.
func ReadCaseFile(r io.Reader, name string, opts casefile.ReadOptions) (*casefile.CaseFile, error) {
	if opts.MetricKinds == nil {
		opts.MetricKinds = DefaultMetricKinds()
	}
	return casefile.ReadCaseFile(r, name, opts)
}

// DefaultCasesName names a cases file given without a name, in errors and
// the report.
const DefaultCasesName = "cases.json"

// RunOptions are the settings of EvaluateCasesJSON.
type RunOptions struct {
	// Name is the cases file's name, used in errors and the report
	// (DefaultCasesName when empty).
	Name string `json:"name"`
	// Files are the files the cases file names by path, keyed by that
	// path as written.
	Files map[string][]byte `json:"files,omitempty"`
}

// EvaluateCasesJSON evaluates the bytes of a cases file with
// deterministic metrics only and returns the JSON report: bytes in, bytes
// out. Hosts do not call it: they run scoring/api/evalapi's
// EvaluateOperation, which gives the same bytes for the same files.
func EvaluateCasesJSON(ctx context.Context, data []byte, opts RunOptions) ([]byte, error) {
	r, err := evaluateCases(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	return r.JSON()
}

// EvaluateCasesMarkdown is EvaluateCasesJSON with the Markdown report.
func EvaluateCasesMarkdown(ctx context.Context, data []byte, opts RunOptions) ([]byte, error) {
	r, err := evaluateCases(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	return r.Markdown(), nil
}

func evaluateCases(ctx context.Context, data []byte, opts RunOptions) (*Report, error) {
	name := opts.Name
	if name == "" {
		name = DefaultCasesName
	}
	var loader casefile.Loader
	if opts.Files != nil {
		loader = casefile.MapLoader(opts.Files)
	}
	f, err := ReadCaseFile(bytes.NewReader(data), name, casefile.ReadOptions{Loader: loader})
	if err != nil {
		return nil, err
	}
	return EvaluateCaseFile(ctx, f, EvaluatorOptions{})
}
