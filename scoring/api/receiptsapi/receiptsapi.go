// Package receiptsapi is the receipts entry point of scoring/api: the
// request every host decodes and the function that answers it with the
// exact bytes of "docscore score receipts". It is a package of its own so
// that hosts without receipts do not link the receipt scorer.
package receiptsapi

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
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
	api.IntervalOptions

	// References are references a host has already read (the command
	// line's parquet files and folders), scored after those of Refs.
	References receiptsread.References `json:"-"`
	// ReferenceInputs describe the files References were read from, for
	// the report's provenance (SPEC F.8): role "refs", listed before the
	// run as if they had been given in Refs.
	ReferenceInputs []provenance.Input `json:"-"`

	// incomplete and skipped record, once the request is scored, whether
	// the run was incomplete and whether a line was skipped, for the
	// provenance's options (ProvenanceOptions).
	incomplete, skipped bool
}

// ProvenanceOptions are the scoring's options that change numbers, as
// they take effect (SPEC F.8): incomplete runs allowed, the reference
// order, bad lines skipped, the interval level. allow_incomplete and
// skip_bad_lines are recorded as given only when the run was incomplete
// or a line was skipped (they changed no number otherwise), so that the
// page, which skips bad lines unless told not to, and the command line
// write the same bytes for a complete, valid run.
func (req *ReceiptsRequest) ProvenanceOptions() []provenance.Option {
	_, level, _ := req.IntervalOptions.Settings()
	return []provenance.Option{api.Option("allow_incomplete", req.AllowIncomplete && req.incomplete), api.Option("reading_order", req.ReadingOrder),
		api.Option("skip_bad_lines", req.SkipBadLines && req.skipped), api.Option("ci_level", level)}
}

// Draws are the intervals' seed and bootstrap replicates, defaults
// included (SPEC F.8); receipts draw no permutations.
func (req *ReceiptsRequest) Draws() (uint64, int, int) {
	reps, _, seed := req.IntervalOptions.Settings()
	return seed, reps, 0
}

// DescribeInputs adds ReferenceInputs after the inputs of Refs, before
// the run's (api.Described).
func (req *ReceiptsRequest) DescribeInputs(inputs []provenance.Input) []provenance.Input {
	if len(req.ReferenceInputs) == 0 {
		return inputs
	}
	at := 0
	for at < len(inputs) && inputs[at].Role == "refs" {
		at++
	}
	return append(inputs[:at:at], append(append([]provenance.Input(nil), req.ReferenceInputs...), inputs[at:]...)...)
}

// provenance is the report's provenance, the run as run describes it
// when it was streamed (nil: its text).
func (req *ReceiptsRequest) provenance(run *provenance.Input) (*provenance.Provenance, error) {
	if run != nil {
		return ScoreReceiptsOperation().StreamedProvenance(req, &req.Run, *run)
	}
	return ScoreReceiptsOperation().ProvenanceOf(req)
}

// InputFiles lists the reference files, then the run.
func (req *ReceiptsRequest) InputFiles() []*api.File {
	files := make([]*api.File, 0, len(req.Refs)+1)
	for i := range req.Refs {
		files = append(files, &req.Refs[i])
	}
	return append(files, &req.Run)
}

// ReportFormat is the format the request asks for.
func (req *ReceiptsRequest) ReportFormat() string { return req.Format }

// Validate checks the request's interval options
// (api.IntervalOptions.Validate).
func (req *ReceiptsRequest) Validate() error { return req.IntervalOptions.Validate() }

var scoreReceiptsOp = api.Lazy{Define: func() api.Operation {
	return api.Define(api.Operation{
		Name:    "scoreReceipts",
		Route:   "/v1/score/receipts",
		Doc:     `exactly "docscore score receipts --format F"`,
		Formats: []string{"json", "csv", "md"},
		Family:  "receipts",
		Command: "score receipts",
		Inputs:  receiptsInputs,
		Params: append([]api.Param{
			api.FormatParam,
			{Name: "allow_incomplete", Kind: api.Bool, Help: "score an incomplete run and label the report incomplete"},
			{Name: "reading_order", Kind: api.Bool, Help: "reference text in reading order instead of annotation order (a different protocol)"},
			{Name: "skip_bad_lines", Kind: api.Bool, Help: "report and skip malformed run lines instead of failing"},
		}, api.IntervalParams("phase")...),
		Provenance: true,
	}, scoreReceipts)
}}

