// Package evalapi is the harness entry point of scoring/api: the request
// every host decodes and the function that answers it with the report of
// "docscore eval" (deterministic metrics only). It is a package of its own
// so that hosts without the harness do not link it and its expression
// engine.
package evalapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/harness"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/judging"
	"github.com/docscore/docscore/scoring/provenance"
)

// EvalRequest asks for a harness evaluation (SPEC C): a cases file and the
// files its references name by path.
//
// Its last fields are for native hosts only and JSON never carries them
// (a request body naming one is refused as an unknown field), so the page
// and the HTTP API evaluate deterministic metrics only, from the files the
// request holds. The command line sets them: its folder-confined loader,
// its model judge, checkpoints and usage, and the one-case file of
// "docscore eval --prediction".
type EvalRequest struct {
	Cases  api.File   `json:"cases"`
	Files  []api.File `json:"files,omitempty"`
	Format string     `json:"format,omitempty"` // json (default) or md

	// Loader, when set, reads the files the cases file names by path, in
	// place of Files (a request gives one or the other).
	Loader casefile.Loader `json:"-"`
	// CaseFile, when set, is a cases file the host has built itself; Cases,
	// Files and Loader are then not read, and the report names CaseFile's
	// Name as its source.
	CaseFile *casefile.CaseFile `json:"-"`
	// Evaluator configures the evaluation: a model judge and the name the
	// report records for it, a checkpoint store and its context. The zero
	// value is deterministic metrics only.
	Evaluator harness.EvaluatorOptions `json:"-"`
	// Usage, when set, is read once every stage is evaluated: the
	// report's judge_usage sums its records.
	Usage judging.UsageReporter `json:"-"`
	// HostInputs describe files a host read outside the request's file
	// fields (the command line's --prediction, --evidence, --ground-truth
	// and --human-verdicts), for the report's provenance (SPEC F.8).
	HostInputs []provenance.Input `json:"-"`
	// HostOptions are options a host used to build CaseFile
	// (--prediction's --case-id, --operation, --rubric), recorded after
	// the judge's in the provenance.
	HostOptions []provenance.Option `json:"-"`

	// loaded lists the files the cases file named, as the evaluation read
	// them (through Loader or from Files), in the order first read.
	loaded *loadedFiles
}

// loadedFiles records the files a cases file named as they are read.
type loadedFiles struct {
	mu    sync.Mutex
	seen  map[string]bool
	files []provenance.Input
}

func (l *loadedFiles) add(path string, data []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[path] {
		return
	}
	l.seen[path] = true
	l.files = append(l.files, named("files", path, data))
}

// named describes a file under the name the request or the cases file
// gives it, its path kept: the report names them so ("source").
func named(role, name string, data []byte) provenance.Input {
	in := provenance.NewInput(role, name, data)
	in.Name = name
	return in
}

// ProvenanceOptions are the evaluation's options that change numbers
// (SPEC F.8): the judge (none for the page and the HTTP API), its
// samples and whether references are shuffled for it.
func (req *EvalRequest) ProvenanceOptions() []provenance.Option {
	judge := req.Evaluator.JudgeName
	if judge == "" {
		judge = "none"
	}
	samples := max(req.Evaluator.JudgeProbes.Samples, 1)
	return append([]provenance.Option{api.Option("judge", judge), api.Option("judge_samples", samples),
		api.Option("shuffle_references", req.Evaluator.JudgeProbes.ShuffleReferences)}, req.HostOptions...)
}

// DescribeInputs lists the cases file under the name the report gives it
// (its "source"), then the files it named in the order they were read
// (a file given but not named is no input), then HostInputs
// (api.Described).
func (req *EvalRequest) DescribeInputs([]provenance.Input) []provenance.Input {
	var out []provenance.Input
	if req.CaseFile == nil {
		name := req.Cases.Name
		if name == "" {
			name = harness.DefaultCasesName
		}
		out = append(out, named("cases", name, []byte(req.Cases.Text)))
	}
	if req.loaded != nil {
		out = append(out, req.loaded.files...)
	}
	return append(out, req.HostInputs...)
}

// InputFiles lists the cases file, then the files it names.
func (req *EvalRequest) InputFiles() []*api.File {
	files := []*api.File{&req.Cases}
	for i := range req.Files {
		files = append(files, &req.Files[i])
	}
	return files
}

// ReportFormat is the format the request asks for.
func (req *EvalRequest) ReportFormat() string { return req.Format }

