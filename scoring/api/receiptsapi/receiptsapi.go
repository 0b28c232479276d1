// Package receiptsapi is the receipts entry point of scoring/api: the
// request every host decodes and the function that answers it with the
// exact bytes of "docscore score receipts". It is a package of its own so
// that hosts without receipts do not link the receipt scorer.
package receiptsapi

import (
	"bytes"
	"context"
	"strings"

	"github.com/docscore/docscore/scoring/api"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/pilotrun"
	"github.com/docscore/docscore/scoring/receipts"
)

// ReceiptsRequest asks for a receipt OCR scoring (SPEC B). Refs are CORD
// annotation files (.json) or JSONL files of {"sample_id", "reference"}
// (.jsonl), chosen by name; parquet files are read only by the command
// line, which has the file system.
type ReceiptsRequest struct {
	Refs            []api.File `json:"refs"`
	Run             api.File   `json:"run"`
	AllowIncomplete bool       `json:"allow_incomplete,omitempty"`
	ReadingOrder    bool       `json:"reading_order,omitempty"`
	SkipBadLines    bool       `json:"skip_bad_lines,omitempty"`
	Format          string     `json:"format,omitempty"` // json (default), csv or md
}

// ScoreReceipts scores a request and returns the report in its format:
// exactly the bytes "docscore score receipts --format F" writes. A run
// that is incomplete without AllowIncomplete is an input error naming the
// missing and duplicated pairs.
func ScoreReceipts(req ReceiptsRequest) ([]byte, error) {
	return ScoreReceiptsContext(context.Background(), req)
}

// ScoreReceiptsContext is ScoreReceipts that stops when ctx is done, as
// receipts.ScoreContext does.
func ScoreReceiptsContext(ctx context.Context, req ReceiptsRequest) ([]byte, error) {
	opts := receipts.ParseOptions{}
	if req.ReadingOrder {
		opts.Order = receipts.ReadingOrder
	}
	if len(req.Refs) == 0 {
		return nil, inputerr.New("", 0, "no references given (expected CORD .json files or a .jsonl of {\"sample_id\", \"reference\"})")
	}
	var refs receipts.References
	for _, f := range req.Refs {
		got, err := receipts.ParseReferences(f.Name, []byte(f.Text), opts)
		if err != nil {
			return nil, err
		}
		refs = append(refs, got...)
	}
	run, err := pilotrun.Read(bytes.NewReader([]byte(req.Run.Text)), req.Run.Name, pilotrun.ReadOptions{SkipBadLines: req.SkipBadLines})
	if err != nil {
		return nil, err
	}
	rep, err := receipts.ScoreContext(ctx, refs, run, receipts.Options{AllowIncomplete: req.AllowIncomplete, Order: opts.Order})
	if err != nil {
		if inc, ok := err.(*receipts.IncompleteError); ok {
			return nil, newIncomplete(inc)
		}
		return nil, err
	}
	var buf bytes.Buffer
	switch req.Format {
	case "", "json":
		err = rep.WriteJSON(&buf)
	case "csv":
		err = rep.WriteCSV(&buf)
	case "md":
		err = rep.WriteMarkdown(&buf)
	default:
		return nil, inputerr.New("", 0, "format %q: expected json, csv or md", req.Format)
	}
	return buf.Bytes(), err
}

// IncompleteError is ScoreReceipts' refusal of an incomplete run: an input
// error on the run file (Input, for every host's error reporting) that
// keeps the scorer's account of the missing and duplicated pairs (Cause).
type IncompleteError struct {
	Input *inputerr.Error
	Cause *receipts.IncompleteError
}

func newIncomplete(inc *receipts.IncompleteError) *IncompleteError {
	return &IncompleteError{Input: &inputerr.Error{File: inc.File, Msg: strings.TrimPrefix(inc.Error(), inc.File+": ")}, Cause: inc}
}

// Allowing returns the refusal with the host's way to score the run
// anyway named in its message (receipts.IncompleteError.Allow): each host
// names its own switch, the HTTP API its request field.
func (e *IncompleteError) Allowing(how string) *IncompleteError {
	c := *e.Cause
	c.Allow = how
	return newIncomplete(&c)
}

// Error is the input error's message: the run file, then every missing and
// duplicated pair.
func (e *IncompleteError) Error() string { return e.Input.Error() }

// Unwrap exposes both the input error and the scorer's refusal to
// errors.As.
func (e *IncompleteError) Unwrap() []error { return []error{e.Input, e.Cause} }
