package pilot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/docscore/docscore/scoring/runfile"
)

// maxCommandOutput bounds what a command engine's program may print.
const maxCommandOutput = 64 << 20

// CommandEngine runs a local program once per image: the command template
// is run by /bin/sh -c with {image} replaced by the image file's path and
// {sample_id} by the sample id (each shell-quoted, so write them bare).
// Standard output is the output; standard input is empty.
//
// Statuses: exit status 0 is ok with finish reason "stop"; another exit
// status is http_error (the engine answered with an error; exit_code is
// recorded), except 126 and 127 (the shell could not run the program) and
// a death by a signal docscore did not send, which are transport_error;
// the deadline is timeout and an interrupted run cancelled, as for a
// server. The whole process group is killed when the deadline passes.
type CommandEngine struct {
	template string
	shell    string
}

// NewCommand returns an engine for template, which must hold {image}.
func NewCommand(template string) (*CommandEngine, error) {
	if strings.TrimSpace(template) == "" {
		return nil, errors.New("--command is empty: expected a command line such as 'tesseract {image} - --psm 6'")
	}
	if !strings.Contains(template, "{image}") {
		return nil, fmt.Errorf("--command %q has no {image} placeholder: expected the image path's place, as in 'tesseract {image} - --psm 6'", template)
	}
	return &CommandEngine{template: template, shell: "/bin/sh"}, nil
}

// Close does nothing.
func (e *CommandEngine) Close() error { return nil }

// CommandLine returns the shell command line for one image.
func (e *CommandEngine) CommandLine(imagePath, sampleID string) string {
	return strings.NewReplacer("{image}", shellQuote(imagePath), "{sample_id}", shellQuote(sampleID)).Replace(e.template)
}

// Do runs the program for one image.
func (e *CommandEngine) Do(ctx context.Context, req EngineRequest) Result {
	if req.Path == "" {
		return Result{Status: runfile.StatusTransportError, Err: "the image has no file path"}
	}
	cmd := exec.CommandContext(ctx, e.shell, "-c", e.CommandLine(req.Path, req.SampleID))
	setProcessGroup(cmd)
	cmd.Cancel = func() error { return killProcessGroup(cmd) }
	cmd.WaitDelay = 2 * time.Second
	stdout := &limitedBuffer{limit: maxCommandOutput}
	stderr := &tailBuffer{limit: 2048}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if stdout.over {
		return Result{Status: runfile.StatusTransportError, Err: fmt.Sprintf("the program printed more than %d bytes", maxCommandOutput)}
	}
	out := stdout.String()
	if err == nil {
		zero := 0
		return Result{Status: runfile.StatusOK, FinishReason: strPtr(runfile.FinishStop), Output: &out, ExitCode: &zero}
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return Result{Status: runfile.StatusTransportError, Err: "cannot run the command: " + err.Error()}
	}
	msg := strings.TrimSpace(stderr.String())
	if msg != "" {
		msg = ": " + strings.ReplaceAll(msg, "\n", " | ")
	}
	code := ee.ExitCode()
	if code < 0 || ctx.Err() != nil {
		return Result{Status: runfile.StatusTransportError, Output: &out, Err: fmt.Sprintf("the program was killed (%v)%s", ee, msg)}
	}
	status := runfile.StatusHTTPError
	what := "the program failed"
	if code == 126 || code == 127 {
		status, what = runfile.StatusTransportError, "the shell could not run the program"
	}
	return Result{Status: status, Output: &out, ExitCode: &code, Err: fmt.Sprintf("%s: exit status %d%s", what, code, msg)}
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// limitedBuffer keeps at most limit bytes and notes when more came.
type limitedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
	over  bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.limit - b.buf.Len(); len(p) > room {
		b.over = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// tailBuffer keeps the last limit bytes written.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	limit int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.limit {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.limit:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