// ReportRequest asks for the Markdown of a harness report file.
type ReportRequest struct {
	Report api.File `json:"report"`
}

// InputFiles lists the report file.
func (req *ReportRequest) InputFiles() []*api.File { return []*api.File{&req.Report} }

// The harness family's operations (SPEC C), served by harness.wasm, the
// HTTP API and the command line.
var (
	evaluateOp = api.Lazy{Define: func() api.Operation {
		return api.Define(api.Operation{
			Name:    "evaluate",
			Route:   "/v1/eval",
			Doc:     `the report of "docscore eval --judge none" (deterministic metrics only)`,
			Formats: reportFormats,
			Family:  "eval",
			Command: "eval",
			Inputs: []api.Input{
				{Name: "cases", Required: true, Help: "the cases file (JSON or JSONL)"},
				{Name: "files", Flag: "-", Many: true, Binary: true, Help: "the files the cases file names, each named by the path it gives"},
			},
			// The command line writes both formats, to --output and
			// --markdown.
			Params:     []api.Param{{Name: "format", Flag: "-"}},
			Provenance: true,
		}, evaluate)
	}}

	reportMarkdownOp = api.Lazy{Define: func() api.Operation {
		return api.Define(api.Operation{
			Name:    "reportMarkdown",
			Route:   "/v1/eval/markdown",
			Doc:     `the Markdown of a harness report, as "docscore eval --markdown" wrote it`,
			Formats: []string{"md"},
			Family:  "eval",
			Inputs:  []api.Input{{Name: "report", Required: true, Help: "a harness report (the JSON of docscore eval --output)"}},
		}, func(ctx api.Cancel, req *ReportRequest) (*api.Result, error) {
			out, err := ReportMarkdown(req.Report)
			if err != nil {
				return nil, err
			}
			return &api.Result{Format: "md", Bytes: out}, nil
		})
	}}
)

// EvaluateOperation runs the deterministic metrics of a cases file:
// the report of "docscore eval --judge none" (--output for json,
// --markdown for md).
func EvaluateOperation() api.Operation { return evaluateOp.Get() }

// ReportMarkdownOperation renders a harness report JSON as the
// Markdown "docscore eval --markdown" wrote beside it.
func ReportMarkdownOperation() api.Operation { return reportMarkdownOp.Get() }

// reportFormats are the formats of a harness report, the default first.
var reportFormats = []string{"json", "md"}

// Operations lists the harness family's operations.
func Operations() []api.Operation {
	return []api.Operation{EvaluateOperation(), ReportMarkdownOperation()}
}

// Evaluate runs the deterministic metrics of a cases file (no model
// judges: those run natively) and returns the report in its format.
func Evaluate(ctx context.Context, req EvalRequest) ([]byte, error) {
	res, err := EvaluateOperation().Run(ctx, &req)
	if err != nil {
		return nil, err
	}
	return res.Bytes, nil
}

func evaluate(ctx api.Cancel, req *EvalRequest) (*api.Result, error) {
	res, _, err := evaluateReport(ctx, req)
	return res, err
}

// EvaluateReport is EvaluateOperation for native hosts that also want the
// typed report: the command line writes --output and --markdown from one
// evaluation (EncodeReport) and checks --fail-on on it. The same checks,
// the same code and the same bytes as Run.
// A host that changes the report after (human verdicts) encodes it
// again (EncodeReport) and adds the provenance again (Stamp).
func EvaluateReport(ctx api.Cancel, req *EvalRequest) (*api.Result, *harness.Report, error) {
	if err := EvaluateOperation().Check(ctx, req); err != nil {
		return nil, nil, err
	}
	res, rep, err := evaluateReport(ctx, req)
	if err == nil {
		err = EvaluateOperation().Stamp(req, res)
	}
	return res, rep, err
}

func evaluateReport(cancel api.Cancel, req *EvalRequest) (*api.Result, *harness.Report, error) {
	// The harness takes a context (its judges make calls); a host that
	// gave none gets one that never ends.
	ctx, ok := cancel.(context.Context)
	if !ok {
		ctx = context.Background()
	}
	f := req.CaseFile
	if f == nil {
		var err error
		if f, err = req.read(); err != nil {
			return nil, nil, err
		}
	}
	rep, err := harness.EvaluateCaseFile(ctx, f, req.Evaluator)
	if err != nil {
		return nil, nil, err
	}
	if req.Usage != nil {
		rep.JudgeUsage = judging.SummarizeUsage(req.Usage.UsageRecords())
	}
	format := req.Format
	if format == "" {
		format = reportFormats[0]
	}
	out, err := EncodeReport(rep, format)
	if err != nil {
		return nil, nil, err
	}
	return &api.Result{Format: format, Bytes: out}, rep, nil
}

