// Package runfile defines the records of a pilot run file (SPEC B.2) and
// reads them back.
//
// A run file is JSONL: its first line is the run [Header], then one
// [Request] line per terminal request, flushed as it ends, and an [End]
// line when the runner stops. The pilot runner writes these types with
// encoding/json (one value per line); the scorers read them with [Read].
// The package is pure: it reads from an io.Reader and never touches files.
package runfile

import "encoding/json"

// Record types: the value of the "type" member of every line.
const (
	TypeRun     = "run"     // the run header, first line of the file
	TypeRequest = "request" // one terminal request
	TypeEnd     = "end"     // the runner stopped
)

// WarmupPhase is the phase of the one warmup request per image. Warmups are
// recorded but never scored and never part of the planned pairs.
const WarmupPhase = "warmup"

// Status is how a request ended.
type Status string

// The request statuses of SPEC B.2.
const (
	StatusOK             Status = "ok"              // the server answered
	StatusTimeout        Status = "timeout"         // the request deadline passed
	StatusHTTPError      Status = "http_error"      // the server answered with an HTTP error
	StatusTransportError Status = "transport_error" // the connection failed
	StatusCancelled      Status = "cancelled"       // the run was stopped while it was in flight
)

// Valid reports whether s is one of the five statuses.
func (s Status) Valid() bool {
	switch s {
	case StatusOK, StatusTimeout, StatusHTTPError, StatusTransportError, StatusCancelled:
		return true
	}
	return false
}

// Finish reasons that the scorers look at; servers may report others.
const (
	FinishStop   = "stop"   // the model ended its answer
	FinishLength = "length" // the answer hit max_tokens: it is truncated
)

// End statuses written by the runner.
const (
	EndComplete    = "complete"    // every planned request was attempted
	EndInterrupted = "interrupted" // the run stopped early (killed, cancelled, failed warmup)
)

// Header is the first line of a run file: what was planned and how.
type Header struct {
	Type         string   `json:"type"` // always TypeRun
	RunID        string   `json:"run_id"`
	Planned      Planned  `json:"planned"`
	Dataset      *Dataset `json:"dataset,omitempty"`
	Model        *Model   `json:"model,omitempty"`
	PromptSHA256 string   `json:"prompt_sha256,omitempty"`
	DeadlineS    float64  `json:"deadline_s,omitempty"`
	// Engine says what answered the requests: a model server or a local
	// command run per image.
	Engine *Engine `json:"engine,omitempty"`
	// Prompt is the prompt text sent with every image (its SHA-256 is
	// PromptSHA256); nil when the engine takes no prompt.
	Prompt *string `json:"prompt,omitempty"`
	// CreatedAt is when the run was prepared (RFC 3339, UTC) and
	// DocscoreVersion the version of the runner that prepared it; a
	// resumed run keeps both.
	CreatedAt       string `json:"created_at,omitempty"`
	DocscoreVersion string `json:"docscore_version,omitempty"`
	// Samples lists every planned sample with its image hash and its
	// original label, in plan order.
	Samples []Sample `json:"samples,omitempty"`
}

// Engine describes how the requests of a run were answered.
type Engine struct {
	// Kind is EngineOpenAI or EngineCommand.
	Kind string `json:"kind"`
	// Command is the command template of a command engine, with its
	// {image} placeholder.
	Command string `json:"command,omitempty"`
}

// Engine kinds.
const (
	EngineOpenAI  = "openai"  // an OpenAI-compatible chat completions server
	EngineCommand = "command" // a local program run once per image
)

// Sample is one planned sample of a run header: where its image came
// from, the image's SHA-256 and the sample's original label.
type Sample struct {
	SampleID    string `json:"sample_id"`
	Image       string `json:"image,omitempty"` // file name, manifest path or parquet row
	ImageSHA256 string `json:"image_sha256"`
	ImageBytes  int64  `json:"image_bytes"`
	// Label is the original CORD annotation (the ground_truth object, or
	// a file holding it), when the dataset had one.
	Label json.RawMessage `json:"label,omitempty"`
	// Reference is a plain-text reference, when the dataset gave one
	// instead of a CORD annotation.
	Reference *string `json:"reference,omitempty"`
}

// Planned lists the measured phases and the samples of a run; every
// (phase, sample) pair is planned exactly once.
type Planned struct {
	Phases    []string `json:"phases"`
	SampleIDs []string `json:"sample_ids"`
}

// Dataset names the pinned dataset the samples come from.
type Dataset struct {
	Name     string `json:"name"`
	Revision string `json:"revision,omitempty"`
	Split    string `json:"split,omitempty"`
}

// Model holds the model server settings of a run.
type Model struct {
	BaseURL     string   `json:"base_url,omitempty"`
	Name        string   `json:"name"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
	// Extra holds the extra request members sent with every request (a
	// JSON object), such as {"top_p": 1}.
	Extra json.RawMessage `json:"extra,omitempty"`
}

// Request is one terminal request: the raw output is kept whatever the
// status. FinishReason, Output and Error are null when there is none.
type Request struct {
	Type         string  `json:"type"` // always TypeRequest
	Phase        string  `json:"phase"`
	SampleID     string  `json:"sample_id"`
	ImageSHA256  string  `json:"image_sha256,omitempty"`
	Status       Status  `json:"status"`
	FinishReason *string `json:"finish_reason"`
	Output       *string `json:"output"`
	LatencyS     float64 `json:"latency_s"`
	Usage        *Usage  `json:"usage,omitempty"`
	StartedAt    string  `json:"started_at,omitempty"`
	Error        *string `json:"error"`
	// HTTPStatus is the status code of the server's answer, when there
	// was one (0 when the request never got an answer).
	HTTPStatus int `json:"http_status,omitempty"`
	// ExitCode is the exit status of a command engine's program, when it
	// exited on its own.
	ExitCode *int `json:"exit_code,omitempty"`
	// EmptyOutput and Truncated are observations apart from the status:
	// the output is blank, or the answer hit max_tokens (finish reason
	// "length"). They are written only when true.
	EmptyOutput bool `json:"empty_output,omitempty"`
	Truncated   bool `json:"truncated,omitempty"`
}

// Usage is the token accounting the server reported.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// End is the last line a runner writes when it stops.
type End struct {
	Type   string `json:"type"` // always TypeEnd
	Status string `json:"status"`
	// Reason says why a run stopped early ("interrupted by signal",
	// "warmup of cord-test-0003 failed: timeout").
	Reason string `json:"reason,omitempty"`
	// FinishedAt is when the runner stopped (RFC 3339, UTC).
	FinishedAt string `json:"finished_at,omitempty"`
}

// NewHeader returns a header of the right type for runID and plan.
func NewHeader(runID string, planned Planned) Header {
	return Header{Type: TypeRun, RunID: runID, Planned: planned}
}

// NewEnd returns an end record with status.
func NewEnd(status string) End { return End{Type: TypeEnd, Status: status} }

// FinishReasonString returns the finish reason, or "" when it is null.
func (r *Request) FinishReasonString() string {
	if r.FinishReason == nil {
		return ""
	}
	return *r.FinishReason
}

// OutputString returns the raw output, or "" when it is null.
func (r *Request) OutputString() string {
	if r.Output == nil {
		return ""
	}
	return *r.Output
}

// Stopped reports whether the request ended normally: status ok and
// finish reason stop. Only such a request contributes its text to scores.
func (r *Request) Stopped() bool {
	return r.Status == StatusOK && r.FinishReasonString() == FinishStop
}
