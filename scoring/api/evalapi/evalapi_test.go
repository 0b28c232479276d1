package evalapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
)

func TestEvaluate(t *testing.T) {
	cases := `{"case_id": "total", "prediction": {"total": 12},
	  "references": [{"artifact_id": "gt", "authority": "ground_truth", "kind": "json", "path": "gt.json"}]}`
	req := EvalRequest{Cases: api.File{Name: "cases.json", Text: cases}, Files: []api.File{{Name: "gt.json", Base64: base64.StdEncoding.EncodeToString([]byte(`{"total": 12}`))}}}
	out, err := Evaluate(context.Background(), req)
	if err != nil || !bytes.Contains(out, []byte(`"verdict": "pass"`)) {
		t.Fatalf("%v\n%s", err, out)
	}
	req.Format = "md"
	if out, err := Evaluate(context.Background(), req); err != nil || !bytes.HasPrefix(out, []byte("#")) {
		t.Fatalf("markdown: %v\n%s", err, out)
	}
	req.Files[0] = api.File{Name: "gt.json", Base64: "!!"}
	if _, err := Evaluate(context.Background(), req); err == nil || api.DescribeError(err).File == nil || *api.DescribeError(err).File != "gt.json" {
		t.Fatalf("bad base64: %v", err)
	}
}

// pipelineExample is examples/harness/pipeline as the browser sends it:
// the cases file and the image it names, as base64.
func pipelineExample(t testing.TB) EvalRequest {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "examples", "harness", "pipeline")
	cases, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile(filepath.Join(dir, "invoice.png"))
	if err != nil {
		t.Fatal(err)
	}
	return EvalRequest{Cases: api.File{Name: "cases.json", Text: string(cases)},
		Files: []api.File{{Name: "invoice.png", Base64: base64.StdEncoding.EncodeToString(png)}}}
}

func TestReportMarkdownIsTheEvalMarkdown(t *testing.T) {
	req := pipelineExample(t)
	report, err := Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	req.Format = "md"
	want, err := Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReportMarkdown(api.File{Name: "report.json", Text: string(report)})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Markdown of the read report differs from the evaluation's:\n%s\nwant\n%s", got, want)
	}
	withBOM, err := ReportMarkdown(api.File{Name: "report.json", Text: "\ufeff" + string(report)})
	if err != nil || !bytes.Equal(withBOM, want) {
		t.Fatalf("with a byte-order mark: %v", err)
	}
}

func TestReportMarkdownErrors(t *testing.T) {
	report, err := Evaluate(context.Background(), pipelineExample(t))
	if err != nil {
		t.Fatal(err)
	}
	unknown := strings.Replace(string(report), `"judge": "none",`, `"judge": "none", "colour": "red",`, 1)
	badType := strings.Replace(string(report), `"pipelines": 5,`, `"pipelines": "five",`, 1)
	cut := string(report[:200])
	for _, c := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"another kind", `{"kind": "receipts", "run_id": "r"}`, 1, `expected a harness report ("kind": "harness"), found kind "receipts"`},
		{"another version", `{"kind": "harness", "report_version": 7}`, 1, "report_version 7: this docscore reads version 1"},
		{"unknown field", unknown, 0, `unknown field "colour"`},
		{"wrong type", badType, 7, `member "summary.pipelines" is a string: expected an integer`},
		{"cut short", cut, 0, "unexpected end of JSON input"},
		{"not JSON", "\n\n{oops", 3, "invalid JSON: invalid character 'o' looking for beginning of object key string: expected a harness report"},
		{"two reports", string(report) + string(report), strings.Count(string(report), "\n") + 1, "invalid character '{' after top-level value"},
		{"bad fingerprint", strings.Replace(string(report), `"sha256": "215a74339f13e60d`, `"sha256": "215a`, 1), 0, "pipelines[0].stages[1].instructions[0].sha256: expected a SHA-256"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReportMarkdown(api.File{Name: "r.json", Text: c.text})
			d := api.DescribeError(err)
			if file, line := d.Where(); d.Code != "input" || file != "r.json" || (c.line != 0 && line != c.line) || !strings.Contains(d.Message, c.want) {
				t.Fatalf("error %+v, want line %d and %q", d, c.line, c.want)
			}
		})
	}
}

// FuzzReportMarkdown feeds hostile reports to the reader: an error or a
// rendering, never a panic.
func FuzzReportMarkdown(f *testing.F) {
	report, err := Evaluate(context.Background(), pipelineExample(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(report))
	f.Add(`{"kind": "harness", "report_version": 1, "pipelines": [{"stages": [{"metrics": [{"details": {"references": [{"mismatches": [{}]}]}}]}]}]}`)
	f.Add(`{"kind": "harness", "report_version": 1, "pipelines": null, "cases": [{"upstream_verdicts": {"a": "fail"}, "scores": {"x": 1e308}}]}`)
	f.Fuzz(func(t *testing.T, text string) {
		out, err := ReportMarkdown(api.File{Name: "r.json", Text: text})
		if err == nil && !bytes.HasPrefix(out, []byte("# Evaluation report")) {
			t.Fatalf("rendered %q", out)
		}
		if err != nil {
			if _, ok := inputerr.As(err); !ok {
				t.Fatalf("not an input error: %v", err)
			}
		}
	})
}
