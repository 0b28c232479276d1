package evalapi

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestPipelineGolden: the operation's JSON report of the pipeline example
// (testdata/pipeline-report.json, every host's bytes: the bridge and the
// Worker compare with it) is the harness's golden report with the
// provenance (SPEC F.8) added last, and nothing else changed.
func TestPipelineGolden(t *testing.T) {
	req := pipelineExample(t)
	req.Cases.Name = "pipeline/cases.json" // as the harness's golden report names it
	got, err := Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	testkit.Golden(t, filepath.Join("testdata", "pipeline-report.json"), got, *update)
	core, err := os.ReadFile(filepath.Join("..", "..", "harness", "testdata", "pipeline-report.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(append(beforeProvenance(got), "\n}\n"...), core) || bytes.Equal(got, core) {
		t.Errorf("the report is not the harness's golden report with a provenance member added")
	}
}
