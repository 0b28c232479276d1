package pilotrun

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/inputerr"
)

// Run is a run file read back: its header, every request in file order
// (warmups included) and the last end record, if any.
type Run struct {
	Name       string // the file name errors are reported against
	Header     Header
	HeaderLine int
	Requests   []Record
	// End is the last end record; nil when the runner never wrote one (a
	// killed run). A resumed run may hold several; the last one wins.
	End     *End
	EndLine int
	// Skipped lists the malformed lines left out under SkipBadLines.
	Skipped []*inputerr.Error
	// Cut is the last line when it was cut short (no newline, not JSON: the
	// process was killed while writing it) and left out under
	// AllowCutLastLine; nil otherwise.
	Cut *inputerr.Error
}

// Record is one request with the 1-based line it was read from.
type Record struct {
	Line int
	Request
}

// ReadOptions tune Read.
type ReadOptions struct {
	// SkipBadLines reports a malformed request or end line in Run.Skipped
	// and goes on, instead of failing. A bad header is always an error.
	SkipBadLines bool
	// AllowCutLastLine leaves out a last line that has no newline and is
	// not JSON, recording it in Run.Cut, instead of failing: a run killed
	// while a record was written ends so. A malformed line anywhere else
	// is still an error (unless SkipBadLines), and so is a cut header.
	AllowCutLastLine bool
}

