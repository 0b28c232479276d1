package modeladapter

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// CommandRequest is what a command adapter writes to the program's
// standard input: the model request, with attachments in base64.
type CommandRequest struct {
	Purpose      string              `json:"purpose"`
	Model        judging.ModelInfo   `json:"model"`
	Instructions string              `json:"instructions"`
	Input        any                 `json:"input"`
	SchemaName   string              `json:"schema_name"`
	OutputSchema json.RawMessage     `json:"output_schema"`
	Attachments  []CommandAttachment `json:"attachments"`
}

// CommandAttachment is one file of a CommandRequest.
type CommandAttachment struct {
	ArtifactID string                `json:"artifact_id"`
	Authority  evalcase.Authority    `json:"authority"`
	Kind       evalcase.ArtifactKind `json:"kind"`
	MediaType  string                `json:"media_type"`
	SHA256     string                `json:"sha256"`
	Metadata   map[string]any        `json:"metadata,omitempty"`
	DataBase64 string                `json:"data_base64"`
}

// CommandAdapter runs a local program per call (a wrapper around Ollama,
// vLLM, llama.cpp or a script): the CommandRequest as JSON on standard
// input, the answer (the output JSON) on standard output. A non-zero exit
// is an error that quotes the end of its standard error. The program runs
// without OPENAI_API_KEY and ANTHROPIC_API_KEY in its environment, and is
// never retried.
type CommandAdapter struct {
	judging.UsageTracker
	argv   []string
	model  string
	name   string
	policy Policy
	lim    *Limiter
	dir    string
}

// CommandOptions configure a command adapter.
type CommandOptions struct {
	// Name is the provider name votes and usage records use (default
	// "command").
	Name string
	// Model names the model behind the command (default: the program's
	// base name).
	Model string
	// Dir is the program's working directory (default: the current one).
	Dir     string
	Policy  Policy
	Limiter *Limiter
}

// NewCommand returns an adapter that runs command, split into words like
// a shell would (single and double quotes, backslash escapes) but without
// a shell.
func NewCommand(command string, opts CommandOptions) (*CommandAdapter, error) {
	argv, err := SplitCommand(command)
	if err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, errors.New("command adapter: empty command")
	}
	if opts.Name == "" {
		opts.Name = "command"
	}
	if opts.Model == "" {
		opts.Model = filepath.Base(argv[0])
	}
	return &CommandAdapter{argv: argv, model: opts.Model, name: opts.Name, policy: opts.Policy, lim: opts.Limiter, dir: opts.Dir}, nil
}

// Info describes the command.
func (c *CommandAdapter) Info() judging.ModelInfo {
	return judging.ModelInfo{Provider: c.name, Model: c.model, Settings: map[string]string{"command": strings.Join(c.argv, " ")}}
}

// Call runs the program once.
func (c *CommandAdapter) Call(ctx context.Context, req judging.ModelRequest) (judging.ModelResponse, error) {
	in := CommandRequest{
		Purpose: req.Purpose, Model: c.Info(), Instructions: req.Instructions, Input: req.Input,
		SchemaName: req.SchemaName, OutputSchema: req.OutputSchema, Attachments: []CommandAttachment{},
	}
	for _, a := range req.Attachments {
		in.Attachments = append(in.Attachments, CommandAttachment{
			ArtifactID: a.ArtifactID, Authority: a.Authority, Kind: a.Kind, MediaType: a.MediaType,
			SHA256: a.SHA256, Metadata: a.Metadata, DataBase64: base64.StdEncoding.EncodeToString(a.Content),
		})
	}
	stdin, err := json.Marshal(in)
	if err != nil {
		return judging.ModelResponse{}, fmt.Errorf("command request: %w", err)
	}
	label := c.name + "/" + c.model
	resp, attempts, err := call(ctx, c.name, label, c.policy, c.lim, false, nil, func(ctx context.Context) (judging.ModelResponse, error) {
		// A command that prints more than MaxAnswerBytes is stopped there:
		// its output is cut off with its context.
		ctx, stop := context.WithCancel(ctx)
		defer stop()
		cmd := exec.CommandContext(ctx, c.argv[0], c.argv[1:]...)
		cmd.Dir = c.dir
		cmd.Env = commandEnv()
		cmd.Stdin = bytes.NewReader(stdin)
		out := &cappedWriter{max: MaxAnswerBytes, over: stop}
		errb := &cappedWriter{max: 64 << 10, over: func() {}} // the tail is kept for messages
		cmd.Stdout, cmd.Stderr = out, tailWriter{errb}
		cmd.WaitDelay = 5 * time.Second
		err := cmd.Run()
		if out.hit {
			return judging.ModelResponse{}, fmt.Errorf("command %s: printed more than %d MiB on standard output (expected one JSON answer): %w", c.argv[0], MaxAnswerBytes>>20, ErrAnswerTooLarge)
		}
		if err != nil {
			if ctx.Err() != nil {
				return judging.ModelResponse{}, fmt.Errorf("command %s: %w", c.argv[0], ctx.Err())
			}
			return judging.ModelResponse{}, fmt.Errorf("command %s: %v%s", c.argv[0], err, stderrTail(errb.buf))
		}
		return judging.ModelResponse{Text: string(out.buf), Model: c.model}, nil
	})
	if err != nil {
		return judging.ModelResponse{}, err
	}
	c.RecordUsage(judging.UsageRecord{Provider: c.name, Model: c.model, Purpose: req.Purpose, Attempts: attempts, Usage: resp.Usage})
	return resp, nil
}

// commandEnv is the process environment without the provider keys.
func commandEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "OPENAI_API_KEY" || k == "ANTHROPIC_API_KEY" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// tailWriter keeps the last bytes written to its cappedWriter: past the
// cap it drops the oldest half, so standard error never fails the
// command nor grows past the cap.
type tailWriter struct{ w *cappedWriter }

func (t tailWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) > t.w.max/2 {
		p = p[len(p)-t.w.max/2:]
	}
	if len(t.w.buf)+len(p) > t.w.max {
		t.w.buf = append(t.w.buf[:0], t.w.buf[len(t.w.buf)-t.w.max/2:]...)
	}
	t.w.buf = append(t.w.buf, p...)
	return n, nil
}

func stderrTail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return ": " + s
}

// SplitCommand splits a command line into words: white space separates,
// single quotes keep everything, double quotes keep everything but
// backslash escapes, and a backslash outside quotes escapes the next
// character. There is no shell: no variables, globs or pipes.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("command %q: unterminated single quote", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("command %q: unterminated double quote", s)
			}
			inWord = true
		case ch == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("command %q: trailing backslash", s)
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		case unicode.IsSpace(rune(ch)):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
