package tabular

import (
	"fmt"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
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
	// Intervals asks for the cells' confidence intervals (SPEC F.4); the
	// zero value computes none.
	Intervals Intervals
}

// Load parses the files of a request into an Input.
func Load(req Request) (Input, error) {
	in := Input{Gate: req.Gate, Intervals: req.Intervals}
	if err := loadGT(req, &in); err != nil {
		return Input{}, err
	}
	var err error
	if in.Runs, err = ReadRuns(req.Runs.Name, req.Runs.Data, in.Schema, RunsOptions{SkipBadLines: req.SkipBadLines}); err != nil {
		return Input{}, err
	}
	if err := loadRules(req, &in); err != nil {
		return Input{}, err
	}
	return in, nil
}

// loadGT parses the schema and the ground-truth files of a request.
func loadGT(req Request, in *Input) error {
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
	var sets [][]*GTPage
	for _, f := range req.GT {
		pages, err := ReadGT(f.Name, f.Data, s)
		if err != nil {
			return err
		}
		sets = append(sets, pages)
	}
	pages, err := MergePages(sets...)
	if err != nil {
		return err
	}
	in.Pages = pages
	return nil
}

// loadRules parses the rule file and the preview selection of a request.
func loadRules(req Request, in *Input) error {
	var err error
	if req.Rules != nil {
		if in.Rules, err = rules.Parse(req.Rules.Name, req.Rules.Data); err != nil {
			// Report every error of the file at once: Check repeats
			// Parse's and adds those of the rows that parsed.
			if errs := rules.Check(in.Rules, in.Schema, nil); len(errs) > 0 {
				return errs
			}
			return err
		}
	}
	if in.Preview, err = rules.ParseSelection(req.Preview); err != nil {
		return inputerr.New("", 0, "%v", err)
	}
	return nil
}

// ScoreRequest loads and scores a request.
func ScoreRequest(req Request) (*Report, error) {
	return ScoreRequestContext(nil, req, Limits{})
}

// ScoreRequestContext loads and scores a request within limits, as
// ScoreContext does.
func ScoreRequestContext(ctx Canceler, req Request, lim Limits) (*Report, error) {
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
