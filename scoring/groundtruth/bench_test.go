package groundtruth

import (
	"context"
	"fmt"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

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
		return GroundTruthProvider{name, judging.NewModelAdapter(judging.ModelInfo{Provider: name}, func(context.Context, judging.ModelRequest) (judging.ModelResponse, error) {
			return judging.ModelResponse{Text: text}, nil
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
