// Package api is the one entry point every host calls: the command line's
// server, the browser bridge and the Cloudflare Worker decode their
// requests into these types, call these functions and send back the bytes
// they return, so the same input gives the same bytes everywhere.
//
// Files travel as {"name", "text"} objects: the name is kept for page ids
// and error messages, the text is the file's UTF-8 content.
//
// It holds the operation registry every host dispatches through and the
// tabular family's operations (the other families' are in receiptsapi,
// evalapi, tablesapi, textapi and compareapi); with both it is a little
// over the 2,000 lines the project aims at per package. Moving the
// tabular operations out would leave the registry's streamed-provenance
// hooks (Operation.StreamedProvenance) split across two packages.
package api

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// File is one input file: its name and its content, as UTF-8 text or, for
// binary files (images, PDFs), as standard base64. A caller that hands
// texts over beside the JSON request (the site's worker: see ResolveParts)
// gives Part instead, the 1-based index of the file's text among them.
type File struct {
	Name   string `json:"name"`
	Text   string `json:"text,omitempty"`
	Base64 string `json:"base64,omitempty"`
	Part   int    `json:"part,omitempty"`
}

// Bytes returns the file's content.
func (f File) Bytes() ([]byte, error) {
	if f.Base64 == "" {
		return []byte(f.Text), nil
	}
	b, err := base64.StdEncoding.DecodeString(f.Base64)
	if err != nil {
		return nil, inputerr.New(f.Name, 0, "expected standard base64 content: %v", err)
	}
	return b, nil
}

func (f File) tabular() tabular.File { return tabular.File{Name: f.Name, Data: []byte(f.Text)} }

func optFile(f *File) *tabular.File {
	if f == nil {
		return nil
	}
	t := f.tabular()
	return &t
}

// TabularRequest asks for a tabular scoring (SPEC A).
type TabularRequest struct {
	GT           []File   `json:"gt"`
	Runs         File     `json:"runs"`
	Rules        *File    `json:"rules,omitempty"`
	Schema       *File    `json:"schema,omitempty"`
	Gate         *float64 `json:"gate,omitempty"`    // absent: the default 0.7; given, in (0, 1]
	Preview      string   `json:"preview,omitempty"` // "", "open" or "32,33"
	SkipBadLines bool     `json:"skip_bad_lines,omitempty"`
	// SkipBadInputs scores what is valid and lists what it left out in
	// the report's left_out: ground-truth files, rule rows and runs lines
	// (tabular.Request.SkipBadInputs; --skip-bad-inputs).
	SkipBadInputs bool   `json:"skip_bad_inputs,omitempty"`
	Format        string `json:"format,omitempty"` // json (default), csv or md
	IntervalOptions
	// Permutations is the randomization rounds of a preview's p-values
	// (SPEC F.5), 0 to 1000000, default 10000; 0 leaves them null
	// (--permutations).
	Permutations *int `json:"permutations,omitempty"`
	// Alpha is the significance level of a preview's Holm-adjusted
	// p-values, strictly between 0 and 1, default 0.05 (--alpha).
	Alpha *float64 `json:"alpha,omitempty"`
	// Effect is the difference a preview's units_needed is computed for
	// (SPEC F.7, --effect); left out or 0, units_needed is left out.
	Effect *float64 `json:"effect,omitempty"`

	// leftOut records, once the request is scored, whether the scoring
	// left anything out (a runs line skipped, a file or rule row left
	// out), for the provenance's skip options (ProvenanceOptions).
	leftOut bool
}

// InputFiles lists the request's files: the GT CSVs, the runs file, then the
// rule file and the schema when given.
func (req *TabularRequest) InputFiles() []*File {
	files := make([]*File, 0, len(req.GT)+3)
	for i := range req.GT {
		files = append(files, &req.GT[i])
	}
	files = append(files, &req.Runs)
	if req.Rules != nil {
		files = append(files, req.Rules)
	}
	if req.Schema != nil {
		files = append(files, req.Schema)
	}
	return files
}

// ReportFormat is the format the request asks for.
func (req *TabularRequest) ReportFormat() string { return req.Format }

// Validate checks the request's options: a gate given is a similarity in
// (0, 1] (CheckGate); the preview is "", "open" or line numbers; the
// interval options (IntervalOptions.Validate), permutations and alpha are
// in range.
func (req *TabularRequest) Validate() error {
	if err := req.CheckGate(); err != nil {
		return &ParamError{Param: "gate", Msg: strings.TrimPrefix(err.Error(), "gate ")}
	}
	if _, err := rules.ParseSelection(req.Preview); err != nil {
		return &ParamError{Param: "preview", Msg: strings.TrimPrefix(err.Error(), "preview ")}
	}
	if err := req.IntervalOptions.Validate(); err != nil {
		return err
	}
	if req.Permutations != nil {
		if err := stats.CheckRounds("permutations", *req.Permutations); err != nil {
			return &ParamError{Param: "permutations", Msg: strings.TrimPrefix(err.Error(), "permutations ")}
		}
	}
	if req.Alpha != nil {
		if err := param.Float("alpha", *req.Alpha, stats.AlphaRange); err != nil {
			return &ParamError{Param: "alpha", Msg: strings.TrimPrefix(err.Error(), "alpha ")}
		}
	}
	if req.Effect != nil {
		if err := param.Float("effect", *req.Effect, stats.EffectRange); err != nil {
			return &ParamError{Param: "effect", Msg: strings.TrimPrefix(err.Error(), "effect ")}
		}
	}
	return nil
}

