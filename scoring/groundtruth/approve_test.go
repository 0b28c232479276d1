package groundtruth_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/groundtruth"
	"github.com/docscore/docscore/scoring/harness"
)

func TestApproveGeneratedReference(t *testing.T) {
	rep, _ := groundtruth.FirstPass(t)
	ref := rep.ProvisionalReference
	human, _ := evalcase.ArtifactFromValue("path,expected\n$.a,1\n", evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth, Kind: evalcase.KindCSV})
	plain, _ := evalcase.ArtifactFromValue("path,expected\n$.a,1\n", evalcase.ArtifactOptions{Authority: evalcase.AuthorityGenerated, Kind: evalcase.KindCSV})
	all := []groundtruth.FieldDecision{{"$.amount", groundtruth.DecisionSet, "1,250.00"}, {"account_name", groundtruth.DecisionSet, "J. Smith"}, {"$.date", groundtruth.DecisionOmit, nil}}
	tests := []struct {
		name string
		ref  evalcase.ReferenceArtifact
		a    groundtruth.Approval
		err  string
	}{
		{"not generated", human, groundtruth.Approval{ApprovedBy: "a@example.org"}, "only a generated reference"},
		{"not from a panel", plain, groundtruth.Approval{ApprovedBy: "a@example.org"}, "not made by a ground-truth panel"},
		{"unsigned", ref, groundtruth.Approval{Decisions: all}, "needs approved_by"},
		{"unresolved", ref, groundtruth.Approval{ApprovedBy: "a@example.org", Decisions: all[:1]}, "2 disagreement(s) unresolved ($.account_name, $.date)"},
		{"bad decision", ref, groundtruth.Approval{ApprovedBy: "a@example.org", Decisions: []groundtruth.FieldDecision{{"$.amount", "keep", nil}}}, `"keep": expected set or omit`},
		{"decided twice", ref, groundtruth.Approval{ApprovedBy: "a@example.org", Decisions: append(all, groundtruth.FieldDecision{"$.amount", groundtruth.DecisionOmit, nil})}, "decided twice"},
	}
	for _, tc := range tests {
		if _, err := groundtruth.ApproveGeneratedReference(tc.ref, tc.a); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
		}
	}
	got, err := groundtruth.ApproveGeneratedReference(ref, groundtruth.Approval{ApprovedBy: " reviewer@example.org ", Decisions: append(all, groundtruth.FieldDecision{"$.currency", groundtruth.DecisionSet, "EUR"})})
	if err != nil {
		t.Fatal(err)
	}
	if got.Authority != evalcase.AuthorityGroundTruth || got.Value != "path,expected\n$.currency,EUR\n$.amount,\"1,250.00\"\n$.account_name,J. Smith\n" {
		t.Errorf("approved %s %q", got.Authority, got.Value)
	}
	if got.Metadata["approved_by"] != "reviewer@example.org" || got.Metadata["approved_from_sha256"] != ref.SHA256 {
		t.Errorf("metadata %v", got.Metadata)
	}
	// The approved reference scores as field_accuracy, the generated one as
	// agreement.
	for _, tc := range []struct {
		ref   evalcase.ReferenceArtifact
		score string
	}{{ref, evalcase.ScoreGeneratedAgreement}, {got, evalcase.ScoreFieldAccuracy}} {
		res, err := (&harness.ExactStructuredMetric{}).Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "c", Prediction: map[string]any{"currency": "EUR"}, References: []evalcase.ReferenceArtifact{tc.ref}})
		if _, ok := res.Scores[tc.score]; err != nil || !ok {
			t.Errorf("%s: scores %v %v", tc.ref.Authority, res.Scores, err)
		}
	}
}
