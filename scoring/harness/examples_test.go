package harness

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
)

// exampleDir is where the runnable examples live.
const exampleDir = "../../examples/harness"

// dirLoader reads files named by a cases file relative to its folder.
func dirLoader(dir string) casefile.Loader {
	return func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, p)) }
}

func readExample(t *testing.T, rel string) *casefile.CaseFile {
	t.Helper()
	path := filepath.Join(exampleDir, rel)
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	f, err := ReadCaseFile(fh, rel, casefile.ReadOptions{Loader: dirLoader(filepath.Dir(path))})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestPipelineExampleAttribution runs examples/harness/pipeline/cases.json,
// the seed's extraction + total calculation, and checks the four
// attribution outcomes.
func TestPipelineExampleAttribution(t *testing.T) {
	f := readExample(t, "pipeline/cases.json")
	r, err := EvaluateCaseFile(context.Background(), f, EvaluatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		extract, calc evalcase.Verdict
		context       FailureContext
	}
	wants := map[string]want{
		"all-correct":      {evalcase.Pass, evalcase.Pass, ""},
		"wrong-total":      {evalcase.Pass, evalcase.Fail, CurrentStage},
		"wrong-extraction": {evalcase.Fail, evalcase.Pass, Upstream},
		"both-wrong":       {evalcase.Fail, evalcase.Fail, UpstreamOrCombined},
		"uncertain-total":  {evalcase.Pass, evalcase.Uncertain, Indeterminate},
	}
	if len(r.Pipelines) != len(wants) {
		t.Fatalf("got %d pipelines, want %d", len(r.Pipelines), len(wants))
	}
	for _, p := range r.Pipelines {
		w, ok := wants[p.PipelineID]
		if !ok {
			t.Fatalf("unexpected pipeline %q", p.PipelineID)
		}
		ex, calc := p.Stages[0], p.Stages[1]
		if ex.StageID != "extract" || calc.StageID != "calculate-total" {
			t.Fatalf("%s: stages out of order: %s, %s", p.PipelineID, ex.StageID, calc.StageID)
		}
		if ex.Verdict != w.extract || calc.Verdict != w.calc {
			t.Errorf("%s: verdicts extract=%s calculate=%s, want %s %s (metrics %+v)", p.PipelineID, ex.Verdict, calc.Verdict, w.extract, w.calc, calc.Metrics)
		}
		if calc.FailureContext != w.context {
			t.Errorf("%s: calculate-total failure_context = %q, want %q", p.PipelineID, calc.FailureContext, w.context)
		}
		if got := calc.UpstreamVerdicts["extract"]; got != w.extract {
			t.Errorf("%s: upstream_verdicts[extract] = %q, want %q", p.PipelineID, got, w.extract)
		}
	}
}
