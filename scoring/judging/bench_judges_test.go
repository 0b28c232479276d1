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

// BenchmarkGroundTruthGenerate reconciles three providers' readings of
// 200 fields (parsing, voting, the provisional reference).
func BenchmarkGroundTruthGenerate(b *testing.B) {
	var fields, pairsA, pairsB []string
	for i := 0; i < 200; i++ {
		p := fmt.Sprintf("$.items[%d].amount", i)
		fields = append(fields, p)
		pairsA = append(pairsA, p, fmt.Sprintf(`"%d.50"`, i))
		v := fmt.Sprintf(`"%d.50"`, i)
		if i%10 == 0 {
			v = `"0"`
		}
		pairsB = append(pairsB, p, v)
	}
	a, c := claims(pairsA...), claims(pairsB...)
	page, _ := evalcase.ArtifactFromBytes("page-001.png", []byte("\x89PNG"), evalcase.ArtifactOptions{ArtifactID: "page-001"})
	mk := func(name, text string) GroundTruthProvider {
		return GroundTruthProvider{name, NewModelAdapter(ModelInfo{Provider: name}, func(context.Context, ModelRequest) (ModelResponse, error) {
			return ModelResponse{Text: text}, nil
		})}
	}
	p := &GroundTruthPanel{Providers: []GroundTruthProvider{mk("a", a), mk("b", a), mk("c", c)}, ExtractionInstruction: "x", ExpectedFields: fields, MinimumAgreement: 0.66}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Generate(context.Background(), "c", []evalcase.ReferenceArtifact{page}); err != nil {
			b.Fatal(err)
		}
	}
}
