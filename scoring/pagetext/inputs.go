package pagetext

import (
	"bytes"
	"encoding/json"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// progressEvery is how many lines of a runs file go between two calls of
// StreamOptions.Progress.
const progressEvery = 256

// Input is one file of ground truth or of OCR output.
type Input struct {
	Name string // as the user gave it; its base name up to the first dot is the page id
	Data []byte
}

// PageID is a file's page id: its base name up to the first dot
// ("0001.gt.txt" is page "0001"), so that 0001.gt.txt pairs with
// 0001.tesseract.xml (SPEC G.1).
func PageID(name string) string {
	base := baseName(name)
	if i := strings.IndexByte(base, '.'); i > 0 {
		return base[:i]
	}
	return base
}

// baseName is a file's name without its folders, as reports give it, so
// that a report does not depend on where its files lay.
func baseName(name string) string { return path.Base(strings.ReplaceAll(name, `\`, "/")) }

// Cancel is what the scorer reads of its caller's context: Err turns
// non-nil once the caller has gone away.
type Cancel interface{ Err() error }

// FilesOptions name the cell files are scored into.
type FilesOptions struct {
	Model, Phase string
}

// ScoreFiles scores OCR files against ground-truth files (SPEC G.1): one
// of each is one page, whatever their names; otherwise pages pair by id,
// and those without a partner are listed in the report's Unpaired. Two
// files of one side with one id are an error.
func ScoreFiles(ctx Cancel, gt, ocr []Input, fo FilesOptions, opts ReportOptions) (*Report, error) {
	s := NewScorer(opts.withCancel(ctx))
	if len(gt) == 1 && len(ocr) == 1 {
		if err := s.addFiles(ctx, PageID(gt[0].Name), gt[0], ocr[0], fo); err != nil {
			return nil, err
		}
		return s.Report()
	}
	g, err := byID(gt)
	if err != nil {
		return nil, err
	}
	o, err := byID(ocr)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(g))
	for id := range g {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var gtOnly, ocrOnly []string
	for _, id := range ids {
		of, ok := o[id]
		if !ok {
			gtOnly = append(gtOnly, id)
			continue
		}
		if err := s.addFiles(ctx, id, g[id], of, fo); err != nil {
			return nil, err
		}
	}
	for id := range o {
		if _, ok := g[id]; !ok {
			ocrOnly = append(ocrOnly, id)
		}
	}
	s.Unpaired(gtOnly, ocrOnly)
	return s.Report()
}

func (s *Scorer) addFiles(ctx Cancel, id string, gt, ocr Input, fo FilesOptions) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	g, err := Extract(gt.Name, gt.Data, s.opts.Extract)
	if err != nil {
		return err
	}
	o, err := Extract(ocr.Name, ocr.Data, s.opts.Extract)
	if err != nil {
		return err
	}
	return s.Add(Row{Model: fo.Model, Phase: fo.Phase, Page: id, GTFile: baseName(gt.Name), OCRFile: baseName(ocr.Name)}, g.Text, o.Text)
}

func byID(files []Input) (map[string]Input, error) {
	m := make(map[string]Input, len(files))
	for _, f := range files {
		id := PageID(f.Name)
		if prev, dup := m[id]; dup {
			return nil, inputerr.New(f.Name, 0, "page %q is also %s: expected one file a page on each side", id, prev.Name)
		}
		m[id] = f
	}
	return m, nil
}

// RunsLimit bounds one line of a runs file.
const RunsLimit = 64 << 20

// runRecord is one line of a runs file.
type runRecord struct {
	Model *string         `json:"model"`
	Phase *string         `json:"phase"`
	Run   json.RawMessage `json:"run"`
	Page  *string         `json:"page"`
	Text  *string         `json:"text"`
}

// withCancel is opts with ctx asked inside each alignment too, unless the
// limits name a Cancel of their own.
func (opts ReportOptions) withCancel(ctx Cancel) ReportOptions {
	if opts.Limits.Cancel == nil {
		opts.Limits.Cancel = ctx
	}
	return opts
}

// ScoreRuns scores a runs file — one JSON object a line, {"model",
// "phase", "run", "page", "text"} — against ground-truth files paired by
// page id (SPEC G.1). It reads the runs as a stream and keeps of each
// line only its row and its cell's sums, so memory grows with the rows,
// not the texts. A record of a page without ground truth is listed (its
// page id) in Unpaired.OCROnly; a ground-truth page no record names in
// Unpaired.GTOnly. The same model, phase, run and page twice is an error.
// StreamRuns writes the report as it reads, without keeping the rows.
func ScoreRuns(ctx Cancel, gt []Input, runsName string, runs io.Reader, opts ReportOptions) (*Report, error) {
	s := NewScorer(opts.withCancel(ctx))
	if err := s.addRuns(ctx, gt, runsName, runs, nil); err != nil {
		return nil, err
	}
	return s.Report()
}

// addRuns scores the runs file's lines into s, calling progress (when
// set) with the lines read so far every progressEvery lines.
func (s *Scorer) addRuns(ctx Cancel, gt []Input, runsName string, runs io.Reader, progress func(lines int)) error {
	opts := s.opts
	g, err := byID(gt)
	if err != nil {
		return err
	}
	texts := make(map[string]string, len(g))
	files := make(map[string]string, len(g))
	for id, f := range g {
		ex, err := Extract(f.Name, f.Data, opts.Extract)
		if err != nil {
			return err
		}
		texts[id], files[id] = ex.Text, baseName(f.Name)
	}
	var seen ingest.RunKeys
	used := map[string]bool{}
	missing := map[string]bool{}
	ls := ingest.NewReaderLines(runsName, runs)
	ls.LineLimit = RunsLimit
	reported := 0 // the lines progress was last called with
	for ls.Next() {
		l := ls.Line()
		line := l.No
		if err := ctx.Err(); err != nil {
			return err
		}
		for progress != nil && reported+progressEvery <= line-1 {
			reported += progressEvery
			progress(reported) // the lines read so far
		}
		if bad := ls.BadLine(); bad != nil {
			return bad
		}
		// at is an error about the line's record: the caret under its
		// start, the line shown.
		at := func(format string, args ...any) error {
			return inputerr.At(runsName, line, l.Indent+1, l.Source(), format, args...)
		}
		var rec runRecord
		if err := json.Unmarshal(l.Text, &rec); err != nil {
			return ingest.LineJSONError(runsName, l, err, "a JSON object {\"model\", \"phase\", \"run\", \"page\", \"text\"}")
		}
		switch {
		case rec.Model == nil:
			return at("no \"model\": expected the record's model (a string)")
		case rec.Phase == nil:
			return at("no \"phase\": expected the record's phase (a string)")
		case rec.Page == nil:
			return at("no \"page\": expected the page id (a string) its ground truth is named by")
		case rec.Text == nil:
			return at("no \"text\": expected the OCR text (a string)")
		}
		run := compactRun(rec.Run)
		if run != "null" && run[0] != '"' && (run[0] < '0' || run[0] > '9') && run[0] != '-' {
			return at("run %s: expected a number, a string or null", run)
		}
		if prev := seen.Add(*rec.Model, *rec.Phase, []byte(run), *rec.Page, line); prev != 0 {
			return at("model %q phase %q run %s page %q is also on line %d: expected each once", *rec.Model, *rec.Phase, run, *rec.Page, prev)
		}
		gtText, ok := texts[*rec.Page]
		if !ok {
			missing[*rec.Page] = true
			continue
		}
		used[*rec.Page] = true
		row := Row{Model: *rec.Model, Phase: *rec.Phase, Run: json.RawMessage(run), Page: *rec.Page, GTFile: files[*rec.Page], Line: line}
		if err := s.Add(row, gtText, Normalize(*rec.Text, opts.Extract.Normalization)); err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return cerr // stopped inside the page's alignment
			}
			return at("%v", err)
		}
	}
	if err := ls.Err(); err != nil {
		return err
	}
	for progress != nil && reported+progressEvery <= ls.Line().No {
		reported += progressEvery
		progress(reported)
	}
	var gtOnly, ocrOnly []string
	for id := range texts {
		if !used[id] {
			gtOnly = append(gtOnly, id)
		}
	}
	for id := range missing {
		ocrOnly = append(ocrOnly, id)
	}
	s.Unpaired(gtOnly, ocrOnly)
	return nil
}

func compactRun(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "null"
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return "null"
	}
	return b.String()
}
