package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/inputerr"
)

func readString(name, s string, files map[string][]byte) (*casefile.CaseFile, error) {
	var l casefile.Loader
	if files != nil {
		l = casefile.MapLoader(files)
	}
	return ReadCaseFile(strings.NewReader(s), name, casefile.ReadOptions{Loader: l})
}

func TestReadCaseFileJSONL(t *testing.T) {
	src := `{"operation_metrics": {"calc": [{"name": "total", "expression": "prediction.total == 3"}]}}
{"case_id": "one", "operation": "calc", "prediction": {"total": 3}}

{"pipeline_id": "p", "stages": [{"case_id": "d", "stage_id": "x", "prediction": 1}, {"case_id": "d", "stage_id": "y", "prediction": 2, "depends_on": ["x"]}]}
`
	f, err := readString("cases.jsonl", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) != 1 || len(f.Pipelines) != 1 || len(f.OperationMetrics["calc"]) != 1 || f.DefaultMetricsSet {
		t.Fatalf("%+v", f)
	}
	// Without the .jsonl name, several values on several lines are JSONL too.
	if _, err := readString("cases.txt", src, nil); err != nil {
		t.Fatal(err)
	}
	r, err := EvaluateCaseFile(context.Background(), f, EvaluatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Cases[0].Verdict != evalcase.Pass || r.Pipelines[0].Stages[1].UpstreamVerdicts["x"] != evalcase.NotApplicable {
		t.Errorf("%+v", r.Summary)
	}
}

// TestReadCaseFileErrors checks that each malformed input names the file,
// line, column, field and what was expected.
func TestReadCaseFileErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string
	}{
		{"syntax", "{\n  \"case_id\": \"a\",\n  \"prediction\": [1,,]\n}", "cases.json:3:20: invalid JSON"},
		{"truncated", `{"case_id": "a"`, "cases.json:1:16: invalid JSON: unexpected end of input"},
		{"duplicate key", "{\"case_id\": \"a\",\n \"case_id\": \"b\", \"prediction\": 1}", `cases.json:2:2: duplicate key "case_id"`},
		{"not an object", `[1]`, "cases.json:1:1: expected a JSON object"},
		{"unknown field", "{\"case_id\": \"a\", \"prediction\": 1,\n \"depend_on\": []}", "cases.json:2:15: depend_on: unknown field"},
		{"missing prediction", `{"case_id": "a"}`, `cases.json:1:1: missing required field "prediction"`},
		{"empty case id", `{"case_id": " ", "prediction": 1}`, "case_id: expected a non-empty string"},
		{"bad authority", "{\"case_id\": \"a\", \"prediction\": 1, \"references\": [\n  {\"authority\": \"gold\", \"value\": 1}]}",
			`cases.json:2:17: references[0].authority: "gold": expected one of evidence, generated, ground_truth`},
		{"missing authority", `{"case_id": "a", "prediction": 1, "references": [{"value": 1}]}`, `references[0]: missing required field "authority"`},
		{"value and path", `{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence", "value": 1, "path": "x"}]}`, `exactly one of "value" and "path"`},
		{"image value", `{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence", "kind": "image", "value": "x"}]}`, `needs a "path"`},
		{"csv value not text", `{"case_id": "a", "prediction": 1, "references": [{"authority": "ground_truth", "kind": "csv", "value": 1}]}`, `value must be a string`},
		{"no loader", `{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence", "path": "page.png"}]}`, `references[0].path: cannot read "page.png": no files were given`},
		{"missing file", `{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence", "path": "other.png"}]}`, `cannot read "other.png": no file "other.png" was given`},
		{"sha mismatch", `{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence", "path": "page.png", "sha256": "` + strings.Repeat("0", 64) + `"}]}`, "the file changed"},
		{"broken json reference", `{"case_id": "a", "prediction": 1, "references": [{"authority": "ground_truth", "path": "bad.json"}]}`, "bad.json:2:1: invalid JSON"},
		{"duplicate artifact", `{"case_id": "a", "prediction": 1, "references": [{"authority": "evidence", "artifact_id": "x", "value": 1}, {"authority": "evidence", "artifact_id": "x", "value": 2}]}`, `artifact_id "x" is used twice`},
		{"bad mode", `{"case_id": "a", "prediction": 1, "judge_instruction_mode": "override"}`, `"override": expected one of append, replace`},
		{"replace without override", "{\"case_id\": \"a\", \"prediction\": 1,\n \"judge_instruction\": \"x\", \"judge_instruction_mode\": \"replace\"}", "cases.json:2:54: judge_instruction_mode: stage \"a\": judge_instruction_mode \"replace\" discards the protected judge instructions and is refused unless allow_unsafe_judge_override is true"},
		{"bad expression", "{\"case_id\": \"a\", \"prediction\": 1, \"metrics\": [\n {\"name\": \"m\", \"expression\": \"prediction.total ==\"}]}", "cases.json:2:30: metrics[0].expression: invalid expression"},
		{"metric without kind", `{"case_id": "a", "prediction": 1, "metrics": [{"name": "m"}]}`, `expected "expression" or "kind"`},
		{"unknown metric kind", `{"case_id": "a", "prediction": 1, "metrics": [{"name": "m", "kind": "tabulr"}]}`, `unknown metric kind "tabulr"`},
		{"expression on another kind", `{"case_id": "a", "prediction": 1, "metrics": [{"name": "m", "kind": "exact_structured", "expression": "true"}]}`, "only expression metrics take an expression"},
		{"duplicate metric", `{"case_id": "a", "prediction": 1, "metrics": [{"name": "m", "expression": "true"}, {"name": "m", "expression": "false"}]}`, `metric "m" is listed twice`},
		{"bad threshold", `{"case_id": "a", "prediction": 1, "metrics": [{"name": "m", "expression": "true", "threshold": "high"}]}`, "threshold: expected a number"},
		{"bad max_steps", `{"case_id": "a", "prediction": 1, "metrics": [{"name": "m", "expression": "true", "max_steps": 0}]}`, "max_steps: expected an integer"},
		{"standalone depends", `{"case_id": "a", "prediction": 1, "depends_on": ["b"]}`, "depends_on: a case on its own cannot depend"},
		{"unknown dependency", "{\"pipeline_id\": \"p\", \"stages\": [\n {\"case_id\": \"a\", \"prediction\": 1},\n {\"case_id\": \"b\", \"prediction\": 1, \"depends_on\": [\"c\"]}]}",
			`cases.json:3:51: stages[1].depends_on[0]: "c" is not a stage of pipeline "p"`},
		{"cycle", "{\"pipeline_id\": \"p\", \"stages\": [\n {\"case_id\": \"a\", \"prediction\": 1, \"depends_on\": [\"b\"]},\n {\"case_id\": \"b\", \"prediction\": 1, \"depends_on\": [\"a\"]}]}",
			"cases.json:1:32: stages: depends_on forms a cycle: a -> b -> a"},
		{"duplicate stage", `{"pipeline_id": "p", "stages": [{"case_id": "a", "prediction": 1}, {"case_id": "a", "prediction": 2}]}`, `stage id "a" is used twice in pipeline "p"`},
		{"empty pipeline", `{"pipeline_id": "p", "stages": []}`, "stages: expected at least one stage"},
		{"duplicate pipeline", "{\"pipelines\": [{\"pipeline_id\": \"p\", \"stages\": [{\"case_id\": \"a\", \"prediction\": 1}]},\n {\"pipeline_id\": \"p\", \"stages\": [{\"case_id\": \"a\", \"prediction\": 1}]}]}", `cases.json:2:18: pipelines[1].pipeline_id: pipeline id "p" is already used (line 1)`},
		{"duplicate case", `{"cases": [{"case_id": "a", "prediction": 1}, {"case_id": "a", "prediction": 1}]}`, `case id "a" is already used`},
		{"unknown top-level", `{"case": {}}`, "case: unknown field"},
		{"empty file object", `{}`, "expected at least one case or pipeline"},
		{"empty file", "  \n", "invalid JSON"},
		{"spec replace without override", `{"operation_specs": [{"spec_id": "s", "operation": "o", "judge_instruction": "x", "judge_instruction_mode": "replace"}], "cases": [{"case_id": "a", "prediction": 1}]}`, "operation_specs[0].judge_instruction_mode"},
		{"spec bad status", `{"operation_specs": [{"spec_id": "s", "operation": "o", "evaluation_spec": {"spec_id": "e", "status": "final"}}], "cases": [{"case_id": "a", "prediction": 1}]}`, `evaluation_spec.status: "final": expected one of draft, approved`},
		{"two specs for one operation", `{"operation_specs": [{"spec_id": "s", "operation": "o"}, {"spec_id": "t", "operation": "o"}], "cases": [{"case_id": "a", "prediction": 1}]}`, `operation_specs[1].operation: operation "o" already has a spec`},
		{"deep nesting", strings.Repeat("[", 600) + strings.Repeat("]", 600), "nested deeper than 512"},
	}
	files := map[string][]byte{"page.png": []byte("\x89PNG"), "bad.json": []byte("{\n,}")}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readString("cases.json", tt.src, files)
			if tt.name == "no loader" {
				_, err = readString("cases.json", tt.src, nil)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error\n  %v\nwant it to contain\n  %s", err, tt.want)
			}
			if _, ok := inputerr.As(err); !ok {
				t.Errorf("%v is not an input error", err)
			}
		})
	}
}

