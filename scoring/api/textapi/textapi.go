// Package textapi is the page-text entry point of scoring/api (SPEC G):
// the request every host decodes and the function that answers it with
// the exact bytes of "docscore score text". It is a package of its own so
// that hosts without the text family do not link it.
package textapi

import (
	"bytes"
	"io"
	"strings"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/pagetext"
	"github.com/docscore/docscore/scoring/stats"
)

// TextRequest asks for a page-text scoring (SPEC G): ground-truth files
// and either OCR files (paired by page id: the file name up to its first
// dot; one of each is one page whatever their names) or a runs file of
// {"model", "phase", "run", "page", "text"} lines. Files are plain text,
// PAGE-XML, ALTO or hOCR, detected from their content.
type TextRequest struct {
	GT   []api.File `json:"gt"`
	OCR  []api.File `json:"ocr,omitempty"`
	Runs *api.File  `json:"runs,omitempty"`
	// Model and Phase name the cell OCR files are scored into (default
	// "ocr" and "default"); a runs file names its own.
	Model string `json:"model,omitempty"`
	Phase string `json:"phase,omitempty"`
	// Level is "region" (default) or "line": the PAGE level text is read
	// at. Normalize is "sbb" (default, dinglehopper's normalize_sbb) or
	// "nfc".
	Level     string `json:"level,omitempty"`
	Normalize string `json:"normalize,omitempty"`
	Format    string `json:"format,omitempty"` // json (default), csv or md
	api.IntervalOptions
}

// InputFiles lists the ground-truth files, the OCR files, then the runs.
func (req *TextRequest) InputFiles() []*api.File {
	files := make([]*api.File, 0, len(req.GT)+len(req.OCR)+1)
	for i := range req.GT {
		files = append(files, &req.GT[i])
	}
	for i := range req.OCR {
		files = append(files, &req.OCR[i])
	}
	if req.Runs != nil {
		files = append(files, req.Runs)
	}
	return files
}

// ReportFormat is the format the request asks for.
func (req *TextRequest) ReportFormat() string { return req.Format }

// Validate checks the level, the normalization and the interval options.
func (req *TextRequest) Validate() error {
	if _, ok := pagetext.ParseLevel(req.Level); !ok {
		return api.Paramf("level", "%q: expected region or line", req.Level)
	}
	if _, ok := pagetext.ParseNormalization(req.Normalize); !ok {
		return api.Paramf("normalize", "%q: expected sbb or nfc", req.Normalize)
	}
	return req.IntervalOptions.Validate()
}

var scoreTextOp = api.Lazy{Define: func() api.Operation {
	return api.Define(api.Operation{
		Name:    "scoreText",
		Route:   "/v1/score/text",
		Doc:     `exactly "docscore score text --format F": CER, WER and bag-of-words scores of OCR text against ground truth`,
		Formats: []string{"json", "csv", "md"},
		Family:  "text",
		Command: "score text",
		Inputs: []api.Input{
			{Name: "gt", Many: true, Required: true, Help: "one or more ground-truth pages (plain text, PAGE-XML, ALTO or hOCR)"},
			{Name: "ocr", Many: true, Help: "OCR pages, paired with gt by id (the name up to the first dot)"},
			{Name: "runs", Help: "or a runs JSONL of {model, phase, run, page, text}"},
		},
		Params: append([]api.Param{
			api.FormatParam,
			{Name: "level", Kind: api.String, Default: "region", Choices: []string{"region", "line"}, Help: "the PAGE level text is read at: region or line"},
			{Name: "normalize", Kind: api.String, Default: "sbb", Choices: []string{"sbb", "nfc"}, Help: "normalization: sbb (dinglehopper's, the default) or nfc"},
			{Name: "model", Kind: api.String, Default: "ocr", Help: "the model name of --ocr's cell"},
			{Name: "phase", Kind: api.String, Default: "default", Help: "the phase name of --ocr's cell"},
		}, api.IntervalParams("cell")...),
		Provenance: true,
	}, scoreText)
}}

// Draws are the intervals' seed and replicates as they take effect, for
// the report's provenance (SPEC F.8).
func (req *TextRequest) Draws() (seed uint64, replicates, permutations int) {
	replicates, _, seed = req.IntervalOptions.Settings()
	return seed, replicates, 0
}

// Operations lists the text family's operations.
func Operations() []api.Operation {
	return []api.Operation{ScoreTextOperation(), TextPageOperation()}
}

// WorkLimits bound one request's alignments when the caller bounds its
// work (the HTTP API and the Worker: api.Bounded): the bit-parallel band
// computes at most 2^34 cells (2^28 words, about a CPU-second natively)
// and keeps at most 2^26 cells of checkpoints (20 MB), so that two
// 200,000-character pages align up to about 40,000 edits (20 % errors)
// and unrelated ones are refused.
var WorkLimits = pagetext.AlignLimits{BandCells: 1 << 26, WorkCells: 1 << 34}