// intervals are the request's interval and comparison options as the
// tabular scorer takes them, SPEC F's defaults where it names none.
func (req *TabularRequest) intervals() tabular.Intervals {
	iv := req.IntervalOptions.tabular()
	iv.Permutations, iv.Alpha = stats.DefaultPermutations, stats.DefaultAlpha
	if req.Permutations != nil {
		iv.Permutations = *req.Permutations
	}
	if req.Alpha != nil {
		iv.Alpha = *req.Alpha
	}
	if req.Effect != nil {
		iv.Effect = *req.Effect
	}
	return iv
}

// ScoreTabular scores a request and returns the report in its format:
// exactly the bytes "docscore score tabular --format F" writes.
func ScoreTabular(req TabularRequest) ([]byte, error) {
	res, err := ScoreTabularOperation().Run(NoCancel, &req)
	if err != nil {
		return nil, err
	}
	return res.Bytes, nil
}

func scoreTabular(ctx Cancel, req *TabularRequest) (*Result, error) {
	res, _, err := scoreTabularReport(ctx, req)
	return res, err
}

// ScoreTabularReport is ScoreTabularOperation for native hosts that also
// want the typed report (the command line checks --fail-under floors on
// it): the same checks, the same bytes. The page's core never calls it,
// so the report's types are not kept for reflection in docscore.wasm.
func ScoreTabularReport(ctx Cancel, req *TabularRequest) (*Result, *tabularreport.Report, error) {
	if err := ScoreTabularOperation().Check(ctx, req); err != nil {
		return nil, nil, err
	}
	res, rep, err := scoreTabularReport(ctx, req)
	if err == nil {
		err = ScoreTabularOperation().Stamp(req, res)
	}
	return res, rep, err
}

func scoreTabularReport(ctx Cancel, req *TabularRequest) (*Result, *tabularreport.Report, error) {
	_, rep, err := sessionOf(ctx).scoreReport(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	req.leftOut = leftOut(rep)
	format := req.Format
	if format == "" {
		format = "json"
	}
	out, err := EncodeTabular(rep, format)
	if err != nil {
		return nil, nil, err
	}
	return &Result{Format: format, Bytes: out}, rep, nil
}

// EncodeTabular writes a tabular report in a format: json (also ""), csv
// or md.
func EncodeTabular(rep *tabularreport.Report, format string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "", "json":
		return rep.JSON()
	case "csv":
		err = rep.WriteCSV(&buf)
	case "md":
		err = rep.WriteMarkdown(&buf)
	default:
		return nil, Paramf("format", "%q: expected json, csv or md", format)
	}
	return buf.Bytes(), err
}

// RulesCheckRequest asks for the checks of a rule file, optionally against
// ground-truth CSVs.
type RulesCheckRequest struct {
	Rules  File   `json:"rules"`
	GT     []File `json:"gt,omitempty"`
	Schema *File  `json:"schema,omitempty"`
}

// RulesCheckResult lists the parsed rows and every problem found.
type RulesCheckResult struct {
	File     string      `json:"file"`
	SHA256   string      `json:"sha256"`
	Settled  int         `json:"settled"`
	Open     int         `json:"open"`
	Errors   []Problem   `json:"errors"`
	Warnings []Problem   `json:"warnings"`
	Rows     []rules.Row `json:"rows"`
}

// Problem is one error or warning with its position.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column,omitempty"` // 1-based, in characters; 0 when not known
	Message string `json:"message"`
	Text    string `json:"text"` // FILE:LINE[:COLUMN]: message
	// Excerpt is the line's text with a caret under the column, as every
	// input error shows it under its head (inputerr.Render); "" when the
	// line's text is not known.
	Excerpt string `json:"excerpt,omitempty"`
}

func problem(e *inputerr.Error) Problem {
	p := Problem{File: e.File, Line: e.Line, Column: e.Column, Message: e.Msg, Text: e.Head()}
	if e.Source != "" && e.Line > 0 {
		p.Excerpt = inputerr.Render(e.Source, e.Line, e.Column)
	}
	return p
}

