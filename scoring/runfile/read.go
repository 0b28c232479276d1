package runfile

import (
	"encoding/json"
	"io"
	"slices"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"
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
	lines := ingest.NewReaderLines(name, r)
	lines.SkipBadLines = opts.SkipBadLines
	for lines.Next() {
		perr := lines.BadLine()
		if perr == nil {
			perr = run.addLine(lines.Line())
		}
		if perr != nil {
			if l := lines.Line(); opts.AllowCutLastLine && l.Unended && run.HeaderLine != 0 && !json.Valid(l.Text) {
				// The line has no newline, so it is the last.
				run.Cut = inputerr.New(name, l.No, "the last line was cut short (%d bytes, no newline, not JSON: the run was killed while writing it); left out", len(l.Text))
				break
			}
			if run.HeaderLine == 0 {
				return nil, perr
			}
			if err := lines.Skip(perr); err != nil {
				return nil, err
			}
		}
	}
	if err := lines.Err(); err != nil {
		return nil, err
	}
	run.Skipped = lines.Skipped
	if run.HeaderLine == 0 {
		return nil, inputerr.New(name, 0, "empty run file: expected a first line {\"type\": \"run\", …}")
	}
	return run, nil
}

// Item is one line of a run file parsed by ParseLine: a run header
// (Header set on the first one; a repeat of it leaves Header nil), a
// request (Record) or an end record (End), by Type.
type Item struct {
	Type   string
	Header *Header
	Record Record
	End    *End
}

// addLine parses one line into run.
func (run *Run) addLine(l ingest.Line) *inputerr.Error {
	it, e := run.ParseLine(l)
	if e != nil {
		return e
	}
	run.Apply(it, l.No)
	return nil
}

// Apply adds a line ParseLine parsed (at line lineNo) to run.
func (run *Run) Apply(it Item, lineNo int) {
	switch it.Type {
	case TypeRun:
		if it.Header != nil {
			run.Header = *it.Header
			run.HeaderLine = lineNo
		}
	case TypeRequest:
		run.Requests = append(run.Requests, it.Record)
	case TypeEnd:
		run.End = it.End
		run.EndLine = lineNo
	}
}

// ParseLine parses one line of the run file as Read does, after the lines
// Applied to run so far: the first line must be the run header, a later
// header must repeat it. It does not change run, so that the lines after
// the header can be parsed at once by several goroutines (a streamed
// scoring).
func (run *Run) ParseLine(l ingest.Line) (it Item, e *inputerr.Error) {
	defer func() { e = onLine(e, l) }()
	name, lineNo, trimmed := run.Name, l.No, l.Text
	if run.HeaderLine != 0 {
		// Most lines are requests: try them in one decoding.
		var req Request
		if json.Unmarshal(trimmed, &req) == nil && req.Type == TypeRequest {
			if e := checkRequest(name, lineNo, &req); e != nil {
				return Item{}, e
			}
			return Item{Type: TypeRequest, Record: Record{Line: lineNo, Request: req}}, nil
		}
	}
	var probe struct {
		Type *string `json:"type"`
	}
	if e := ingest.LineNotObject(name, l, "a JSON object (a run, request or end record)"); e != nil {
		return Item{}, e
	}
	if err := json.Unmarshal(trimmed, &probe); err != nil {
		return Item{}, ingest.LineJSONError(name, l, err, "a JSON object on one line")
	}
	if probe.Type == nil {
		return Item{}, inputerr.New(name, lineNo, "expected a \"type\" member (run, request or end)")
	}
	if run.HeaderLine == 0 && *probe.Type != TypeRun {
		return Item{}, inputerr.New(name, lineNo, "expected the run header {\"type\": \"run\", …} as the first line, got type %q", *probe.Type)
	}
	switch *probe.Type {
	case TypeRun:
		h, e := run.parseHeader(l)
		return Item{Type: TypeRun, Header: h}, e
	case TypeRequest:
		var req Request
		if err := json.Unmarshal(trimmed, &req); err != nil {
			return Item{}, ingest.LineJSONError(name, l, err, "a request record on one line")
		}
		if e := checkRequest(name, lineNo, &req); e != nil {
			return Item{}, e
		}
		return Item{Type: TypeRequest, Record: Record{Line: lineNo, Request: req}}, nil
	case TypeEnd:
		var end struct {
			Type       string  `json:"type"`
			Status     *string `json:"status"`
			Reason     string  `json:"reason"`
			FinishedAt string  `json:"finished_at"`
		}
		if err := json.Unmarshal(trimmed, &end); err != nil {
			return Item{}, ingest.LineJSONError(name, l, err, "an end record on one line")
		}
		if end.Status == nil || *end.Status == "" {
			return Item{}, inputerr.New(name, lineNo, "end record: expected a \"status\" string such as \"complete\" or \"interrupted\"")
		}
		return Item{Type: TypeEnd, End: &End{Type: TypeEnd, Status: *end.Status, Reason: end.Reason, FinishedAt: end.FinishedAt}}, nil
	default:
		return Item{}, inputerr.New(name, lineNo, "unknown record type %q: expected run, request or end", *probe.Type)
	}
}

// parseHeader parses the run header (the first: returned), or checks a
// repeated one (nil returned).
func (run *Run) parseHeader(l ingest.Line) (*Header, *inputerr.Error) {
	name, lineNo, trimmed := run.Name, l.No, l.Text
	var aux struct {
		RunID   *string `json:"run_id"`
		Planned *struct {
			Phases    *[]string `json:"phases"`
			SampleIDs *[]string `json:"sample_ids"`
		} `json:"planned"`
	}
	if err := json.Unmarshal(trimmed, &aux); err != nil {
		return nil, ingest.LineJSONError(name, l, err, "a run header on one line")
	}
	var h Header
	if err := json.Unmarshal(trimmed, &h); err != nil {
		return nil, ingest.LineJSONError(name, l, err, "a run header on one line")
	}
	if aux.RunID == nil || strings.TrimSpace(*aux.RunID) == "" {
		return nil, inputerr.New(name, lineNo, "run header: expected a non-empty \"run_id\" string")
	}
	if aux.Planned == nil || aux.Planned.Phases == nil || aux.Planned.SampleIDs == nil {
		return nil, inputerr.New(name, lineNo, "run header: expected \"planned\": {\"phases\": […], \"sample_ids\": […]}")
	}
	for i, p := range h.Planned.Phases {
		if p == "" {
			return nil, inputerr.New(name, lineNo, "run header: planned.phases[%d] is empty: expected a phase name such as \"c1\"", i)
		}
	}
	for i, s := range h.Planned.SampleIDs {
		if s == "" {
			return nil, inputerr.New(name, lineNo, "run header: planned.sample_ids[%d] is empty: expected a sample id", i)
		}
	}
	if run.HeaderLine != 0 {
		first := run.Header
		if h.RunID != first.RunID || !slices.Equal(h.Planned.Phases, first.Planned.Phases) ||
			!slices.Equal(h.Planned.SampleIDs, first.Planned.SampleIDs) {
			return nil, inputerr.New(name, lineNo, "a second run header with another run_id or plan: expected one run per file (the header of line %d)", run.HeaderLine)
		}
		return nil, nil
	}
	return &h, nil
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

// onLine gives an error about line l that has no source line the line,
// with the caret under the record's start, so that every error of a run
// file shows where it is.
func onLine(e *inputerr.Error, l ingest.Line) *inputerr.Error {
	if e == nil || e.Source != "" || e.Line != l.No {
		return e
	}
	c := *e
	c.Column, c.Source = l.Indent+1, l.Source()
	return &c
}