// Operations lists the receipts family's operations.
func Operations() []api.Operation {
	return []api.Operation{ScoreReceiptsOperation(), ReceiptPageOperation()}
}

// ReceiptPageRequest asks for the drill-down of one page of a receipts
// run: the references and the run as ReceiptsRequest gives them, and the
// page's phase and sample.
type ReceiptPageRequest struct {
	Refs         []api.File `json:"refs"`
	Run          api.File   `json:"run"`
	ReadingOrder bool       `json:"reading_order,omitempty"`
	SkipBadLines bool       `json:"skip_bad_lines,omitempty"`
	Phase        string     `json:"phase"`
	SampleID     string     `json:"sample_id"`
}

// InputFiles lists the reference files, then the run.
func (req *ReceiptPageRequest) InputFiles() []*api.File {
	files := make([]*api.File, 0, len(req.Refs)+1)
	for i := range req.Refs {
		files = append(files, &req.Refs[i])
	}
	return append(files, &req.Run)
}

var receiptPageOp = api.Lazy{Define: func() api.Operation {
	return api.Define(api.Operation{
		Name:   "receiptPage",
		Route:  "/v1/receipts/page",
		Family: "receipts",
		Doc:    "the drill-down of one receipt page: its cleaned prediction against its reference, LCS tokens and missing numbers marked",
		Inputs: receiptsInputs,
		Params: []api.Param{
			{Name: "reading_order", Kind: api.Bool, Help: "reference text in reading order instead of annotation order (a different protocol)"},
			{Name: "skip_bad_lines", Kind: api.Bool, Help: "report and skip malformed run lines instead of failing"},
			{Name: "phase", Kind: api.String, Required: true, Help: "the page's phase"},
			{Name: "sample_id", Kind: api.String, Required: true, Help: "the page's sample"},
		},
	}, receiptPage)
}}

// ScoreReceiptsOperation scores a ReceiptsRequest: the report, exactly the
// bytes of "docscore score receipts --format F".
func ScoreReceiptsOperation() api.Operation { return scoreReceiptsOp.Get() }

// ReceiptPageOperation answers the drill-down of one page
// (receipts.PageDetail): its scores as the report gives them, its
// cleaned prediction against its reference with the tokens of a longest
// common subsequence and the missing numbers marked.
func ReceiptPageOperation() api.Operation { return receiptPageOp.Get() }

// receiptsInputs are the files of a receipts scoring.
var receiptsInputs = []api.Input{
	{Name: "refs", Many: true, Required: true, Help: "one or more CORD annotation (.json) or reference (.jsonl) files"},
	{Name: "run", Required: true, Help: "the pilot run file (JSONL)"},
}

func receiptPage(ctx api.Cancel, req *ReceiptPageRequest) (*api.Result, error) {
	opts := receiptsread.ParseOptions{}
	if req.ReadingOrder {
		opts.Order = receiptsread.ReadingOrder
	}
	refs, err := parseRefs(req.Refs, opts)
	if err != nil {
		return nil, err
	}
	run, err := runfile.Read(strings.NewReader(req.Run.Text), req.Run.Name, runfile.ReadOptions{SkipBadLines: req.SkipBadLines})
	if err != nil {
		return nil, err
	}
	d, err := receipts.DetailLimited(ctx, limitsOf(ctx).MaxPageTokens, refs, run, req.Phase, req.SampleID)
	if err != nil {
		return nil, err
	}
	return &api.Result{Value: d}, nil
}

// Limits bound one receipts request's work; a zero field is no bound.
type Limits struct {
	// MaxLCSCells is a scoring's receipts.Options.MaxLCSCells: the token
	// pairs its ROUGE-L may compare.
	MaxLCSCells int64
	// MaxPageTokens bounds the tokens of a page's drill-down, prediction
	// and reference together (receipts.DetailLimited).
	MaxPageTokens int
}

// Bounded is a Cancel that bounds the work of a receipts request: the
// HTTP API's requests are. Over a bound the request fails with a
// *receipts.WorkLimitError.
type Bounded interface {
	api.Cancel
	ReceiptsLimits() Limits
}