// CheckRules parses and checks a rule file. Problems with the rule file are
// reported in the result, not as an error: every error of the file at once,
// with its sha256 and the rows that parsed, and its warnings. An error
// means another input (the schema or a GT file) could not be read.
func CheckRules(req RulesCheckRequest) (*RulesCheckResult, error) {
	s := schema.Default()
	if req.Schema != nil {
		var err error
		if s, err = schema.Parse(req.Schema.Name, []byte(req.Schema.Text)); err != nil {
			return nil, err
		}
	}
	var gt map[string][]string
	if len(req.GT) > 0 {
		var pages []*tabularread.GTPage
		for _, f := range req.GT {
			p, err := tabularread.ReadGT(f.Name, []byte(f.Text), s)
			if err != nil {
				return nil, err
			}
			pages = append(pages, p...)
		}
		gt = gtValues(s, pages)
	}
	// Parse returns the file even when some rows do not parse, and Check
	// reports Parse's errors with its own: every error of the file, in
	// line order, beside the rows that did parse and the file's digest.
	f, err := rules.Parse(req.Rules.Name, []byte(req.Rules.Text))
	if f == nil {
		return nil, err
	}
	return rulesCheckResult(req.Rules.Name, f, s, gt), nil
}

// gtValues maps the key column and every column of s to their values in
// the ground-truth pages, in order: what rules.Check tests model-side
// ignores against.
func gtValues(s *schema.Schema, pages []*tabularread.GTPage) map[string][]string {
	gt := map[string][]string{}
	for _, p := range pages {
		for _, r := range p.Rows {
			gt[s.Key] = append(gt[s.Key], r.Key)
			for i, c := range s.Columns {
				gt[c.Name] = append(gt[c.Name], r.Values[i])
			}
		}
	}
	return gt
}

// rulesCheckResult is the check of a parsed rule file named name.
func rulesCheckResult(name string, f *rules.File, s *schema.Schema, gt map[string][]string) *RulesCheckResult {
	res := &RulesCheckResult{File: name, Errors: []Problem{}, Warnings: []Problem{}, Rows: []rules.Row{}}
	res.SHA256, res.Settled, res.Open = f.SHA256, f.Count(rules.Settled), f.Count(rules.Open)
	if f.Rows != nil {
		res.Rows = f.Rows
	}
	for _, e := range rules.Check(f, s, gt) {
		res.Errors = append(res.Errors, problem(e))
	}
	for _, w := range f.Warnings {
		res.Warnings = append(res.Warnings, problem(w))
	}
	return res
}

// ErrorBody is the JSON error every host returns: {"error": {...}}.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail describes a failed call: a stable code ("input" for bad
// input, the user's to fix, "internal" otherwise; hosts add their own, such
// as the HTTP API's "bad_request"), a message for people, and the file and
// line of bad input, null when they do not apply. Every host sends this
// same shape.
type ErrorDetail struct {
	Code    string  `json:"code"`
	Message string  `json:"message"`
	File    *string `json:"file"`
	Line    *int    `json:"line"`
	// Column is the 1-based column (in characters) on Line, null when not
	// known.
	Column *int `json:"column"`
	// SourceLine is the text of Line, null when not known: Message shows
	// it under its first line, with a caret under Column.
	SourceLine *string `json:"source_line"`
}

// Where returns the error's file and line, "" and 0 when they do not apply.
func (d ErrorDetail) Where() (file string, line int) {
	if d.File != nil {
		file = *d.File
	}
	if d.Line != nil {
		line = *d.Line
	}
	return file, line
}

// DescribeError turns an error into its JSON description.
func DescribeError(err error) ErrorDetail {
	code := "input"
	var coded Coded
	if errors.As(err, &coded) {
		code = coded.ErrorCode()
	}
	if pe, ok := coded.(*ParamError); ok {
		d := ErrorDetail{Code: code, Message: err.Error()}
		if pe.File != "" {
			file := pe.File
			d.File = &file
		}
		return d
	}
	if e, ok := inputerr.As(err); ok {
		d := ErrorDetail{Code: code, Message: err.Error()}
		if e.File != "" {
			file := e.File
			d.File = &file
		}
		if e.Line > 0 {
			line := e.Line
			d.Line = &line
		}
		if e.Line > 0 && e.Column > 0 {
			col := e.Column
			d.Column = &col
		}
		if e.Line > 0 && e.Source != "" {
			src := e.Source
			d.SourceLine = &src
		}
		return d
	}
	return ErrorDetail{Code: "internal", Message: err.Error()}
}

// MarshalJSON encodes v the way every host does: indented, HTML characters
// left as they are, with a final newline. It is the door to the core's one
// encoder set-up (scoring/internal/jsonout.Marshal) for the hosts, which
// cannot import the core's internal packages.
func MarshalJSON(v any) ([]byte, error) {
	b, err := jsonout.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	return b, nil
}
