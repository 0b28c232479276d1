package groundtruth

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	testkit.Golden(t, path, got, *update)
}

// reader is a scripted ground-truth provider that records what it was
// asked.
type reader struct {
	name   string
	answer func(req judging.ModelRequest) string
	mu     sync.Mutex
	seen   []judging.ModelRequest
}

func (r *reader) adapter() judging.ModelAdapter {
	return judging.NewModelAdapter(judging.ModelInfo{Provider: r.name, Model: r.name + "-model"}, func(_ context.Context, req judging.ModelRequest) (judging.ModelResponse, error) {
		r.mu.Lock()
		r.seen = append(r.seen, req)
		r.mu.Unlock()
		return judging.ModelResponse{Text: r.answer(req), Usage: judging.Usage{InputTokens: 100, OutputTokens: 20, TotalTokens: 120}}, nil
	})
}

// claims renders an answer with one claim per path=value pair (value is
// JSON text).
func claims(pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		parts = append(parts, fmt.Sprintf(`{"path": %q, "value": %s, "reference_id": "page-001", "visual_evidence": "top right of page 1", "confidence": 0.9}`, pairs[i], pairs[i+1]))
	}
	return `{"claims": [` + strings.Join(parts, ", ") + `]}`
}

func fixed(text string) func(judging.ModelRequest) string {
	return func(judging.ModelRequest) string { return text }
}

func sources(t *testing.T) []evalcase.ReferenceArtifact {
	t.Helper()
	var out []evalcase.ReferenceArtifact
	for i, b := range [][]byte{{0x89, 'P', 'N', 'G', 1}, {0x89, 'P', 'N', 'G', 2}} {
		a, err := evalcase.ArtifactFromBytes(fmt.Sprintf("page-%03d.png", i+1), b, evalcase.ArtifactOptions{ArtifactID: fmt.Sprintf("page-%03d", i+1), Metadata: map[string]any{"page": i + 1}})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

var statementFields = []string{"$.currency", "$.amount", "$.account_name", "$.date"}
