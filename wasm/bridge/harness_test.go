package bridge_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/wasm/bridge"
)

var harness = bridge.New(evalapi.Operations())

// callString calls a method that answers a string and returns it.
func harnessCallString(t *testing.T, method string, req any) string {
	t.Helper()
	e, res := envelopeOf(t, harness.Call(method, jsonOf(t, req)))
	if e != nil {
		t.Fatalf("%s: %+v", method, e)
	}
	var s string
	if err := json.Unmarshal(res, &s); err != nil {
		t.Fatalf("%s: result is not a string: %v", method, err)
	}
	return s
}

// pipelineRequest is examples/harness/pipeline as the page sends it: the
// cases file under the name the harness's golden reports give it, and the
// image it names by path, as base64.
func harnessPipelineRequest(t *testing.T, format string) evalapi.EvalRequest {
	t.Helper()
	dir := filepath.Join("..", "..", "examples", "harness", "pipeline")
	cases, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile(filepath.Join(dir, "invoice.png"))
	if err != nil {
		t.Fatal(err)
	}
	return evalapi.EvalRequest{Cases: api.File{Name: "pipeline/cases.json", Text: string(cases)},
		Files:  []api.File{{Name: "invoice.png", Base64: base64.StdEncoding.EncodeToString(png)}},
		Format: format}
}

func golden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "scoring", "harness", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEvaluateIsTheEvalReport: the result strings are the harness's golden
// reports of the pipeline example, and the Markdown of the JSON report
// read back is its Markdown.
func TestEvaluateIsTheEvalReport(t *testing.T) {
	js := harnessCallString(t, "evaluate", harnessPipelineRequest(t, ""))
	// The operation's report: the harness's golden report and its
	// provenance (SPEC F.8).
	if want, err := os.ReadFile(filepath.Join("..", "..", "scoring", "api", "evalapi", "testdata", "pipeline-report.json")); err != nil || js != string(want) {
		t.Errorf("evaluate: JSON differs from scoring/api/evalapi/testdata/pipeline-report.json (%v)", err)
	}
	if got := harnessCallString(t, "evaluate", harnessPipelineRequest(t, "json")); got != js {
		t.Errorf("evaluate with format json differs from the default")
	}
	md := harnessCallString(t, "evaluate", harnessPipelineRequest(t, "md"))
	if md != golden(t, "pipeline-report.golden.md") {
		t.Errorf("evaluate: Markdown differs from pipeline-report.golden.md")
	}
	if got := harnessCallString(t, "reportMarkdown", evalapi.ReportRequest{Report: api.File{Name: "report.json", Text: js}}); got != md {
		t.Errorf("reportMarkdown of the JSON report differs from its Markdown")
	}
}

func TestHarnessErrors(t *testing.T) {
	noImage := harnessPipelineRequest(t, "")
	noImage.Files = nil
	wrongImage := harnessPipelineRequest(t, "")
	wrongImage.Files[0].Name = "scan.png"
	badExpr := harnessPipelineRequest(t, "")
	badExpr.Cases.Text = strings.Replace(badExpr.Cases.Text, `sum(input.line_items, .quantity * .unit_price)`, `sum(input.line_items, .quantity *)`, 1)
	for _, c := range []struct {
		name, method, request string
		file, message         string
		line                  int
	}{
		{"no files", "evaluate", jsonOf(t, noImage), "pipeline/cases.json", `cannot read "invoice.png": no files were given`, 43},
		{"file not given", "evaluate", jsonOf(t, wrongImage), "pipeline/cases.json", `cannot read "invoice.png": no file "invoice.png" was given`, 43},
		{"bad expression", "evaluate", jsonOf(t, badExpr), "pipeline/cases.json", "invalid expression", 15},
		{"bad base64", "evaluate", `{"cases": {"name": "c.json", "text": "{}"}, "files": [{"name": "a.png", "base64": "!"}]}`, "a.png", `base64 of file "a.png": expected standard base64`, 0},
		{"bad format", "evaluate", jsonOf(t, harnessPipelineRequest(t, "csv")), "", `format "csv": expected json or md`, 0},
		{"unknown key", "evaluate", `{"case": {}}`, "", `unknown field "case"`, 0},
		{"not a harness report", "reportMarkdown", `{"report": {"name": "r.json", "text": "{\"kind\": \"receipts\"}"}}`, "r.json", `found kind "receipts"`, 1},
		{"tabular method", "scoreTabular", `{}`, "", `unknown method "scoreTabular"`, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, _ := envelopeOf(t, harness.Call(c.method, c.request))
			if e == nil {
				t.Fatal("no error")
			}
			code := "input"
			if strings.HasPrefix(c.message, "format ") || strings.HasPrefix(c.message, "base64 ") {
				code = "bad_request"
			}
			if file, line := e.Where(); e.Code != code || file != c.file || (c.line != 0 && line != c.line) || !strings.Contains(e.Message, c.message) {
				t.Fatalf("error %+v, want file %q line %d message containing %q", e, c.file, c.line, c.message)
			}
		})
	}
}

func TestHarnessVersion(t *testing.T) {
	_, res := envelopeOf(t, harness.Call("version", ""))
	var v bridge.VersionResult
	if err := json.Unmarshal(res, &v); err != nil || strings.Join(v.Methods, ",") != "evaluate,reportMarkdown,version" {
		t.Fatalf("version %s (%v)", res, err)
	}
}