// Read reads a run file from r; name is the file name used in errors.
// Blank lines are ignored. The first line must be the run header; a later
// header line (a resumed run) must repeat the first one's run_id and plan.
// Request lines need a phase, a sample_id and one of the five statuses;
// unknown members are ignored. Errors are *inputerr.Error values naming
// the file and line (and column for JSON syntax errors).
func Read(r io.Reader, name string, opts ReadOptions) (*Run, error) {
	run := &Run{Name: name}
	br := bufio.NewReaderSize(r, 64<<10)
	lineNo := 0
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			lineNo++
			if lineNo == 1 {
				line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			}
			if perr := run.addLine(line, lineNo); perr != nil {
				if opts.AllowCutLastLine && err == io.EOF && run.HeaderLine != 0 && !json.Valid(line) {
					// err == io.EOF: the line has no newline, so it is the last.
					run.Cut = inputerr.New(name, lineNo, "the last line was cut short (%d bytes, no newline, not JSON: the run was killed while writing it); left out", len(line))
					break
				}
				if !opts.SkipBadLines || run.HeaderLine == 0 {
					return nil, perr
				}
				run.Skipped = append(run.Skipped, perr)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if run.HeaderLine == 0 {
		return nil, inputerr.New(name, 0, "empty run file: expected a first line {\"type\": \"run\", …}")
	}
	return run, nil
}

// addLine parses one line into run.
func (run *Run) addLine(line []byte, lineNo int) *inputerr.Error {
	name := run.Name
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	if run.HeaderLine != 0 {
		// Most lines are requests: try them in one decoding.
		var req Request
		if json.Unmarshal(trimmed, &req) == nil && req.Type == TypeRequest {
			if e := checkRequest(name, lineNo, &req); e != nil {
				return e
			}
			run.Requests = append(run.Requests, Record{Line: lineNo, Request: req})
			return nil
		}
	}
	var probe struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(trimmed, &probe); err != nil {
		return jsonError(name, lineNo, line, trimmed, "a JSON object", err)
	}
	if probe.Type == nil {
		return inputerr.New(name, lineNo, "expected a \"type\" member (run, request or end)")
	}
	if run.HeaderLine == 0 && *probe.Type != TypeRun {
		return inputerr.New(name, lineNo, "expected the run header {\"type\": \"run\", …} as the first line, got type %q", *probe.Type)
	}
	switch *probe.Type {
	case TypeRun:
		return run.addHeader(line, trimmed, lineNo)
	case TypeRequest:
		var req Request
		if err := json.Unmarshal(trimmed, &req); err != nil {
			return jsonError(name, lineNo, line, trimmed, "a request record", err)
		}
		if e := checkRequest(name, lineNo, &req); e != nil {
			return e
		}
		run.Requests = append(run.Requests, Record{Line: lineNo, Request: req})
	case TypeEnd:
		var end struct {
			Type       string  `json:"type"`
			Status     *string `json:"status"`
			Reason     string  `json:"reason"`
			FinishedAt string  `json:"finished_at"`
		}
		if err := json.Unmarshal(trimmed, &end); err != nil {
			return jsonError(name, lineNo, line, trimmed, "an end record", err)
		}
		if end.Status == nil || *end.Status == "" {
			return inputerr.New(name, lineNo, "end record: expected a \"status\" string such as \"complete\" or \"interrupted\"")
		}
		run.End = &End{Type: TypeEnd, Status: *end.Status, Reason: end.Reason, FinishedAt: end.FinishedAt}
		run.EndLine = lineNo
	default:
		return inputerr.New(name, lineNo, "unknown record type %q: expected run, request or end", *probe.Type)
	}
	return nil
}

// addHeader parses the run header, or checks a repeated one.
func (run *Run) addHeader(line, trimmed []byte, lineNo int) *inputerr.Error {
	name := run.Name
	var aux struct {
		RunID   *string `json:"run_id"`
		Planned *struct {
			Phases    *[]string `json:"phases"`
			SampleIDs *[]string `json:"sample_ids"`
		} `json:"planned"`
	}
	if err := json.Unmarshal(trimmed, &aux); err != nil {
		return jsonError(name, lineNo, line, trimmed, "a run header", err)
	}
	var h Header
	if err := json.Unmarshal(trimmed, &h); err != nil {
		return jsonError(name, lineNo, line, trimmed, "a run header", err)
	}
	if aux.RunID == nil || strings.TrimSpace(*aux.RunID) == "" {
		return inputerr.New(name, lineNo, "run header: expected a non-empty \"run_id\" string")
	}
	if aux.Planned == nil || aux.Planned.Phases == nil || aux.Planned.SampleIDs == nil {
		return inputerr.New(name, lineNo, "run header: expected \"planned\": {\"phases\": […], \"sample_ids\": […]}")
	}
	for i, p := range h.Planned.Phases {
		if p == "" {
			return inputerr.New(name, lineNo, "run header: planned.phases[%d] is empty: expected a phase name such as \"c1\"", i)
		}
	}
	for i, s := range h.Planned.SampleIDs {
		if s == "" {
			return inputerr.New(name, lineNo, "run header: planned.sample_ids[%d] is empty: expected a sample id", i)
		}
	}
	if run.HeaderLine != 0 {
		first := run.Header
		if h.RunID != first.RunID || !slices.Equal(h.Planned.Phases, first.Planned.Phases) ||
			!slices.Equal(h.Planned.SampleIDs, first.Planned.SampleIDs) {
			return inputerr.New(name, lineNo, "a second run header with another run_id or plan: expected one run per file (the header of line %d)", run.HeaderLine)
		}
		return nil
	}
	run.Header = h
	run.HeaderLine = lineNo
	return nil
}

// checkRequest validates the members every request needs.
func checkRequest(name string, lineNo int, req *Request) *inputerr.Error {
	if req.Phase == "" {
		return inputerr.New(name, lineNo, "request: expected a non-empty \"phase\" string (such as \"warmup\", \"c1\" or \"c4\")")
	}
	if req.SampleID == "" {
		return inputerr.New(name, lineNo, "request: expected a non-empty \"sample_id\" string")
	}
	if !req.Status.Valid() {
		return inputerr.New(name, lineNo, "request: \"status\" is %q: expected one of ok, timeout, http_error, transport_error, cancelled", string(req.Status))
	}
	return nil
}

// jsonError turns an encoding/json error into an input error with the
// line, and the column where the decoder knows it.
func jsonError(name string, lineNo int, line, trimmed []byte, what string, err error) *inputerr.Error {
	lead := len(line) - len(bytes.TrimLeft(line, " \t\r\n"))
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		col := column(line, lead+int(syn.Offset))
		e := inputerr.New(name, lineNo, "invalid JSON: %s: expected %s on one line", syn.Error(), what)
		e.Column = col
		return e
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return inputerr.New(name, lineNo, "expected %s (a JSON object), got %s", what, typ.Value)
		}
		return inputerr.New(name, lineNo, "%s: member %q is %s: expected %s", what, field, typ.Value, jsonKind(typ.Type))
	default:
		return inputerr.New(name, lineNo, "expected %s: %v", what, err)
	}
}

// column returns the 1-based column (in characters) of byte offset off in
// line; the offset of a syntax error points just past the bad byte.
func column(line []byte, off int) int {
	if off > len(line) {
		off = len(line)
	}
	if off < 1 {
		return 1
	}
	return utf8.RuneCount(line[:off-1]) + 1
}

// jsonKind names the JSON kind a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}
