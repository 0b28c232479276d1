package harness

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
)

// TestPipelineExampleReportGolden keeps the JSON and Markdown reports of
// the pipeline example as golden files; run under GOOS=js GOARCH=wasm too,
// it shows the browser build writes the same bytes.
func TestPipelineExampleReportGolden(t *testing.T) {
	f := readExample(t, "pipeline/cases.json")
	r, err := EvaluateCaseFile(context.Background(), f, EvaluatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	md := r.Markdown()
	for _, want := range []string{"| wrong-total | calculate-total | sum_quantity_times_unit_price | ❌ fail | current_stage | extract: pass |",
		"`$.line_items[0].quantity`: expected 2, got 3 (human-transcription)", "## Review queue", "Rerun: rerun this stage with corrected input from extract."} {
		if !strings.Contains(string(md), want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	golden(t, "testdata/pipeline-report.golden.md", md)
	js, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/pipeline-report.golden.json", js)
}

// TestReportDeterministic runs the same file twice, and once more from
// checkpoints: the bytes match (apart from from_checkpoint).
func TestReportDeterministic(t *testing.T) {
	data, err := os.ReadFile("testdata/cases/mixed.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	run := func(store evalcase.CheckpointStore) []byte {
		f, err := ReadCaseFile(bytes.NewReader(data), "mixed.jsonl", casefile.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := EvaluateCaseFile(context.Background(), f, EvaluatorOptions{Checkpoints: store, CheckpointContext: map[string]string{"k": "v"}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	store := evalcase.NewMemoryCheckpointStore()
	a, b := run(nil), run(store)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs differ")
	}
	c := run(store)
	if bytes.Equal(b, c) || !bytes.Equal(b, bytes.ReplaceAll(c, []byte(`"from_checkpoint": true`), []byte(`"from_checkpoint": false`))) {
		t.Errorf("a checkpointed rerun must differ only in from_checkpoint:\n%s", c)
	}
	for _, want := range []string{`"generated_field_agreement": 1`, `"calculation_accuracy": 1`, `"field_accuracy": 1`, `"failure_context": null`} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("report lacks %s", want)
		}
	}
}

func TestFormatScore(t *testing.T) {
	for in, want := range map[float64]string{1: "1", 0: "0", 0.75: "0.75", 2.0 / 3: "0.6667", 0.00001: "0"} {
		if got := formatScore(in); got != want {
			t.Errorf("formatScore(%v) = %q, want %q", in, got, want)
		}
	}
}

// TestMapText: the report's map columns list entries in key order, and an
// empty map as a dash.
func TestMapText(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"empty scores", scoresText(nil), "—"},
		{"empty upstream", upstreamText(map[string]evalcase.Verdict{}), "—"},
		{"scores", scoresText(map[string]float64{"recall": 0.5, "f1": 2.0 / 3, "a|b": 1}), `a\|b 1, f1 0.6667, recall 0.5`},
		{"upstream", upstreamText(map[string]evalcase.Verdict{"read": evalcase.Pass, "calc": evalcase.Fail}), "calc: fail, read: pass"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}
