package judging

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
)

// fixedJudge answers every stage with verdict (or an unusable answer when
// verdict is "garbage").
func fixedJudge(verdict evalcase.Verdict) Judge {
	return JudgeFunc(func(_ context.Context, req JudgeRequest) (JudgeOutput, error) {
		if verdict == "garbage" {
			return ParseJudgeOutput([]byte("I think it is fine"))
		}
		status := ClaimSupported
		if verdict == evalcase.Fail {
			status = ClaimContradicted
		}
		var claims []ClaimJudgment
		for _, c := range req.Task.PredictionClaims {
			claims = append(claims, ClaimJudgment{ClaimID: c.ClaimID, Status: status, Evidence: "read " + string(verdict)})
		}
		return JudgeOutput{Verdict: verdict, Rationale: "judged " + string(verdict), Confidence: 0.8, Claims: claims, ReferenceClaims: []ReferenceClaimJudgment{}}, nil
	})
}

func variant(name, provider, model string, temp float64, v evalcase.Verdict) JudgeVariant {
	return JudgeVariant{Name: name, Judge: fixedJudge(v), Provider: provider, Model: model, Temperature: &temp}
}

func panelStage(producer *evalcase.Producer) evalcase.EvaluationCase {
	return evalcase.EvaluationCase{CaseID: "c", Operation: "classify", Prediction: map[string]any{"vehicle": "fund"}, Producer: producer}
}

