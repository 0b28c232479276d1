package judging

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/evalcase"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with the golden file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	testkit.Golden(t, path, got, *update)
}

func TestOperationRegistry(t *testing.T) {
	spec := evalcase.OperationSpec{SpecID: "s", Operation: "op", Version: "1", ActionInstruction: "spec prompt", Rubric: "spec rubric", JudgeInstruction: "spec guidance"}
	reg, err := evalcase.NewOperationRegistry(spec)
	if err != nil {
		t.Fatal(err)
	}
	got := reg.Resolve(evalcase.EvaluationCase{CaseID: "c", Operation: "op", Rubric: "own rubric"})
	if got.ActionInstruction != "spec prompt" || got.Rubric != "own rubric" || got.JudgeInstruction != "spec guidance" || got.OperationSpec.SpecID != "s" {
		t.Errorf("resolved %+v", got)
	}
	if other := reg.Resolve(evalcase.EvaluationCase{CaseID: "c", Operation: "other"}); other.OperationSpec != nil {
		t.Error("a case of another operation got a spec")
	}
	recs, _ := StageInstructions(got)
	if recs[0].Source != "operation_spec:s" || recs[0].Version != "1" || recs[1].Source != "case" {
		t.Errorf("sources %+v", recs)
	}
	for _, bad := range [][]evalcase.OperationSpec{{spec, spec}, {{Operation: "x"}}, {{SpecID: "x"}}, {{SpecID: "x", Operation: "y", EvaluationSpec: &evalcase.EvaluationSpec{SpecID: "e", Status: "final"}}}} {
		if _, err := evalcase.NewOperationRegistry(bad...); err == nil {
			t.Errorf("NewOperationRegistry(%+v) accepted", bad)
		}
	}
}

const validAnswer = `{"verdict": "pass", "rationale": "ok", "confidence": 0.9,
 "claims": [{"claim_id": "c1", "status": "supported", "reference_id": "gt", "evidence": "row 1"}],
 "reference_claims": [{"reference_id": "gt", "claim": "$.vehicle = fund", "status": "matched", "prediction_claim_id": "c1", "evidence": ""}]}`

func TestParseJudgeOutput(t *testing.T) {
	tests := []struct{ name, raw, err string }{
		{"valid", validAnswer, ""},
		{"fenced", "```json\n" + validAnswer + "\n```", ""},
		{"not json", "The answer is pass.", "invalid JSON"},
		{"missing field", `{"verdict": "pass", "rationale": "", "confidence": 1, "claims": []}`, "reference_claims: required"},
		{"extra field", `{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [], "reference_claims": [], "score": 1}`, "score: unknown property"},
		{"bad verdict", `{"verdict": "ok", "rationale": "", "confidence": 1, "claims": [], "reference_claims": []}`, `verdict "ok"`},
		{"confidence out of range", `{"verdict": "pass", "rationale": "", "confidence": 2, "claims": [], "reference_claims": []}`, "confidence 2"},
		{"bad claim status", `{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [{"claim_id": "c1", "status": "true", "reference_id": null, "evidence": ""}], "reference_claims": []}`, `claims[0].status "true"`},
		{"claim missing property", `{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [{"claim_id": "c1", "status": "supported"}], "reference_claims": []}`, "claims[0].reference_id: required"},
		{"wrong type", `{"verdict": "pass", "rationale": 5, "confidence": 1, "claims": [], "reference_claims": []}`, "cannot unmarshal"},
	}
	for _, tt := range tests {
		out, err := ParseJudgeOutput([]byte(tt.raw))
		if tt.err == "" {
			if err != nil || out.Verdict != evalcase.Pass || len(out.Claims) != 1 {
				t.Errorf("%s: %+v, %v", tt.name, out, err)
			}
			continue
		}
		var ua *UnusableAnswerError
		if !errors.As(err, &ua) || ua.Raw != tt.raw || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: error %v, want an UnusableAnswerError containing %q", tt.name, err, tt.err)
		}
	}
}

