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
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/harness"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// EvalRequest asks for a deterministic harness evaluation (SPEC C): a
// cases file and the files its references name by path.
type EvalRequest struct {
	Cases  api.File   `json:"cases"`
	Files  []api.File `json:"files,omitempty"`
	Format string     `json:"format,omitempty"` // json (default) or md
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
	// EvaluateOperation runs the deterministic metrics of a cases file:
	// the report of "docscore eval --judge none" (--output for json,
	// --markdown for md).
	EvaluateOperation = api.Define(api.Operation{
		Name:     "evaluate",
		Route:    "/v1/eval",
		Doc:      `the report of "docscore eval --judge none" (deterministic metrics only)`,
		Formats:  []string{"json", "md"},
		Required: []api.Field{{Name: "cases", Want: "the cases file (JSON or JSONL)"}},
		Query:    []string{"format"},
	}, evaluate)

	// ReportMarkdownOperation renders a harness report JSON as the
	// Markdown "docscore eval --markdown" wrote beside it.
	ReportMarkdownOperation = api.Define(api.Operation{
		Name:     "reportMarkdown",
		Route:    "/v1/eval/markdown",
		Doc:      `the Markdown of a harness report, as "docscore eval --markdown" wrote it`,
		Formats:  []string{"md"},
		Required: []api.Field{{Name: "report", Want: "a harness report (the JSON of docscore eval --output)"}},
	}, func(ctx api.Cancel, req *ReportRequest) (*api.Result, error) {
		out, err := ReportMarkdown(req.Report)
		if err != nil {
			return nil, err
		}
		return &api.Result{Format: "md", Bytes: out}, nil
	})
)

// Operations lists the harness family's operations.
func Operations() []api.Operation {
	return []api.Operation{EvaluateOperation, ReportMarkdownOperation}
}

// Evaluate runs the deterministic metrics of a cases file (no model
// judges: those run natively) and returns the report in its format.
func Evaluate(ctx context.Context, req EvalRequest) ([]byte, error) {
	res, err := EvaluateOperation.Run(ctx, &req)
	if err != nil {
		return nil, err
	}
	return res.Bytes, nil
}

func evaluate(cancel api.Cancel, req *EvalRequest) (*api.Result, error) {
	// The harness takes a context (its judges make calls); a host that
	// gave none gets one that never ends.
	ctx, ok := cancel.(context.Context)
	if !ok {
		ctx = context.Background()
	}
	opts := harness.RunOptions{Name: req.Cases.Name}
	if len(req.Files) > 0 {
		opts.Files = map[string][]byte{}
		for _, f := range req.Files {
			b, err := f.Bytes()
			if err != nil {
				return nil, err
			}
			opts.Files[f.Name] = b
		}
	}
	var out []byte
	var err error
	format := req.Format
	if format == "" {
		format = "json"
	}
	switch format {
	case "json":
		out, err = harness.EvaluateCasesJSON(ctx, []byte(req.Cases.Text), opts)
	case "md":
		out, err = harness.EvaluateCasesMarkdown(ctx, []byte(req.Cases.Text), opts)
	}
	if err != nil {
		return nil, err
	}
	return &api.Result{Format: format, Bytes: out}, nil
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
	var rep harness.Report
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		return nil, jsonError(report.Name, data, err)
	}
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
