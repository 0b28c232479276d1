package evalapi

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/judging"
)

// TestEvaluateReportIsRun: the typed entry the command line calls answers
// the bytes of the operation's Run, and EncodeReport writes the other
// format of the same evaluation as Run would.
func TestEvaluateReportIsRun(t *testing.T) {
	for _, tc := range []struct{ format, other string }{{"", "md"}, {"json", "md"}, {"md", "json"}} {
		req := pipelineExample(t)
		req.Format = tc.format
		res, rep, err := EvaluateReport(context.Background(), &req)
		if err != nil {
			t.Fatal(err)
		}
		want, err := EvaluateOperation().Run(context.Background(), &req)
		if err != nil {
			t.Fatal(err)
		}
		if res.Format != want.Format || !bytes.Equal(res.Bytes, want.Bytes) {
			t.Errorf("format %q: EvaluateReport and Run disagree", tc.format)
		}
		other, err := EncodeReport(rep, tc.other)
		if err != nil {
			t.Fatal(err)
		}
		req.Format = tc.other
		want, err = EvaluateOperation().Run(context.Background(), &req)
		if err != nil {
			t.Fatal(err)
		}
		// EncodeReport writes the report; Run's JSON adds its provenance.
		wantOther := want.Bytes
		if tc.other == "json" {
			wantOther = append(beforeProvenance(wantOther), "\n}\n"...)
		}
		if !bytes.Equal(other, wantOther) {
			t.Errorf("format %q: EncodeReport(%q) is not Run's %s", tc.format, tc.other, tc.other)
		}
	}
	req := pipelineExample(t)
	req.Format = "csv"
	if _, _, err := EvaluateReport(context.Background(), &req); err == nil || !strings.Contains(err.Error(), `format "csv": expected json or md`) {
		t.Errorf("csv: %v", err)
	}
	if _, err := EncodeReport(&harness.Report{}, "csv"); err == nil || !strings.Contains(err.Error(), `format "csv": expected json or md`) {
		t.Errorf("EncodeReport csv: %v", err)
	}
}

// beforeProvenance is a JSON report up to its provenance member.
func beforeProvenance(report []byte) []byte {
	if i := bytes.Index(report, []byte(",\n  \"provenance\": {")); i >= 0 {
		return report[:i]
	}
	return report
}

type usageRecords []judging.UsageRecord

func (u usageRecords) UsageRecords() []judging.UsageRecord { return u }

// TestEvaluateNative: the native-only fields (a loader, a built case
// file, a judge, usage) change what they should and nothing else.
func TestEvaluateNative(t *testing.T) {
	base := pipelineExample(t)
	want, err := Evaluate(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range base.Files {
		b, err := f.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = b
	}
	built, err := harness.ReadCaseFile(strings.NewReader(base.Cases.Text), base.Cases.Name, casefile.ReadOptions{Loader: casefile.MapLoader(files)})
	if err != nil {
		t.Fatal(err)
	}
	judgeCalls := 0
	judge := judging.JudgeFunc(func(ctx context.Context, req judging.JudgeRequest) (judging.JudgeOutput, error) {
		judgeCalls++
		return judging.JudgeOutput{Verdict: evalcase.Uncertain, Rationale: "stand-in"}, nil
	})
	for _, tc := range []struct {
		name string
		edit func(r *EvalRequest)
		same bool // the same bytes as the request without native fields
		// sameNumbers: the same but for the provenance's inputs (a built
		// case file is no file read).
		sameNumbers bool
		has         string // else: the report holds this
		err         string // else: the error says this
		judged      bool
	}{
		{name: "loader in place of files", edit: func(r *EvalRequest) { r.Files, r.Loader = nil, casefile.MapLoader(files) }, same: true},
		{name: "files and loader", edit: func(r *EvalRequest) { r.Loader = casefile.MapLoader(files) }, err: "files or a loader, not both"},
		{name: "no loader, no files", edit: func(r *EvalRequest) { r.Files = nil }, err: `cannot read "invoice.png"`},
		{name: "built case file", edit: func(r *EvalRequest) { r.Cases, r.Files, r.CaseFile = api.File{}, nil, built }, sameNumbers: true},
		{name: "usage", edit: func(r *EvalRequest) {
			r.Usage = usageRecords{{Provider: "p", Model: "m", Usage: judging.Usage{InputTokens: 7}}}
		}, has: `"judge_usage"`},
		{name: "judge", edit: func(r *EvalRequest) {
			// A case without metrics of its own: the judge joins the
			// default metrics.
			r.Cases = api.File{Name: "cases.json", Text: `{"case_id": "a", "prediction": {"total": 12}}`}
			r.Files = nil
			r.Evaluator = harness.EvaluatorOptions{Judge: judge, JudgeName: "stand-in/judge"}
		}, has: `"judge": "stand-in/judge"`, judged: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := pipelineExample(t)
			tc.edit(&req)
			judgeCalls = 0
			res, _, err := EvaluateReport(context.Background(), &req)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want an error with %q", err, tc.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			case tc.same && !bytes.Equal(res.Bytes, want):
				t.Errorf("bytes differ from the request without native fields")
			case tc.sameNumbers && !bytes.Equal(beforeProvenance(res.Bytes), beforeProvenance(want)):
				t.Errorf("the report differs from the request without native fields")
			case tc.has != "" && (bytes.Equal(res.Bytes, want) || !bytes.Contains(res.Bytes, []byte(tc.has))):
				t.Errorf("report lacks %s", tc.has)
			}
			if (judgeCalls > 0) != tc.judged {
				t.Errorf("judge called %d times", judgeCalls)
			}
		})
	}
}

// TestEvalRequestNativeFieldsNotJSON: JSON never carries the native
// fields, either way: a request with them encodes as one without, and a
// body naming one is refused by a strict decoder (the hosts' own).
func TestEvalRequestNativeFieldsNotJSON(t *testing.T) {
	plain := EvalRequest{Cases: api.File{Name: "cases.json", Text: "{}"}}
	native := plain
	native.Loader = casefile.MapLoader(nil)
	native.CaseFile = &casefile.CaseFile{Name: "x"}
	native.Evaluator = harness.EvaluatorOptions{JudgeName: "j", CheckpointContext: map[string]string{"k": "v"}}
	native.Usage = usageRecords{}
	a, err := json.Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(native)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("native fields encoded: %s", b)
	}
	for _, field := range []string{"Loader", "CaseFile", "Evaluator", "Usage", "evaluator"} {
		dec := json.NewDecoder(strings.NewReader(`{"cases": {"name": "c", "text": "{}"}, "` + field + `": {}}`))
		dec.DisallowUnknownFields()
		var req EvalRequest
		if err := dec.Decode(&req); err == nil {
			t.Errorf("%s: decoded", field)
		}
	}
}