// limits are the alignments' limits for ctx: WorkLimits when it bounds
// the work, none otherwise; ctx is asked inside each alignment, so that a
// long page stops when the request does.
func limits(ctx api.Cancel) pagetext.AlignLimits {
	lim := pagetext.AlignLimits{}
	if _, ok := ctx.(api.Bounded); ok {
		lim = WorkLimits
	}
	lim.Cancel = ctx
	return lim
}

// options are the report options the request asks for.
func (req *TextRequest) options(ctx api.Cancel) (pagetext.ReportOptions, error) {
	level, _ := pagetext.ParseLevel(req.Level)
	norm, _ := pagetext.ParseNormalization(req.Normalize)
	o := pagetext.ReportOptions{Extract: pagetext.ExtractOptions{Level: level, Normalization: norm}, Limits: limits(ctx)}
	b, l, s := req.IntervalOptions.Settings()
	if b == 0 {
		o.NoIntervals = true
		return o, nil
	}
	iv, err := stats.IntervalOptions(b, l, s)
	if err != nil {
		return o, err
	}
	o.Intervals = iv
	return o, nil
}

func inputs(files []api.File) ([]pagetext.Input, error) {
	out := make([]pagetext.Input, len(files))
	for i, f := range files {
		data, err := f.Bytes()
		if err != nil {
			return nil, err
		}
		out[i] = pagetext.Input{Name: f.Name, Data: data}
	}
	return out, nil
}

// Report scores the request and returns the typed report; runs, when not
// nil, is read instead of req.Runs's text (a native host's stream).
func Report(ctx api.Cancel, req *TextRequest, runs io.Reader) (*pagetext.Report, error) {
	if err := ScoreTextOperation().Check(ctx, req); err != nil {
		return nil, err
	}
	return report(ctx, req, runs)
}

// groundTruth checks that the request gives ground truth and returns it
// with the report options.
func (req *TextRequest) groundTruth(ctx api.Cancel) ([]pagetext.Input, pagetext.ReportOptions, error) {
	if len(req.GT) == 0 {
		return nil, pagetext.ReportOptions{}, inputerr.New("", 0, "no ground truth given: expected one or more pages (plain text, PAGE-XML, ALTO or hOCR)")
	}
	opts, err := req.options(ctx)
	if err != nil {
		return nil, opts, err
	}
	gt, err := inputs(req.GT)
	return gt, opts, err
}

func report(ctx api.Cancel, req *TextRequest, runs io.Reader) (*pagetext.Report, error) {
	gt, opts, err := req.groundTruth(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case req.Runs != nil && len(req.OCR) > 0:
		return nil, api.Paramf("runs", "and ocr given: expected OCR files or a runs file, not both")
	case req.Runs != nil:
		if runs == nil {
			data, err := req.Runs.Bytes()
			if err != nil {
				return nil, err
			}
			runs = bytes.NewReader(data)
		}
		return pagetext.ScoreRuns(ctx, gt, req.Runs.Name, runs, opts)
	case len(req.OCR) == 0:
		return nil, inputerr.New("", 0, "no OCR given: expected OCR pages (ocr) or a runs file (runs)")
	}
	ocr, err := inputs(req.OCR)
	if err != nil {
		return nil, err
	}
	fo := pagetext.FilesOptions{Model: req.Model, Phase: req.Phase}
	if fo.Model == "" {
		fo.Model = "ocr"
	}
	if fo.Phase == "" {
		fo.Phase = "default"
	}
	return pagetext.ScoreFiles(ctx, gt, ocr, fo, opts)
}

// StreamText scores a request with a runs file read from runs as it is
// read, and writes the report in req.Format to out as it goes
// (pagetext.StreamRuns): the bytes of "docscore score text --runs" (and
// of Report and Write), in memory that does not grow with the lines. The
// report returned has no pages. so's Format is req.Format's.
func StreamText(ctx api.Cancel, req *TextRequest, runs io.Reader, out io.Writer, so pagetext.StreamOptions) (*pagetext.Report, error) {
	if err := ScoreTextOperation().Check(ctx, req); err != nil {
		return nil, err
	}
	if req.Runs == nil || len(req.OCR) > 0 {
		return nil, api.Paramf("runs", "expected a runs file and no OCR files to stream")
	}
	gt, opts, err := req.groundTruth(ctx)
	if err != nil {
		return nil, err
	}
	so.Format = req.Format
	return pagetext.StreamRuns(ctx, gt, req.Runs.Name, runs, opts, out, so)
}

// Write writes a report in a format: json (default), csv or md.
func Write(w io.Writer, rep *pagetext.Report, format string) error {
	switch format {
	case "csv":
		return rep.WriteCSV(w)
	case "md":
		return rep.WriteMarkdown(w)
	}
	return rep.WriteJSON(w)
}

