package pilot

import (
	"context"

	"github.com/docscore/docscore/scoring/runfile"
)

// Engine answers one request per image: a model server (OpenAIEngine) or
// a local program (CommandEngine).
type Engine interface {
	// Do runs one request. ctx carries the request's deadline and the
	// run's cancellation; when ctx ends first the runner records timeout
	// or cancelled whatever Do returns, unless Do got a complete answer.
	Do(ctx context.Context, req EngineRequest) Result
	// Close releases the engine's resources.
	Close() error
}

// EngineRequest is one image to send.
type EngineRequest struct {
	SampleID  string
	Path      string // the image file; empty for an image held in memory only
	Image     []byte // the image bytes, checked against the prepared hash
	MediaType string
}

// Result is how an engine request ended, before the runner adds timing.
type Result struct {
	Status       runfile.Status
	FinishReason *string
	Output       *string
	Usage        *runfile.Usage
	HTTPStatus   int
	ExitCode     *int
	// Err describes a failure; empty for status ok.
	Err string
}

func strPtr(s string) *string { return &s }