// limitsOf are the limits ctx sets, none unless it is Bounded.
func limitsOf(ctx api.Cancel) Limits {
	if b, ok := ctx.(Bounded); ok {
		return b.ReceiptsLimits()
	}
	return Limits{}
}

// parseRefs parses reference files, in order.
func parseRefs(files []api.File, opts receiptsread.ParseOptions) (receiptsread.References, error) {
	var refs receiptsread.References
	for _, f := range files {
		got, err := receiptsread.ParseReferences(f.Name, []byte(f.Text), opts)
		if err != nil {
			return nil, err
		}
		refs = append(refs, got...)
	}
	return refs, nil
}

// ScoreReceipts scores a request and returns the report in its format:
// exactly the bytes "docscore score receipts --format F" writes. A run
// that is incomplete without AllowIncomplete is an *IncompleteError naming
// the missing and duplicated pairs.
func ScoreReceipts(req ReceiptsRequest) ([]byte, error) {
	res, err := ScoreReceiptsOperation().Run(api.NoCancel, &req)
	if err != nil {
		return nil, err
	}
	return res.Bytes, nil
}

func scoreReceipts(ctx api.Cancel, req *ReceiptsRequest) (*api.Result, error) {
	res, _, err := scoreReceiptsReport(ctx, req)
	return res, err
}

// ScoreReceiptsReport is ScoreReceiptsOperation for native hosts that also
// want the typed report (the command line checks --fail-under floors and
// warns about skipped lines): the same checks, the same bytes.
func ScoreReceiptsReport(ctx api.Cancel, req *ReceiptsRequest) (*api.Result, *Report, error) {
	if err := ScoreReceiptsOperation().Check(ctx, req); err != nil {
		return nil, nil, err
	}
	res, rep, err := scoreReceiptsReport(ctx, req)
	if err != nil || res.Format != "json" {
		return res, rep, err
	}
	p, err := req.provenance(nil)
	if err == nil {
		res.Bytes, err = provenance.Append(res.Bytes, p)
	}
	return res, rep, err
}

// references are the request's references: its files parsed, then those
// the host read.
func (req *ReceiptsRequest) references() (receiptsread.References, receiptsread.ParseOptions, error) {
	opts := receiptsread.ParseOptions{}
	if req.ReadingOrder {
		opts.Order = receiptsread.ReadingOrder
	}
	if len(req.Refs) == 0 && len(req.References) == 0 {
		return nil, opts, inputerr.New("", 0, "no references given (expected CORD .json files or a .jsonl of {\"sample_id\", \"reference\"})")
	}
	refs, err := parseRefs(req.Refs, opts)
	if err != nil {
		return nil, opts, err
	}
	return append(refs, req.References...), opts, nil
}

// options are the scoring's options the request asks for, with the work
// bound ctx sets (Bounded).
func (req *ReceiptsRequest) options(ctx api.Cancel, order receiptsread.Order) receipts.Options {
	ropts := receipts.Options{AllowIncomplete: req.AllowIncomplete, Order: order, MaxLCSCells: limitsOf(ctx).MaxLCSCells}
	ropts.Bootstrap, ropts.CILevel, ropts.Seed = req.IntervalOptions.Settings()
	return ropts
}

// StreamReceipts is ScoreReceiptsOperation for a native host that reads
// the run file as a stream (req.Run.Text is not read; req.Run.Name names
// it): the same checks, then receipts.Stream, which writes the report to
// out in req.Format, the operation's bytes, in memory that does not grow
// with the run's records. Errors are the operation's, an incomplete run
// an *IncompleteError. A JSON report ends in its provenance (SPEC F.8),
// the run described by the bytes read from run.
func StreamReceipts(ctx api.Cancel, req *ReceiptsRequest, run io.Reader, out io.Writer, o receipts.StreamOptions) (*Report, error) {
	if err := ScoreReceiptsOperation().Check(ctx, req); err != nil {
		return nil, err
	}
	refs, opts, err := req.references()
	if err != nil {
		return nil, err
	}
	o.Format, o.SkipBadLines = req.Format, req.SkipBadLines
	// A JSON report carries its provenance (SPEC F.8): the run is hashed
	// as it is read, and the report's close held back for it.
	stamp := o.Format == "" || o.Format == "json"
	h := provenance.NewHash("run", req.Run.Name)
	tw := provenance.NewTailWriter(out)
	if stamp {
		run, out = h.Reader(run), tw
	}
	rep, skipped, err := receipts.Stream(ctx, refs, req.Run.Name, run, out, req.options(ctx, opts.Order), o)
	if err != nil {
		if inc, ok := err.(*receipts.IncompleteError); ok {
			return nil, newIncomplete(inc, skipped)
		}
		return nil, err
	}
	req.incomplete, req.skipped = rep.Incomplete, len(skipped) > 0
	if stamp {
		// The rest of the run, if the scorer stopped before its end.
		if _, err := io.Copy(io.Discard, run); err != nil {
			return nil, err
		}
		in := h.Input()
		p, err := req.provenance(&in)
		if err != nil {
			return nil, err
		}
		if err := tw.Finish(p); err != nil {
			return nil, err
		}
	}
	return &Report{Report: rep, Skipped: skipped}, nil
}

