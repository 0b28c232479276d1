package tabular

import (
	"fmt"
	"sort"
	"strings"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// File is one input file: its name (used in errors and for page ids) and
// its bytes.
type File struct {
	Name string
	Data []byte
}

// Request is a scoring job as every host receives it: files and options.
type Request struct {
	GT     []File // ground-truth CSVs
	Runs   File   // the runs JSONL
	Rules  *File  // EQUIVALENCES.md, optional
	Schema *File  // a schema file, optional (default: the register schema)
	// Gate is the name-similarity gate; 0 means DefaultGate.
	Gate float64
	// Preview is "" (none), "open" (every OPEN row) or a comma-separated
	// list of OPEN rows' line numbers.
	Preview string
	// SkipBadLines reports and skips malformed runs lines.
	SkipBadLines bool
	// SkipBadInputs scores what is valid and lists the rest in the
	// report's LeftOut: a ground-truth file that cannot be read (its pages
	// are left out), a rule row that does not parse or check (the other
	// rows apply; a rule file with an error on no row is left out whole),
	// a malformed runs line and a runs line whose page has no ground truth.
	// The schema and the options must still be right.
	SkipBadInputs bool
	// Intervals asks for the cells' confidence intervals (SPEC F.4); the
	// zero value computes none.
	Intervals Intervals
}

// Load parses the files of a request into an Input.
func Load(req Request) (Input, error) {
	in := Input{Gate: req.Gate, Intervals: req.Intervals}
	if err := LoadGT(req, &in); err != nil {
		return Input{}, err
	}
	var err error
	if in.Runs, err = tabularread.ReadRuns(req.Runs.Name, req.Runs.Data, in.Schema, tabularread.RunsOptions{SkipBadLines: req.SkipBadLines || req.SkipBadInputs}); err != nil {
		return Input{}, err
	}
	if err := LoadRules(req, &in); err != nil {
		return Input{}, err
	}
	if req.SkipBadInputs {
		if err := leaveOutRuns(req, &in); err != nil {
			return Input{}, err
		}
	}
	return in, nil
}

// LoadGT parses the schema and the ground-truth files of a request.
func LoadGT(req Request, in *Input) error {
	s := schema.Default()
	if req.Schema != nil {
		var err error
		if s, err = schema.Parse(req.Schema.Name, req.Schema.Data); err != nil {
			return err
		}
	}
	in.Schema = s
	if len(req.GT) == 0 {
		return inputerr.New("", 0, "no ground-truth CSV given (expected gt_page_NN.csv files)")
	}
	var sets [][]*tabularread.GTPage
	var first error // the first ground-truth file's error
	for _, f := range req.GT {
		pages, err := tabularread.ReadGT(f.Name, f.Data, s)
		if err != nil {
			errs := inputErrors(err)
			if !req.SkipBadInputs || len(errs) == 0 {
				return err
			}
			if first == nil {
				first = err
			}
			for _, e := range errs {
				in.LeftOut = append(in.LeftOut, tabularreport.NewLeftOut(tabularreport.LeftGTFile, e))
			}
			continue
		}
		sets = append(sets, pages)
	}
	if len(sets) == 0 && first != nil {
		// Not one ground-truth file could be read: nothing is valid to
		// score against (a table of other columns wants a schema).
		in.LeftOut = nil
		return first
	}
	pages, err := tabularread.MergePages(sets...)
	if err != nil {
		return err
	}
	in.Pages = pages
	return nil
}

// LoadRules parses the rule file and the preview selection of a request.
func LoadRules(req Request, in *Input) error {
	var err error
	if req.Rules != nil {
		if in.Rules, err = rules.Parse(req.Rules.Name, req.Rules.Data); err != nil && !req.SkipBadInputs {
			// Report every error of the file at once: Check repeats
			// Parse's and adds those of the rows that parsed.
			if errs := rules.Check(in.Rules, in.Schema, nil); len(errs) > 0 {
				return errs
			}
			return err
		}
		if req.SkipBadInputs {
			// The rows with errors are left out, the others apply; a
			// file with an error on no row is left out whole.
			good, errs, ok := in.Rules.WithoutBadRows(in.Schema)
			what := tabularreport.LeftRuleRow
			if !ok {
				what = tabularreport.LeftRuleFile
			}
			for _, e := range errs {
				in.LeftOut = append(in.LeftOut, tabularreport.NewLeftOut(what, e))
			}
			in.Rules = good
		}
	}
	if in.Preview, err = rules.ParseSelection(req.Preview); err != nil {
		return inputerr.New("", 0, "%v", err)
	}
	return nil
}

// ScoreRequest loads and scores a request.
func ScoreRequest(req Request) (*tabularreport.Report, error) {
	return ScoreRequestContext(nil, req, Limits{})
}

// ScoreRequestContext loads and scores a request within limits, as
// ScoreContext does.
func ScoreRequestContext(ctx Canceler, req Request, lim Limits) (*tabularreport.Report, error) {
	in, err := Load(req)
	if err != nil {
		return nil, err
	}
	rep, err := ScoreContext(ctx, in, lim)
	if err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	return rep, nil
}

// inputErrors returns the input errors err is or holds, or nil when it is
// another error.
func inputErrors(err error) []*inputerr.Error {
	if l, ok := err.(inputerr.List); ok {
		return l
	}
	if e, ok := inputerr.As(err); ok {
		return []*inputerr.Error{e}
	}
	return nil
}

// leaveOutRuns moves in.Runs' skipped lines to in.LeftOut, and the images
// whose page has no ground truth with them, in line order. The runs are
// copied: the images kept are shared.
func leaveOutRuns(req Request, in *Input) error {
	pages, err := IndexPages(in.Pages)
	if err != nil {
		return err
	}
	left := LeftGTFiles(in.LeftOut)
	runs := &tabularread.Runs{File: in.Runs.File, Images: make([]*tabularread.Image, 0, len(in.Runs.Images))}
	var out []tabularreport.LeftOut
	for _, e := range in.Runs.Skipped {
		out = append(out, tabularreport.NewLeftOut(tabularreport.LeftRunsLine, e))
	}
	for _, im := range in.Runs.Images {
		if pages.Find(im.Page) != nil {
			runs.Images = append(runs.Images, im)
			continue
		}
		out = append(out, NoGroundTruth(in.Runs.File, im, pages, left))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	in.LeftOut = append(in.LeftOut, out...)
	in.Runs = runs
	return nil
}

// LeftGTFiles maps the page ids of the names of the ground-truth files
// left out (gt_page_28.csv → 28) to those names.
func LeftGTFiles(l []tabularreport.LeftOut) map[string]string {
	m := map[string]string{}
	for _, x := range l {
		if x.What == tabularreport.LeftGTFile {
			m[tabularread.PageIDFromName(x.File)] = x.File
		}
	}
	return m
}

// NoGroundTruth is the LeftOut of a runs line whose page has no ground
// truth: it names the ground-truth file left out for that page, if any.
func NoGroundTruth(file string, im *tabularread.Image, pages *PageIndex, left map[string]string) tabularreport.LeftOut {
	why := MissingPageError(file, im, pages).Msg
	n, isInt := tabularread.PageKey(im.Page)
	for id, f := range left {
		if m, ok := tabularread.PageKey(id); id == im.Page || ok && isInt && m == n {
			why = fmt.Sprintf("page %s has no ground truth: %s was left out", im.Page, f)
			break
		}
	}
	return tabularreport.LeftOut{File: file, Line: im.Line, What: tabularreport.LeftRunsLine, Why: why}
}

// MissingPageError is the error of an image whose page has no ground
// truth.
func MissingPageError(file string, im *tabularread.Image, pages *PageIndex) *inputerr.Error {
	return inputerr.New(file, im.Line, "page %s has no ground-truth file (expected gt_page_%s.csv or a row with page %s; pages given: %s)",
		im.Page, im.Page, im.Page, strings.Join(pages.IDs(), ", "))
}