func TestReadCaseFileJSONLLineNumbers(t *testing.T) {
	src := "{\"case_id\": \"a\", \"prediction\": 1}\n\n{\"case_id\": \"b\", \"prediction\": 1, \"rubric\": 5}\n"
	_, err := readString("cases.jsonl", src, nil)
	if err == nil || !strings.Contains(err.Error(), "cases.jsonl:3:45: rubric: expected a string, found a number") {
		t.Fatalf("error %v", err)
	}
	_, err = readString("cases.jsonl", "{\"case_id\": \"a\", \"prediction\": 1}\n{\"case_id\": \"a\" \"prediction\": 1}\n", nil)
	if err == nil || !strings.HasPrefix(err.Error(), "cases.jsonl:2:") {
		t.Fatalf("error %v", err)
	}
}

// TestEvaluateCasesJSON is the browser's entry point: the same bytes in
// give the same report bytes, with path references served from memory.
func TestEvaluateCasesJSON(t *testing.T) {
	dir := filepath.Join(exampleDir, "pipeline")
	data, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile(filepath.Join(dir, "invoice.png"))
	if err != nil {
		t.Fatal(err)
	}
	opts := RunOptions{Name: "cases.json", Files: map[string][]byte{"invoice.png": png}}
	a, err := EvaluateCasesJSON(context.Background(), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := EvaluateCasesJSON(context.Background(), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two runs gave different bytes")
	}
	f := readExample(t, "pipeline/cases.json")
	f.Name = "cases.json"
	r, err := EvaluateCaseFile(context.Background(), f, EvaluatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	native, _ := r.JSON()
	if !bytes.Equal(a, native) {
		t.Error("EvaluateCasesJSON and EvaluateCaseFile disagree")
	}
	if _, err := EvaluateCasesJSON(context.Background(), data, RunOptions{Name: "cases.json"}); err == nil || !strings.Contains(err.Error(), `cannot read "invoice.png"`) {
		t.Errorf("without files: %v", err)
	}
	if _, err := EvaluateCasesJSON(context.Background(), []byte(`{"case_id": 1}`), RunOptions{}); err == nil {
		t.Error("bad input accepted")
	} else if _, ok := inputerr.As(err); !ok {
		t.Errorf("not an input error: %v", err)
	}
}