// read reads the request's cases file; the paths it names are read by
// Loader, else from Files.
func (req *EvalRequest) read() (*casefile.CaseFile, error) {
	loader := req.Loader
	if len(req.Files) > 0 {
		if loader != nil {
			return nil, fmt.Errorf("evaluate: a request gives files or a loader, not both")
		}
		files := map[string][]byte{}
		for _, f := range req.Files {
			b, err := f.Bytes()
			if err != nil {
				return nil, err
			}
			files[f.Name] = b
		}
		loader = casefile.MapLoader(files)
	}
	name := req.Cases.Name
	if name == "" {
		name = harness.DefaultCasesName
	}
	// The files read are recorded for the report's provenance.
	req.loaded = &loadedFiles{seen: map[string]bool{}}
	if loader != nil {
		inner := loader
		loader = func(p string) ([]byte, error) {
			b, err := inner(p)
			if err == nil {
				req.loaded.add(p, b)
			}
			return b, err
		}
	}
	return harness.ReadCaseFile(strings.NewReader(req.Cases.Text), name, casefile.ReadOptions{Loader: loader, MetricKinds: req.Evaluator.MetricKinds})
}

// EncodeReport writes a harness report in a format of EvaluateOperation:
// json (the bytes of "docscore eval --output") or md (of --markdown).
func EncodeReport(rep *harness.Report, format string) ([]byte, error) {
	switch format {
	case "", "json":
		return rep.JSON()
	case "md":
		return rep.Markdown(), nil
	}
	// EvaluateOperation's own check, without a reference to it (it calls
	// this function).
	return nil, api.Operation{Formats: reportFormats}.CheckFormat(format)
}

// ReportMarkdown reads a harness report (the JSON of "docscore eval
// --output") and renders its Markdown: the bytes "docscore eval
// --markdown" wrote beside it. The report is read strictly: a field this
// version does not know, another kind of report or another report version
// is an input error naming the file and line.
func ReportMarkdown(report api.File) ([]byte, error) {
	data := ingest.StripBOM([]byte(report.Text))
	var head struct {
		Kind          string `json:"kind"`
		ReportVersion int    `json:"report_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(report.Name, data, err)
	}
	if head.Kind != "harness" {
		return nil, inputerr.New(report.Name, 1, "expected a harness report (\"kind\": \"harness\"), found kind %q", head.Kind)
	}
	if head.ReportVersion != harness.ReportVersion {
		return nil, inputerr.New(report.Name, 1, "report_version %d: this docscore reads version %d", head.ReportVersion, harness.ReportVersion)
	}
	// The report and its provenance (SPEC F.8), which the Markdown does
	// not show.
	var withProvenance struct {
		harness.Report
		Provenance json.RawMessage `json:"provenance"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&withProvenance); err != nil {
		// A member's path as the report names it, not the wrapper's.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			te.Field = strings.TrimPrefix(te.Field, "Report.")
		}
		return nil, jsonError(report.Name, data, err)
	}
	rep := withProvenance.Report
	if err := checkFingerprints(&rep); err != nil {
		return nil, inputerr.New(report.Name, 0, "%v", err)
	}
	return rep.Markdown(), nil
}

// checkFingerprints refuses instruction fingerprints that are not SHA-256
// hex digests: the Markdown shows their first 16 digits.
func checkFingerprints(rep *harness.Report) error {
	check := func(at string, sum string) error {
		if len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
			return fmt.Errorf("%s: expected a SHA-256 (64 lower-case hex digits), found %q", at, sum)
		}
		return nil
	}
	if err := check("judge_base_instructions.sha256", rep.JudgeBaseInstructions.SHA256); err != nil {
		return err
	}
	stages := func(at string, list []harness.StageReport) error {
		for i, st := range list {
			for k, in := range st.Instructions {
				if err := check(fmt.Sprintf("%s[%d].instructions[%d].sha256", at, i, k), in.SHA256); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for i, p := range rep.Pipelines {
		if err := stages(fmt.Sprintf("pipelines[%d].stages", i), p.Stages); err != nil {
			return err
		}
	}
	return stages("cases", rep.Cases)
}

// jsonError turns a decoding error into an input error at its line.
func jsonError(name string, data []byte, err error) error {
	return ingest.JSONError(name, data, err, "a harness report")
}