func scoreReceiptsReport(ctx api.Cancel, req *ReceiptsRequest) (*api.Result, *Report, error) {
	refs, opts, err := req.references()
	if err != nil {
		return nil, nil, err
	}
	run, err := runfile.Read(strings.NewReader(req.Run.Text), req.Run.Name, runfile.ReadOptions{SkipBadLines: req.SkipBadLines})
	if err != nil {
		return nil, nil, err
	}
	// Receipts scoring takes a context; a host that gave none gets one
	// that never ends.
	cctx, ok := ctx.(context.Context)
	if !ok {
		cctx = context.Background()
	}
	rep, err := receipts.ScoreContext(cctx, refs, run, req.options(ctx, opts.Order))
	if err != nil {
		if inc, ok := err.(*receipts.IncompleteError); ok {
			return nil, nil, newIncomplete(inc, run.Skipped)
		}
		return nil, nil, err
	}
	format := req.Format
	if format == "" {
		format = "json"
	}
	var buf bytes.Buffer
	switch format {
	case "json":
		err = rep.WriteJSON(&buf)
	case "csv":
		err = rep.WriteCSV(&buf)
	case "md":
		err = rep.WriteMarkdown(&buf)
	}
	if err != nil {
		return nil, nil, err
	}
	req.incomplete, req.skipped = rep.Incomplete, len(run.Skipped) > 0
	return &api.Result{Format: format, Bytes: buf.Bytes()}, &Report{Report: rep, Skipped: run.Skipped}, nil
}

// Report is the typed report behind a receipts result's bytes, with the
// run lines that were skipped (SkipBadLines), for hosts that tell the
// user about them.
type Report struct {
	*receiptsreport.Report
	Skipped []*inputerr.Error
}

// IncompleteError is ScoreReceipts' refusal of an incomplete run: an input
// error on the run file (Input, for every host's error reporting) that
// keeps the scorer's account of the missing and duplicated pairs (Cause).
type IncompleteError struct {
	Input *inputerr.Error
	Cause *receipts.IncompleteError
	// Skipped lists the run lines SkipBadLines left out before the run
	// was found incomplete.
	Skipped []*inputerr.Error
}

func newIncomplete(inc *receipts.IncompleteError, skipped []*inputerr.Error) *IncompleteError {
	return &IncompleteError{Input: &inputerr.Error{File: inc.File, Msg: strings.TrimPrefix(inc.Error(), inc.File+": ")}, Cause: inc, Skipped: skipped}
}

// Allowing returns the refusal with the host's way to score the run
// anyway named in its message (receipts.IncompleteError.Allow): each host
// names its own switch, the HTTP API its request field.
func (e *IncompleteError) Allowing(how string) *IncompleteError {
	c := *e.Cause
	c.Allow = how
	return newIncomplete(&c, e.Skipped)
}

// Error is the input error's message: the run file, then every missing and
// duplicated pair.
func (e *IncompleteError) Error() string { return e.Input.Error() }

// Unwrap exposes both the input error and the scorer's refusal to
// errors.As.
func (e *IncompleteError) Unwrap() []error { return []error{e.Input, e.Cause} }

// ErrorCode is "incomplete" in every host's error body: a page offers to
// score the run as incomplete.
func (e *IncompleteError) ErrorCode() string { return "incomplete" }