func TestScoreJudgeOutput(t *testing.T) {
	req := JudgeRequest{Task: JudgeTask{PredictionClaims: make([]PredictionClaim, 4)}}
	cl := func(status ...string) []ClaimJudgment {
		out := []ClaimJudgment{}
		for _, s := range status {
			out = append(out, ClaimJudgment{Status: s})
		}
		return out
	}
	rc := func(status ...string) []ReferenceClaimJudgment {
		out := []ReferenceClaimJudgment{}
		for _, s := range status {
			out = append(out, ReferenceClaimJudgment{Status: s})
		}
		return out
	}
	tests := []struct {
		out  JudgeOutput
		want map[string]float64
	}{
		{JudgeOutput{Claims: cl("supported", "supported", "contradicted", "undecidable"), ReferenceClaims: rc("matched", "missing", "undecidable")},
			map[string]float64{evalcase.ScoreClaimPrecision: 2.0 / 3, evalcase.ScoreReferenceRecall: 0.5, evalcase.ScoreClaimVerificationCoverage: 0.75, evalcase.ScoreF1: 2 * (2.0 / 3) * 0.5 / (2.0/3 + 0.5)}},
		{JudgeOutput{Claims: cl("undecidable"), ReferenceClaims: rc()}, map[string]float64{evalcase.ScoreClaimVerificationCoverage: 0}},
		{JudgeOutput{Claims: cl("contradicted"), ReferenceClaims: rc("missing")}, map[string]float64{evalcase.ScoreClaimPrecision: 0, evalcase.ScoreReferenceRecall: 0, evalcase.ScoreClaimVerificationCoverage: 0.25, evalcase.ScoreF1: 0}},
	}
	for i, tt := range tests {
		got := ScoreJudgeOutput(req, tt.out)
		if len(got) != len(tt.want) {
			t.Errorf("%d: %v, want %v", i, got, tt.want)
		}
		for k, v := range tt.want {
			if g, ok := got[k]; !ok || g < v-1e-12 || g > v+1e-12 {
				t.Errorf("%d: %s = %v, want %v", i, k, g, v)
			}
		}
	}
}

func TestJudgeOutputSchemaCopies(t *testing.T) {
	docs, err := os.ReadFile("../../docs/schema/judge-output.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, JudgeOutputSchema) {
		t.Error("docs/schema/judge-output.schema.json and scoring/judging/schema/judge-output.schema.json differ: copy one over the other")
	}
}

// TestAsk: the one place every judge metric calls a judge passes a good
// answer through, turns a bad one into an unusable answer (keeping it when
// it parsed) and returns a transport error as it is.
func TestAsk(t *testing.T) {
	req := JudgeRequest{Task: JudgeTask{
		PredictionClaims:   []PredictionClaim{{ClaimID: "c1", Path: "a", Value: "x"}},
		ReferenceInventory: []ReferenceEntry{{ArtifactID: "gt"}},
	}}
	ref := "gt"
	other := "elsewhere"
	boom := errors.New("connection refused")
	for _, tc := range []struct {
		name    string
		out     JudgeOutput
		err     error
		want    string // "" ok, "unusable", "transport"
		wantRaw bool
	}{
		{"good", JudgeOutput{Verdict: evalcase.Pass, Confidence: 1, Claims: []ClaimJudgment{{ClaimID: "c1", Status: ClaimSupported, ReferenceID: &ref}}}, nil, "", false},
		{"bad verdict", JudgeOutput{Verdict: "ok", Confidence: 1}, nil, "unusable", false},
		{"bad confidence", JudgeOutput{Verdict: evalcase.Pass, Confidence: 2}, nil, "unusable", false},
		{"unknown claim", JudgeOutput{Verdict: evalcase.Pass, Claims: []ClaimJudgment{{ClaimID: "c9", Status: ClaimSupported}}}, nil, "unusable", true},
		{"unknown reference", JudgeOutput{Verdict: evalcase.Pass, Claims: []ClaimJudgment{{ClaimID: "c1", Status: ClaimSupported, ReferenceID: &other}}}, nil, "unusable", true},
		{"transport", JudgeOutput{}, boom, "transport", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := JudgeFunc(func(context.Context, JudgeRequest) (JudgeOutput, error) { return tc.out, tc.err })
			out, err := ask(context.Background(), j, req)
			var ua *UnusableAnswerError
			switch tc.want {
			case "":
				if err != nil || out.Verdict != tc.out.Verdict {
					t.Fatalf("got %+v, %v", out, err)
				}
			case "unusable":
				if !errors.As(err, &ua) || (ua.Raw != "") != tc.wantRaw {
					t.Fatalf("got %v (%#v), want an unusable answer, raw kept %v", err, ua, tc.wantRaw)
				}
			case "transport":
				if !errors.Is(err, boom) || errors.As(err, &ua) {
					t.Fatalf("got %v, want the transport error", err)
				}
			}
		})
	}
}
