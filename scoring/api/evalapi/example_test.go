package evalapi_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/evalapi"
)

func ExampleReportMarkdown() {
	cases := `{"case_id": "invoice-7", "prediction": {"total": 6},
	  "references": [{"artifact_id": "truth", "authority": "ground_truth", "value": {"total": 7}}]}`
	report, err := evalapi.Evaluate(context.Background(), evalapi.EvalRequest{Cases: api.File{Name: "cases.json", Text: cases}})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Later, or elsewhere: the Markdown of the saved JSON report.
	md, err := evalapi.ReportMarkdown(api.File{Name: "report.json", Text: string(report)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "| (case)") || strings.HasPrefix(line, "  - ") {
			fmt.Println(line)
		}
	}
	// Output:
	// | (case) | invoice-7 |  | ❌ fail | current_stage | — | field_accuracy 0 |
	//   - `$.total`: expected 7, got 6 (truth)
}
