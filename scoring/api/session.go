package api

import (
	"bytes"
	"fmt"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// TabularSession keeps what a page's tabular calls have in common while
// the page is open: the parsed inputs of the last files loaded (ground
// truth, schema, rule file and runs, keyed by their exact names and
// texts, skip_bad_lines and skip_bad_inputs), that rule file's check, the settled scoring
// (tabular.Reuse) and the last report (keyed by the gate and the
// preview). A preview switched on or off, a drill-down and a download
// then reuse the drop's work instead of parsing and scoring the files
// again.
//
// It is memoization only: every answer is byte for byte the one a call
// without it gives (TestSessionAnswersAsCold). Comparing the texts is
// cheap beside parsing them. A session is the Cancel its host passes to
// the operations (it never cancels); only the page's core passes one
// (wasm/bridge.NewSession): the HTTP API and the command line keep
// nothing between calls. Calls through one session must not run at once
// (the bridge runs its calls one at a time). The zero value is an empty
// session.
type TabularSession struct {
	loaded  *loadedInput
	report  *tabularreport.Report // the last report scored from loaded
	gate    float64               // its gate (0: the default)
	preview string                // its preview
	// intervals are its confidence intervals' settings.
	intervals tabular.Intervals
	reuse     tabular.Reuse
}

// Err is nil: a session never cancels.
func (s *TabularSession) Err() error { return nil }

// sessionOf returns the session ctx is, or a new one, which keeps
// nothing past the call, when ctx is not a session.
func sessionOf(ctx Cancel) *TabularSession {
	if s, ok := ctx.(*TabularSession); ok {
		return s
	}
	return &TabularSession{}
}

// loadedInput is a request's files as tabular.Load parsed them.
type loadedInput struct {
	req   TabularRequest
	in    tabular.Input     // Gate and Preview are the request's
	check *RulesCheckResult // the rule file's check, once made
}

// keep returns a copy of req's files that a caller changing req's (its
// GT list, its rule file) leaves alone; the texts are shared.
func keep(req *TabularRequest) TabularRequest {
	k := *req
	k.GT = append([]File(nil), req.GT...)
	if req.Rules != nil {
		r := *req.Rules
		k.Rules = &r
	}
	if req.Schema != nil {
		s := *req.Schema
		k.Schema = &s
	}
	return k
}

// sameFile reports whether two files have the same name and text: all
// the tabular scoring reads of them.
func sameFile(a, b *File) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Name == b.Name && a.Text == b.Text
}

// holds reports whether req gives l's ground truth, rule file and schema
// and, withRuns, its runs file and skip_bad_lines. A drill-down reads
// only the first three and one line of the runs.
func (l *loadedInput) holds(req *TabularRequest, withRuns bool) bool {
	old := &l.req
	if withRuns && (old.SkipBadLines != req.SkipBadLines || !sameFile(&old.Runs, &req.Runs)) {
		return false
	}
	if old.SkipBadInputs != req.SkipBadInputs {
		return false
	}
	if len(req.GT) != len(old.GT) || !sameFile(req.Rules, old.Rules) || !sameFile(req.Schema, old.Schema) {
		return false
	}
	for i := range req.GT {
		if !sameFile(&req.GT[i], &old.GT[i]) {
			return false
		}
	}
	return true
}

// withOptions returns l's input with req's gate and preview, checked as
// req.tabular and tabular.Load check them.
func (l *loadedInput) withOptions(req *TabularRequest) (tabular.Input, error) {
	if err := req.CheckGate(); err != nil {
		return tabular.Input{}, err
	}
	in := l.in
	in.Gate = 0
	if req.Gate != nil {
		in.Gate = *req.Gate
	}
	sel, err := rules.ParseSelection(req.Preview)
	if err != nil {
		return tabular.Input{}, inputerr.New("", 0, "%v", err)
	}
	in.Preview = sel
	in.Intervals = req.intervals()
	return in, nil
}

// detail answers a drill-down as TabularDetail does, from the ground
// truth, rule file and schema the session last parsed when req gives
// those files: only the image's line of the runs is then read.
func (s *TabularSession) detail(req *TabularDetailRequest) (*tabular.ImageDetail, error) {
	if l := s.loaded; l != nil && l.holds(&req.TabularRequest, false) {
		// An option error is TabularDetail's to report, in its order.
		if in, err := l.withOptions(&req.TabularRequest); err == nil {
			return tabular.DetailLoaded(in, req.Runs.tabular(), req.Line)
		}
	}
	return TabularDetail(*req)
}

