package harness

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/docscore/docscore/scoring/ingest"
)

func compileSchema(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "file:///" + filepath.Base(path)
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(s *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// TestExamplesMatchCasesSchema validates every example cases file against
// docs/schema/cases.schema.json.
func TestExamplesMatchCasesSchema(t *testing.T) {
	s := compileSchema(t, "../../docs/schema/cases.schema.json")
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
			if err := validate(s, d); err != nil {
				t.Errorf("%s (item %d) does not match the schema: %v", f, i+1, err)
			}
		}
	}
}

// TestSchemaAndReaderAgree feeds documents to both the schema and
// ReadCaseFile: each is accepted by both or rejected by both.
func TestSchemaAndReaderAgree(t *testing.T) {
	s := compileSchema(t, "../../docs/schema/cases.schema.json")
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
		schemaErr := validate(s, []byte(d.doc))
		_, readErr := readString("cases.json", d.doc, nil)
		if (schemaErr == nil) != d.valid || (readErr == nil) != d.valid {
			t.Errorf("%s\n  schema: %v\n  reader: %v\n  want valid=%v", d.doc, schemaErr, readErr, d.valid)
		}
	}
}

func TestJudgeOutputSchema(t *testing.T) {
	s := compileSchema(t, "schema/judge-output.schema.json")
	answers := []struct {
		raw   string
		valid bool
	}{
		{validAnswer, true},
		{`{"verdict": "uncertain", "rationale": "", "confidence": 0, "claims": [], "reference_claims": []}`, true},
		{`{"verdict": "pass", "rationale": "", "confidence": 1, "claims": []}`, false},
		{`{"verdict": "ok", "rationale": "", "confidence": 1, "claims": [], "reference_claims": []}`, false},
		{`{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [{"claim_id": "c1", "status": "supported"}], "reference_claims": []}`, false},
		{`{"verdict": "pass", "rationale": "", "confidence": 1, "claims": [], "reference_claims": [], "x": 1}`, false},
	}
	for _, a := range answers {
		schemaErr := validate(s, []byte(a.raw))
		_, parseErr := ParseJudgeOutput([]byte(a.raw))
		if (schemaErr == nil) != a.valid || (parseErr == nil) != a.valid {
			t.Errorf("%s\n  schema: %v\n  parser: %v\n  want valid=%v", a.raw, schemaErr, parseErr, a.valid)
		}
	}
}