func TestJudgePanelVoting(t *testing.T) {
	openaiFive := func(v evalcase.Verdict) []JudgeVariant {
		var out []JudgeVariant
		for i, temp := range []float64{0, 0.2, 0.4, 0.6, 0.8} {
			out = append(out, variant(fmt.Sprintf("openai-%d", i), "openai", "gpt-x", temp, v))
		}
		return out
	}
	tests := []struct {
		name          string
		variants      []JudgeVariant
		rule          VoteRule
		acceptDissent bool
		producer      *evalcase.Producer
		verdict       evalcase.Verdict
		review        []string // substrings of the review reasons, in order; nil: no review
		sampleAgree   float64
		groupAgree    float64
	}{
		{
			name: "five temperature samples never outvote two other models",
			variants: append(openaiFive(evalcase.Fail),
				variant("claude", "anthropic", "claude-x", 0, evalcase.Pass),
				variant("local", "local", "llama", 0.2, evalcase.Pass)),
			verdict: evalcase.Pass, review: []string{"dissent against pass: openai-0 (fail), openai-1 (fail)"},
			sampleAgree: 5.0 / 7, groupAgree: 2.0 / 3,
		},
		{
			name: "accepted dissent leaves the review queue",
			variants: append(openaiFive(evalcase.Fail),
				variant("claude", "anthropic", "claude-x", 0, evalcase.Pass),
				variant("local", "local", "llama", 0.2, evalcase.Pass)),
			acceptDissent: true, verdict: evalcase.Pass, sampleAgree: 5.0 / 7, groupAgree: 2.0 / 3,
		},
		{
			name:     "majority of three groups",
			variants: []JudgeVariant{variant("a", "openai", "m", 0, evalcase.Pass), variant("b", "anthropic", "m", 0, evalcase.Pass), variant("c", "local", "m", 0, evalcase.Fail)},
			verdict:  evalcase.Pass, review: []string{"dissent against pass: c (fail)"}, sampleAgree: 2.0 / 3, groupAgree: 2.0 / 3,
		},
		{
			name:     "unanimous is not reached by two of three",
			variants: []JudgeVariant{variant("a", "openai", "m", 0, evalcase.Pass), variant("b", "anthropic", "m", 0, evalcase.Pass), variant("c", "local", "m", 0, evalcase.Fail)},
			rule:     VoteUnanimous, verdict: evalcase.Uncertain, review: []string{"no unanimous vote among 3 model group(s) (pass 2, fail 1)"},
			sampleAgree: 2.0 / 3, groupAgree: 2.0 / 3,
		},
		{
			name:     "unanimous",
			variants: []JudgeVariant{variant("a", "openai", "m", 0, evalcase.Fail), variant("b", "anthropic", "m", 0, evalcase.Fail)},
			rule:     VoteUnanimous, verdict: evalcase.Fail, sampleAgree: 1, groupAgree: 1,
		},
		{
			name:     "tie between groups",
			variants: []JudgeVariant{variant("a", "openai", "m", 0, evalcase.Pass), variant("b", "anthropic", "m", 0, evalcase.Fail)},
			verdict:  evalcase.Uncertain, review: []string{"tie between model groups (pass 1, fail 1)"}, sampleAgree: 0.5, groupAgree: 0.5,
		},
		{
			name: "tie inside a self-consistency group makes it uncertain",
			variants: []JudgeVariant{variant("a1", "openai", "m", 0, evalcase.Pass), variant("a2", "openai", "m", 1, evalcase.Fail),
				variant("b", "anthropic", "m", 0, evalcase.Pass), variant("c", "local", "m", 0, evalcase.Pass)},
			verdict: evalcase.Pass, review: []string{"tie within self-consistency group(s) openai/m", "dissent against pass: a2 (fail)"},
			sampleAgree: 0.75, groupAgree: 2.0 / 3,
		},
		{
			name:     "an unusable answer is uncertain and goes to review",
			variants: []JudgeVariant{variant("a", "openai", "m", 0, evalcase.Pass), variant("b", "anthropic", "m", 0, "garbage"), variant("c", "local", "m", 0, evalcase.Pass)},
			verdict:  evalcase.Pass, review: []string{"1 of 3 sample(s) uncertain or unusable"}, sampleAgree: 2.0 / 3, groupAgree: 2.0 / 3,
		},
		{
			name:     "too many uncertain groups: no majority",
			variants: []JudgeVariant{variant("a", "openai", "m", 0, evalcase.Pass), variant("b", "anthropic", "m", 0, "garbage"), variant("c", "local", "m", 0, "garbage")},
			verdict:  evalcase.Uncertain, review: []string{"no majority of 3 model group(s) (pass 1, uncertain 2)", "2 of 3 sample(s) uncertain"}, sampleAgree: 2.0 / 3, groupAgree: 2.0 / 3,
		},
		{
			name:     "no independent judge of a known producer",
			variants: []JudgeVariant{variant("same", "openai", "gpt-x", 0, evalcase.Pass), variant("sibling", "OpenAI", "gpt-y", 0, evalcase.Pass)},
			producer: &evalcase.Producer{Provider: "openai", Model: "gpt-x"},
			verdict:  evalcase.Pass, review: []string{"no judge is independent of the producer (openai/gpt-x)"}, sampleAgree: 1, groupAgree: 1,
		},
		{
			name:     "one independent judge is enough",
			variants: []JudgeVariant{variant("same", "openai", "gpt-x", 0, evalcase.Pass), variant("other", "anthropic", "claude", 0, evalcase.Pass)},
			producer: &evalcase.Producer{Provider: "openai", Model: "gpt-x"},
			verdict:  evalcase.Pass, sampleAgree: 1, groupAgree: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &JudgePanelMetric{MetricName: "panel", Variants: tc.variants, VoteRule: tc.rule, AcceptDissent: tc.acceptDissent}
			res, err := m.Evaluate(context.Background(), panelStage(tc.producer))
			if err != nil {
				t.Fatal(err)
			}
			var det PanelDetails
			if err := json.Unmarshal(res.Details, &det); err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.verdict {
				t.Errorf("verdict %s, want %s (%s)", res.Verdict, tc.verdict, res.Reason)
			}
			if res.RequiresReview != (tc.review != nil) || len(det.ReviewReasons) != len(tc.review) {
				t.Fatalf("review %v: %q, want %q", res.RequiresReview, det.ReviewReasons, tc.review)
			}
			for i, want := range tc.review {
				if !strings.Contains(det.ReviewReasons[i], want) {
					t.Errorf("review reason %d %q, want %q", i, det.ReviewReasons[i], want)
				}
			}
			if fmt.Sprintf("%.6f %.6f", res.Scores["panel_sample_agreement"], res.Scores["panel_group_agreement"]) != fmt.Sprintf("%.6f %.6f", tc.sampleAgree, tc.groupAgree) {
				t.Errorf("agreement %v", res.Scores)
			}
			if len(det.Samples) != len(tc.variants) {
				t.Errorf("%d samples", len(det.Samples))
			}
			for i, s := range det.Samples {
				v := tc.variants[i]
				if s.Variant != v.Name || s.Provider != v.Provider || s.Model != v.Model || s.Temperature == nil || *s.Temperature != *v.Temperature {
					t.Errorf("sample %d %+v does not keep its variant", i, s)
				}
			}
		})
	}
}