// scoreReport scores req as tabular.ScoreRequestContext does, reusing the
// session's parsed files, settled scoring and last report. l is the files
// loaded, nil when they did not load.
func (s *TabularSession) scoreReport(ctx Cancel, req *TabularRequest) (l *loadedInput, rep *tabularreport.Report, err error) {
	var in tabular.Input
	if l = s.loaded; l != nil && l.holds(req, true) {
		if in, err = l.withOptions(req); err != nil {
			return nil, nil, err
		}
	} else {
		treq, err := req.tabular()
		if err != nil {
			return nil, nil, err
		}
		if in, err = tabular.Load(treq); err != nil {
			return nil, nil, err
		}
		l = &loadedInput{req: keep(req), in: in}
		s.loaded, s.report, s.reuse = l, nil, tabular.Reuse{}
	}
	if s.report != nil && s.gate == in.Gate && s.preview == req.Preview && s.intervals.SameSettings(in.Intervals) {
		return l, s.report, nil
	}
	if rep, err = tabular.ScoreReusing(ctx, in, workLimits(ctx), &s.reuse); err != nil {
		return l, nil, fmt.Errorf("%w", err)
	}
	s.report, s.gate, s.preview, s.intervals = rep, in.Gate, req.Preview, in.Intervals
	return l, rep, nil
}

// DropTabular answers what the page shows after a drop, in one call: the
// rule file's check and the report's summary, as JSON
//
//	{"rules": R, "error": E, "summary": S}
//
// R is null without a rule file, else CheckRules' result, or
// {"error": ErrorDetail} when the schema or a ground-truth file could not
// be read; E is null, or the ErrorDetail of the error that kept the files
// from being scored (a rule file with errors among them: R then lists
// every one); S is tabularreport.Report.SummaryJSON, null with an error. With
// the page's session the files are parsed once for both. A bad option
// (gate, preview, format) is an error of the call itself.
func DropTabular(req TabularRequest) ([]byte, error) {
	res, err := DropTabularOperation().Run(NoCancel, &req)
	if err != nil {
		return nil, err
	}
	return res.Bytes, nil
}

func dropTabular(ctx Cancel, req *TabularRequest) (*Result, error) {
	l, rep, err := sessionOf(ctx).scoreReport(ctx, req)
	var check any // nil: no rule file
	switch {
	case req.Rules == nil:
	case l != nil && l.in.Rules != nil:
		// The files loaded: check the rule file as CheckRules does, from
		// them, once.
		if l.check == nil {
			in := l.in
			l.check = rulesCheckResult(req.Rules.Name, in.Rules, in.Schema, gtValues(in.Schema, in.Pages))
		}
		check = l.check
	default:
		check = rulesCheckAnswer(req)
	}
	out, err := dropAnswer(check, rep, err)
	if err != nil {
		return nil, err
	}
	return &Result{Format: "json", Bytes: out}, nil
}

// rulesCheckAnswer is DropTabular's check of req's rule file from its
// files: CheckRules' result, or its error.
func rulesCheckAnswer(req *TabularRequest) any {
	c, err := CheckRules(RulesCheckRequest{Rules: *req.Rules, GT: req.GT, Schema: req.Schema})
	if err != nil {
		return ErrorBody{Error: DescribeError(err)}
	}
	return c
}

// dropAnswer is DropTabular's answer: the rule file's check, and the
// scoring's error or its report's summary.
func dropAnswer(check any, rep *tabularreport.Report, err error) ([]byte, error) {
	head := dropHead{Rules: check}
	summary := []byte("null")
	if err != nil {
		d := DescribeError(err)
		head.Error = &d
	} else if summary, err = rep.SummaryJSON(); err != nil {
		return nil, err
	}
	// {"rules": …, "error": …, then the summary as SummaryJSON wrote it
	// (megabytes for a large runs file: not re-encoded).
	out, err := MarshalJSON(head)
	if err != nil {
		return nil, err
	}
	out = append(out[:len(out)-len("\n}\n")], ",\n  \"summary\": "...)
	return append(append(out, bytes.TrimSuffix(summary, []byte("\n"))...), "\n}\n"...), nil
}

// dropHead is DropTabular's answer but its summary.
type dropHead struct {
	Rules any          `json:"rules"`
	Error *ErrorDetail `json:"error"`
}
