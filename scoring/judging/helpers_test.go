package judging

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// reader is a scripted ground-truth provider that records what it was
// asked.
type reader struct {
	name   string
	answer func(req ModelRequest) string
	mu     sync.Mutex
	seen   []ModelRequest
}

func (r *reader) adapter() ModelAdapter {
	return NewModelAdapter(ModelInfo{Provider: r.name, Model: r.name + "-model"}, func(_ context.Context, req ModelRequest) (ModelResponse, error) {
		r.mu.Lock()
		r.seen = append(r.seen, req)
		r.mu.Unlock()
		return ModelResponse{Text: r.answer(req), Usage: Usage{InputTokens: 100, OutputTokens: 20, TotalTokens: 120}}, nil
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

func fixed(text string) func(ModelRequest) string { return func(ModelRequest) string { return text } }
