package groundtruth

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
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
