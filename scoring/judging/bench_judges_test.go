package judging

import (
	"context"
	"fmt"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
)

// BenchmarkJudgePanel votes a seven-variant panel (three model groups)
// with instant judges: the cost of building the request and voting.
func BenchmarkJudgePanel(b *testing.B) {
	var vs []JudgeVariant
	for i := 0; i < 5; i++ {
		vs = append(vs, variant(fmt.Sprint("g", i), "openai", "gpt", float64(i)/5, evalcase.Fail))
	}
	vs = append(vs, variant("c", "anthropic", "claude", 0, evalcase.Pass), variant("l", "local", "llama", 0, evalcase.Pass))
	m := &JudgePanelMetric{Variants: vs}
	stage := panelStage(&evalcase.Producer{Provider: "openai", Model: "gpt"})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := m.Evaluate(context.Background(), stage); err != nil {
			b.Fatal(err)
		}
	}
}
