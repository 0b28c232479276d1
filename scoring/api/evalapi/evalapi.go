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

// Evaluate runs the deterministic metrics of a cases file (no model
// judges: those run natively) and returns the report in its format.
func Evaluate(ctx context.Context, req EvalRequest) ([]byte, error) {
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
	switch req.Format {
	case "", "json":
		return harness.EvaluateCasesJSON(ctx, []byte(req.Cases.Text), opts)
	case "md":
		return harness.EvaluateCasesMarkdown(ctx, []byte(req.Cases.Text), opts)
	}
	return nil, inputerr.New("", 0, "format %q: expected json or md", req.Format)
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
