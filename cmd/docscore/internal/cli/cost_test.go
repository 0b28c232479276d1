package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/judge/judgetest"
	"github.com/docscore/docscore/scoring/harness"
)

// judgedCases writes a cases file of n cases, each decided by the judge
// alone (one call per case).
func judgedCases(t *testing.T, n int) string {
	t.Helper()
	var cases []any
	for i := 1; i <= n; i++ {
		cases = append(cases, map[string]any{
			"case_id": fmt.Sprintf("case-%02d", i), "operation": "classify",
			"prediction": map[string]any{"vehicle": "fund"},
			"references": []any{map[string]any{"artifact_id": "truth", "authority": "ground_truth", "comparison_mode": "semantic", "value": map[string]any{"vehicle": "fund"}}},
		})
	}
	b, _ := json.Marshal(map[string]any{
		"operation_metrics": map[string]any{"classify": []any{map[string]any{"name": "judge", "kind": "llm_judge"}}},
		"cases":             cases,
	})
	p := filepath.Join(t.TempDir(), "cases.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCostTrial(t *testing.T) {
	oa := judgetest.NewOpenAI(openaiKey)
	defer oa.Close()
	oa.Answer = judgeAnswer(oa)
	env := map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": oa.BaseURL()}
	code, out, errs := runEnv(t, "", env, "eval", "--cases", judgedCases(t, 3), "--judge", "openai", "--model", "gpt-5-mini", "--max-cost", "1", "--markdown", "-", "--output", filepath.Join(t.TempDir(), "r.json"))
	t.Logf("exit %d\n%s\n%s", code, out, errs)
	_ = harness.Report{}
	_ = strings.Contains
}