func scoreText(ctx api.Cancel, req *TextRequest) (*api.Result, error) {
	rep, err := report(ctx, req, nil)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := Write(&b, rep, req.Format); err != nil {
		return nil, err
	}
	format := req.Format
	if format == "" {
		format = "json"
	}
	return &api.Result{Format: format, Bytes: b.Bytes()}, nil
}

// TextPageRequest asks for one page's aligned texts: its ground truth, a
// file, and its OCR, a file or the text of a runs record.
type TextPageRequest struct {
	GT  api.File  `json:"gt"`
	OCR *api.File `json:"ocr,omitempty"`
	// OCRText is, instead of OCR, the text of a runs record: it is taken
	// as "docscore score text --runs" takes it (normalized, not read as a
	// file: no markup, its lines not stripped), so that the view's scores
	// are the report's row.
	OCRText   *string `json:"ocr_text,omitempty"`
	Level     string  `json:"level,omitempty"`
	Normalize string  `json:"normalize,omitempty"`
}

// InputFiles lists the ground truth and the OCR file, when given.
func (req *TextPageRequest) InputFiles() []*api.File {
	if req.OCR == nil {
		return []*api.File{&req.GT}
	}
	return []*api.File{&req.GT, req.OCR}
}

// Validate checks that one OCR is given, the level and the normalization.
func (req *TextPageRequest) Validate() error {
	switch {
	case req.OCR == nil && req.OCRText == nil:
		return api.Paramf("ocr", "missing: expected the page's OCR output (ocr, a file, or ocr_text, the text of a runs record)")
	case req.OCR != nil && req.OCRText != nil:
		return api.Paramf("ocr_text", "and ocr given: expected one of them")
	}
	if _, ok := pagetext.ParseLevel(req.Level); !ok {
		return api.Paramf("level", "%q: expected region or line", req.Level)
	}
	if _, ok := pagetext.ParseNormalization(req.Normalize); !ok {
		return api.Paramf("normalize", "%q: expected sbb or nfc", req.Normalize)
	}
	return nil
}

var textPageOp = api.Lazy{Define: func() api.Operation {
	return api.Define(api.Operation{
		Name:   "textPage",
		Route:  "/v1/text/page",
		Family: "text",
		Doc:    "one page's two texts aligned cluster by cluster, substitutions, insertions and deletions marked, with its scores",
		Inputs: []api.Input{
			{Name: "gt", Required: true, Help: "the page's ground truth"},
			{Name: "ocr", Help: "the page's OCR output"},
		},
		Params: []api.Param{
			{Name: "ocr_text", Kind: api.String, Help: "instead of ocr, the text of a runs record, taken as score text --runs takes it"},
			{Name: "level", Kind: api.String, Default: "region", Choices: []string{"region", "line"}, Help: "the PAGE level text is read at: region or line"},
			{Name: "normalize", Kind: api.String, Default: "sbb", Choices: []string{"sbb", "nfc"}, Help: "normalization: sbb (dinglehopper's, the default) or nfc"},
		},
	}, textPage)
}}

// ScoreTextOperation scores a TextRequest: the report, exactly the bytes
// of "docscore score text --format F".
func ScoreTextOperation() api.Operation { return scoreTextOp.Get() }

// TextPageOperation answers one page's alignment (pagetext.PageView):
// its scores and its two texts aligned cluster by cluster, each step a
// match, a substitution, a deletion or an insertion. Its scores are the
// report's row of the page: for OCR files, the row of "docscore score text
// --gt G --ocr O"; for ocr_text, of the runs record holding that text.
func TextPageOperation() api.Operation { return textPageOp.Get() }

func textPage(ctx api.Cancel, req *TextPageRequest) (*api.Result, error) {
	level, _ := pagetext.ParseLevel(req.Level)
	norm, _ := pagetext.ParseNormalization(req.Normalize)
	eo := pagetext.ExtractOptions{Level: level, Normalization: norm}
	files := []api.File{req.GT}
	if req.OCR != nil {
		files = append(files, *req.OCR)
	}
	var texts [2]string
	for i, f := range files {
		data, err := f.Bytes()
		if err != nil {
			return nil, err
		}
		ex, err := pagetext.Extract(f.Name, data, eo)
		if err != nil {
			return nil, err
		}
		texts[i] = ex.Text
	}
	if req.OCRText != nil {
		texts[1] = pagetext.Normalize(*req.OCRText, norm)
	}
	v, err := pagetext.View(texts[0], texts[1], limits(ctx))
	if err != nil {
		return nil, err
	}
	v.Page = strings.TrimSpace(pagetext.PageID(req.GT.Name))
	return &api.Result{Value: v}, nil
}
