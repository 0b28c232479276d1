package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/harness/expression"
	"github.com/docscore/docscore/scoring/inputerr"
)

// FuzzReadCaseFile feeds arbitrary bytes to the cases-file reader and
// evaluates what it accepts: no panic, and every rejection is an input
// error with a position.
func FuzzReadCaseFile(f *testing.F) {
	for _, p := range []string{"pipeline/cases.json", "vehicle/cases.json"} {
		if b, err := os.ReadFile(filepath.Join(exampleDir, p)); err == nil {
			f.Add(b)
		}
	}
	if b, err := os.ReadFile("testdata/cases/mixed.jsonl"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"case_id": "a", "prediction": {"x": [1, {"y": null}]}, "references": [{"authority": "ground_truth", "kind": "csv", "value": "path,expected\n$.x[0],1\n"}]}`))
	f.Add([]byte(`{"pipeline_id": "p", "stages": [{"case_id": "a", "prediction": 1, "depends_on": ["a"]}]}`))
	f.Add([]byte("{\"case_id\": \"a\", \"prediction\": 1}\n{\"case_id\": \"a\" \"prediction\": 1}\n"))
	f.Add([]byte(`{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence", "path": "invoice.png"}], "metrics": [{"name": "m", "expression": "len(references) == 1"}]}`))
	files := map[string][]byte{"invoice.png": {0x89, 'P', 'N', 'G'}, "gt.json": []byte(`{"x": 1}`), "gt.csv": []byte("path,expected\n$.x,1\n")}
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, err := ReadCaseFile(bytes.NewReader(data), "fuzz.json", casefile.ReadOptions{Loader: casefile.MapLoader(files)})
		if err != nil {
			ie, ok := inputerr.As(err)
			if !ok || ie.File == "" {
				t.Fatalf("not a located input error: %v", err)
			}
			return
		}
		r, err := EvaluateCaseFile(context.Background(), cf, EvaluatorOptions{Checkpoints: evalcase.NewMemoryCheckpointStore()})
		if err != nil {
			return
		}
		if _, err := r.JSON(); err != nil {
			t.Fatalf("report does not encode: %v", err)
		}
		r.Markdown()
	})
}

// FuzzExpressionMetric compiles and runs arbitrary expressions over
// arbitrary JSON: no panic, and every run ends (the step budget stops
// runaway expressions with verdict uncertain).
func FuzzExpressionMetric(f *testing.F) {
	f.Add("prediction.total == sum(input.line_items, .quantity * .unit_price)", []byte(`{"total": 11.5}`))
	f.Add(`prediction.total == nil ? "uncertain" : prediction.total > 3`, []byte(`{"total": null}`))
	f.Add("all(1..1000, all(1..1000, all(1..1000, true)))", []byte(`1`))
	f.Add(`let a = [prediction, prediction]; let b = [a, a]; let c = [b, b]; let d = [c, c]; toJSON([d, d]) != ""`, []byte(`{"a": [1, 2, 3]}`))
	f.Add(`reduce(1..50, #acc + #acc, "ab") != ""`, []byte(`"x"`))
	f.Add(`map(prediction, # * 2) == [2, 4]`, []byte(`[1, 2]`))
	f.Add(`reference["gt"].x in prediction`, []byte(`[1]`))
	f.Add(`groupBy(prediction, #)`, []byte(`[[1], {"a": 1}]`))
	f.Fuzz(func(t *testing.T, src string, pred []byte) {
		m, err := expression.NewExpressionMetric(evalcase.MetricSpec{Name: "m", Expression: src, MaxSteps: 20000})
		if err != nil {
			return
		}
		p, err := evalcase.ParseJSONValue(pred, "prediction.json")
		if err != nil {
			p = string(pred)
		}
		gt, err := evalcase.ArtifactFromValue(map[string]any{"x": 1}, evalcase.ArtifactOptions{ArtifactID: "gt", Authority: evalcase.AuthorityGroundTruth})
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "c", InputData: p, Prediction: p, References: []evalcase.ReferenceArtifact{gt}})
		if err != nil {
			t.Fatalf("Evaluate returned an error instead of a verdict: %v", err)
		}
		if err := res.Check(); err != nil {
			t.Fatal(err)
		}
	})
}
