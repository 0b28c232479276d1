package harness

import (
	"context"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
)

const registerCSV = "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
	"Leon q.m. Iacob Tedesco,,February 9 1769,,San Zaccaria,Praga,N,N,2\n" +
	"Anzola Benetti,,February 1 1769,,San Geremia,Rovigo,Y,N,0\n"

func TestTabularMetricOnAStage(t *testing.T) {
	stage := func(pred any, refs ...evalcase.ReferenceArtifact) evalcase.EvaluationCase {
		return evalcase.EvaluationCase{CaseID: "extract", Prediction: pred, References: refs}
	}
	gt := evalcase.ReferenceArtifact{ArtifactID: "gt", Authority: evalcase.AuthorityGroundTruth, Kind: evalcase.KindCSV, Value: registerCSV}
	records := []any{
		map[string]any{"name": "Leon qm Iacob Tedesco", "arrival_date": "February 09 1769", "place_of_stay": "S. Zaccaria", "children_count": 2.0},
		map[string]any{"name": "Anzola Benetti", "arrival_date": "February 1 1769"},
	}
	m := &TabularMetric{Threshold: 0.9}
	res, err := m.Evaluate(context.Background(), stage(records, gt))
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != evalcase.Pass || res.Scores["f1"] != 1 || res.Scores["accuracy.arrival_date"] != 1 {
		t.Fatalf("result %+v", res)
	}
	// Without the rule file "S. Zaccaria" is not "San Zaccaria" (and the
	// second record has no place: 0).
	if res.Scores["accuracy.place_of_stay"] != (1-2.0/12)/2 {
		t.Fatalf("place_of_stay %v without rules", res.Scores["accuracy.place_of_stay"])
	}
	rules := evalcase.ReferenceArtifact{ArtifactID: "EQUIVALENCES.md", Authority: evalcase.AuthorityEvidence, Kind: evalcase.KindMarkdown, Metadata: map[string]any{"role": "rules"},
		Value: "## 2. Equivalences\n\n| field | forms | canonical | status | witness |\n|---|---|---|---|---|\n| place_of_stay | s. / san | san | settled | x |\n"}
	res, _ = m.Evaluate(context.Background(), stage(records, gt, rules))
	if res.Scores["accuracy.place_of_stay"] != 0.5 {
		t.Fatalf("rules not applied: %+v", res.Scores)
	}
	// A raw answer with the array in prose works too; a missed row fails.
	res, _ = m.Evaluate(context.Background(), stage("Here: [{\"name\": \"Anzola Benetti\"}]", gt))
	if res.Verdict != evalcase.Fail || res.Scores["recall"] != 0.5 {
		t.Fatalf("raw answer: %+v", res)
	}
	res, _ = m.Evaluate(context.Background(), stage("no records", gt))
	if res.Verdict != evalcase.Fail || !strings.Contains(res.Reason, "no JSON array") {
		t.Fatalf("no records: %+v", res)
	}
	res, _ = m.Evaluate(context.Background(), stage(records))
	if res.Verdict != evalcase.NotApplicable {
		t.Fatalf("no reference: %+v", res)
	}
}

func TestReceiptsMetricOnAStage(t *testing.T) {
	ref := evalcase.ReferenceArtifact{ArtifactID: "ref", Authority: evalcase.AuthorityGroundTruth, Kind: evalcase.KindText, Value: "NASI GORENG 2 25,000 TOTAL 50,000"}
	m := &ReceiptsMetric{Threshold: 0.5}
	res, err := m.Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "ocr", Prediction: `\begin{tabular}{cc} Nasi Goreng & 2 \\ \multicolumn{2}{c}{25,000} \end{tabular} TOTAL 50.000`, References: []evalcase.ReferenceArtifact{ref}})
	if err != nil {
		t.Fatal(err)
	}
	// 6 reference tokens; the prediction has nasi goreng 2 25,000 total 50.000.
	if res.Verdict != evalcase.Pass || res.Scores["rouge_l_f1"] != 2.0*5/12 || res.Scores["numeric_recall"] != 2.0/3 {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(string(res.Details), `"50,000"`) {
		t.Fatalf("missing numbers not in details: %s", res.Details)
	}
	cord := evalcase.ReferenceArtifact{ArtifactID: "cord.json", Authority: evalcase.AuthorityGroundTruth, Kind: evalcase.KindJSON,
		Value: map[string]any{"valid_line": []any{map[string]any{"words": []any{map[string]any{"text": "TOTAL"}, map[string]any{"text": "50,000"}}}}}}
	res, _ = m.Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "ocr", Prediction: "total 50,000", References: []evalcase.ReferenceArtifact{cord}})
	if res.Verdict != evalcase.Pass || res.Scores["rouge_l_f1"] != 1 {
		t.Fatalf("CORD reference: %+v", res)
	}
}

func TestScorerKindsFromACasesFile(t *testing.T) {
	f, err := ReadCaseFile(strings.NewReader(`{"case_id": "ocr", "prediction": "TOTAL 50,000",
		"references": [{"artifact_id": "r", "authority": "ground_truth", "kind": "text", "value": "TOTAL 50,000"}],
		"metrics": [{"name": "ocr", "kind": "receipts", "threshold": 0.9}]}`), "cases.json", casefile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := EvaluateCaseFile(context.Background(), f, EvaluatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := rep.JSON()
	if !strings.Contains(string(out), `"rouge_l_f1": 1`) || !strings.Contains(string(out), `"verdict": "pass"`) {
		t.Fatalf("report %s", out)
	}
}
