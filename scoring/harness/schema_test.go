package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/ingest"
)

// TestExamplesMatchCasesSchema validates every example cases file against
// docs/schema/cases.schema.json.
func TestExamplesMatchCasesSchema(t *testing.T) {
	s := testkit.CompileSchema(t, "../../docs/schema/cases.schema.json")
	files, err := filepath.Glob(filepath.Join(exampleDir, "*", "cases.json*"))
	if err != nil || len(files) < 2 {
		t.Fatalf("found %v, %v", files, err)
	}
	more, _ := filepath.Glob("testdata/cases/*.json*")
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs := [][]byte{data}
		if strings.HasSuffix(f, ".jsonl") {
			docs = nil
			for lines := ingest.NewLines(f, data); lines.Next(); {
				docs = append(docs, lines.Line().Text)
			}
		}
		for i, d := range docs {
			if err := testkit.Validate(s, d); err != nil {
				t.Errorf("%s (item %d) does not match the schema: %v", f, i+1, err)
			}
		}
	}
}

// TestSchemaAndReaderAgree feeds documents to both the schema and
// ReadCaseFile: each is accepted by both or rejected by both.
func TestSchemaAndReaderAgree(t *testing.T) {
	s := testkit.CompileSchema(t, "../../docs/schema/cases.schema.json")
	docs := []struct {
		doc   string
		valid bool
	}{
		{`{"case_id": "a", "prediction": null}`, true},
		{`{"case_id": "a", "prediction": 1, "producer": null}`, true},
		{`{"case_id": "a", "prediction": {"x": 1}, "references": [{"authority": "ground_truth", "value": {"x": 1}, "comparison_mode": "exact"}], "metrics": [{"name": "e", "kind": "exact_structured"}]}`, true},
		{`{"pipeline_id": "p", "stages": [{"case_id": "a", "prediction": 1}, {"case_id": "a", "stage_id": "b", "prediction": 2, "depends_on": ["a"]}]}`, true},
		{`{"cases": [{"case_id": "a", "prediction": 1, "judge_instruction": "x", "judge_instruction_mode": "replace", "allow_unsafe_judge_override": true}], "default_metrics": []}`, true},
		{`{"case_id": "a"}`, false},
		{`{"case_id": "", "prediction": 1}`, false},
		{`{"case_id": "a", "prediction": 1, "extra": 1}`, false},
		{`{"case_id": "a", "prediction": 1, "references": [{"authority": "gold", "value": 1}]}`, false},
		{`{"case_id": "a", "prediction": 1, "references": [{"value": 1}]}`, false},
		{`{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence"}]}`, false},
		{`{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence", "kind": "pdf", "value": "x"}]}`, false},
		{`{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence", "kind": "csv", "value": 3}]}`, false},
		{`{"case_id": "a", "prediction": 1, "judge_instruction": "x", "judge_instruction_mode": "replace"}`, false},
		{`{"case_id": "a", "prediction": 1, "metrics": [{"name": "m"}]}`, false},
		{`{"case_id": "a", "prediction": 1, "metrics": [{"name": "m", "kind": "exact_structured", "expression": "true"}]}`, false},
		{`{"case_id": "a", "prediction": 1, "metrics": [{"name": "m", "expression": "true", "max_steps": 0}]}`, false},
		{`{"case_id": "a", "prediction": 1, "depends_on": ["b"]}`, false},
		{`{"cases": [{"case_id": "a", "prediction": 1, "depends_on": ["b"]}]}`, false},
		{`{"pipeline_id": "p", "stages": []}`, false},
		{`{"pipeline_id": "p"}`, false},
		{`{"operation_specs": [{"spec_id": "s", "operation": "o", "evaluation_spec": {"spec_id": "e", "status": "final"}}], "cases": [{"case_id": "a", "prediction": 1}]}`, false},
		{`{"operation_specs": [{"spec_id": "s", "operation": "o", "judge_instruction_mode": "replace"}], "cases": [{"case_id": "a", "prediction": 1}]}`, false},
		{`{"unknown": 1}`, false},
	}
	for _, d := range docs {
		schemaErr := testkit.Validate(s, []byte(d.doc))
		_, readErr := readString("cases.json", d.doc, nil)
		if (schemaErr == nil) != d.valid || (readErr == nil) != d.valid {
			t.Errorf("%s\n  schema: %v\n  reader: %v\n  want valid=%v", d.doc, schemaErr, readErr, d.valid)
		}
	}
}