func TestJudgeProvenance(t *testing.T) {
	p := &evalcase.Producer{Provider: "anthropic", Model: "claude-sonnet"}
	tests := []struct {
		producer        *evalcase.Producer
		provider, model string
		want            Provenance
	}{
		{p, "anthropic", "claude-sonnet", ProvenanceSameModel},
		{p, "Anthropic", " CLAUDE-SONNET", ProvenanceSameModel},
		{p, "anthropic", "claude-opus", ProvenanceSameProvider},
		{p, "openai", "claude-sonnet", ProvenanceIndependent},
		{nil, "openai", "gpt", ProvenanceUnknown},
		{&evalcase.Producer{}, "openai", "gpt", ProvenanceUnknown},
		{&evalcase.Producer{Provider: "openai"}, "openai", "gpt", ProvenanceSameProvider},
	}
	for _, tc := range tests {
		if got := JudgeProvenance(tc.producer, tc.provider, tc.model); got != tc.want {
			t.Errorf("JudgeProvenance(%+v, %s, %s) = %s, want %s", tc.producer, tc.provider, tc.model, got, tc.want)
		}
	}
}

// TestPanelUnknownProducer: without a producer every judge is labelled
// unknown and independence is not assumed either way.
func TestPanelUnknownProducer(t *testing.T) {
	m := &JudgePanelMetric{Variants: []JudgeVariant{variant("a", "openai", "m", 0, evalcase.Pass), variant("b", "anthropic", "m", 0, evalcase.Pass)}}
	res, err := m.Evaluate(context.Background(), panelStage(nil))
	if err != nil {
		t.Fatal(err)
	}
	var det PanelDetails
	json.Unmarshal(res.Details, &det)
	if det.Producer != nil || det.IndependentGroups != nil || res.RequiresReview {
		t.Errorf("details %+v", det)
	}
	for _, s := range det.Samples {
		if s.Provenance != ProvenanceUnknown {
			t.Errorf("sample %s provenance %s", s.Variant, s.Provenance)
		}
	}
	if !strings.Contains(string(res.Details), `"producer":null`) {
		t.Error("unknown producer is not stated as null")
	}
}

func TestPanelValidate(t *testing.T) {
	ok := variant("a", "openai", "m", 0, evalcase.Pass)
	for _, tc := range []struct {
		m    JudgePanelMetric
		want string
	}{
		{JudgePanelMetric{}, "no variants"},
		{JudgePanelMetric{Variants: []JudgeVariant{ok, ok}}, "listed twice"},
		{JudgePanelMetric{Variants: []JudgeVariant{{Name: "x", Provider: "p"}}}, "no judge"},
		{JudgePanelMetric{Variants: []JudgeVariant{{Name: "x", Judge: fixedJudge(evalcase.Pass)}}}, "no provider"},
		{JudgePanelMetric{Variants: []JudgeVariant{ok}, VoteRule: "plurality"}, "majority or unanimous"},
	} {
		if err := tc.m.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.m, err, tc.want)
		}
	}
}

// A ModelJudge fills a variant's provider and model from its adapter.
func TestPanelVariantInfoFromAdapter(t *testing.T) {
	temp := 0.3
	adapter := NewModelAdapter(ModelInfo{Provider: "local", Model: "llama", Temperature: &temp}, func(_ context.Context, req ModelRequest) (ModelResponse, error) {
		return ModelResponse{Text: `{"verdict":"pass","rationale":"ok","confidence":1,"claims":[],"reference_claims":[]}`}, nil
	})
	m := &JudgePanelMetric{Variants: []JudgeVariant{{Name: "l", Judge: &ModelJudge{Adapter: adapter}}}}
	res, err := m.Evaluate(context.Background(), panelStage(nil))
	if err != nil || res.Verdict != evalcase.Pass {
		t.Fatalf("%v %v", res, err)
	}
	var det PanelDetails
	json.Unmarshal(res.Details, &det)
	if s := det.Samples[0]; s.Provider != "local" || s.Model != "llama" || *s.Temperature != 0.3 {
		t.Errorf("sample %+v", s)
	}
}
