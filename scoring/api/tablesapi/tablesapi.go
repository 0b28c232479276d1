// Package tablesapi is the tables entry point of scoring/api (SPEC H):
// the requests every host decodes and the functions that answer them
// with the exact bytes of "docscore score tables". It is a package of its
// own so that hosts without tables do not link the table scorer.
package tablesapi

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/tables"
)

// Work caps a host may set on one request (api.Bounded does not carry
// them: they are the request's own, clamped by the host).
const (
	// MaxTEDCells bounds one table pair's tree edit distance.
	MaxTEDCells = tables.DefaultMaxTEDCells
	// MaxGridPairs bounds one table pair's GriTS.
	MaxGridPairs = tables.DefaultMaxGridPairs
)

// TablesRequest asks for a tables scoring (SPEC H): ground-truth files
// and either predicted files paired by id or a runs JSONL of
// {"model", "phase", "run", "table", "html" | "markdown" | "csv"}. A
// file's format is its extension's (.html, .md, .csv); its id is its
// name up to the first dot, or nothing when one file of each side is
// given, so that its tables are "#1", "#2", ….
type TablesRequest struct {
	GT     []api.File `json:"gt"`
	Pred   []api.File `json:"pred,omitempty"`
	Runs   api.File   `json:"runs,omitempty"`
	Model  string     `json:"model,omitempty"` // the cell's model for files paired by id
	Phase  string     `json:"phase,omitempty"`
	THAsTD bool       `json:"th_as_td,omitempty"`
	// ByID pairs files by id even when one file of each side is given
	// (the command line's folders).
	ByID   bool   `json:"by_id,omitempty"`
	Format string `json:"format,omitempty"` // json (default), csv or md
	Jobs   int    `json:"-"`                // tables scored at once (native hosts)
	api.IntervalOptions
}

// InputFiles lists the ground truth, the predictions, then the runs.
func (req *TablesRequest) InputFiles() []*api.File {
	var files []*api.File
	for i := range req.GT {
		files = append(files, &req.GT[i])
	}
	for i := range req.Pred {
		files = append(files, &req.Pred[i])
	}
	if req.Runs != (api.File{}) {
		files = append(files, &req.Runs)
	}
	return files
}

// ReportFormat is the format the request asks for.
func (req *TablesRequest) ReportFormat() string { return req.Format }

// Validate checks the interval options and that predictions come one way.
func (req *TablesRequest) Validate() error {
	if len(req.Pred) > 0 && req.Runs != (api.File{}) {
		return api.Paramf("runs", "give predicted files (pred) or a runs file (runs), not both")
	}
	return req.IntervalOptions.Validate()
}

var scoreTablesOp = api.Lazy{Define: func() api.Operation {
	return api.Define(api.Operation{
		Name:    "scoreTables",
		Route:   "/v1/score/tables",
		Doc:     `exactly "docscore score tables --format F"`,
		Formats: []string{"json", "csv", "md"},
		Family:  "tables",
		Command: "score tables",
		Inputs: []api.Input{
			{Name: "gt", Many: true, Required: true, Help: "one or more ground-truth table files (.html, .md or .csv)"},
			{Name: "pred", Many: true, Help: "predicted table files, paired with gt by id (the name up to the first dot)"},
			{Name: "runs", Help: "or a runs JSONL of {model, phase, run, table, html | markdown | csv}"},
		},
		Params: append(append([]api.Param{
			api.FormatParam,
			{Name: "th_as_td", Kind: api.Bool, Help: "read th as a td cell in TEDS (docling-eval's reading)"},
			{Name: "model", Kind: api.String, Help: "the model's name in the report (with --pred)"},
			{Name: "phase", Kind: api.String, Help: "the phase's name in the report (with --pred)"},
		}, api.IntervalParams("cell")...),
			api.Param{Name: "by_id", Flag: "-", Kind: api.Bool, Help: "pair pred with gt by id even when one file of each is given"},
		),
		Provenance: true,
	}, scoreTables)
}}

// Draws are the seed and bootstrap replicates the scoring uses, defaults
// included, for the report's provenance (SPEC F.8); no permutations.
func (req *TablesRequest) Draws() (uint64, int, int) {
	reps, _, seed := req.IntervalOptions.Settings()
	return seed, reps, 0
}

// DetailRequest asks for one table's drill-down: the two files holding
// it and its key in them ("#1" for the first table of a single file).
// PredTable is its key in the prediction when that differs: a runs
// line's table, given as a file of its own, is "#1" there (the page's
// tables view sends it so).
type DetailRequest struct {
	GT        api.File `json:"gt"`
	Pred      api.File `json:"pred"`
	Table     string   `json:"table,omitempty"`      // default "#1"
	PredTable string   `json:"pred_table,omitempty"` // default Table
	THAsTD    bool     `json:"th_as_td,omitempty"`
}

// InputFiles lists the ground truth, then the prediction.
func (req *DetailRequest) InputFiles() []*api.File { return []*api.File{&req.GT, &req.Pred} }

var detailOp = api.Lazy{Define: func() api.Operation {
	return api.Define(api.Operation{
		Name:   "tableDetail",
		Route:  "/v1/tables/detail",
		Family: "tables",
		Doc:    "one table's ground truth and prediction as grids, differing cells marked, with its TEDS and GriTS",
		Inputs: []api.Input{
			{Name: "gt", Required: true, Help: "the ground-truth table file"},
			{Name: "pred", Required: true, Help: "the predicted table file"},
		},
		Params: []api.Param{
			{Name: "table", Kind: api.String, Default: "#1", Help: "the table of gt to show: its key in the report (#1 for a file's first table)"},
			{Name: "pred_table", Kind: api.String, Help: "the table of pred to show, when its key differs from table's"},
			{Name: "th_as_td", Kind: api.Bool, Help: "read th as a td cell in TEDS (docling-eval's reading)"},
		},
	}, detail)
}}

// ScoreTablesOperation scores a TablesRequest: exactly the bytes of
// "docscore score tables --format F".
func ScoreTablesOperation() api.Operation { return scoreTablesOp.Get() }

// DetailOperation answers one table's drill-down (tables.Detail): its
// scores and both tables laid out on their grids, the cells that differ
// marked.
func DetailOperation() api.Operation { return detailOp.Get() }

// Operations lists the tables family's operations.
func Operations() []api.Operation {
	return []api.Operation{ScoreTablesOperation(), DetailOperation()}
}

func detail(ctx api.Cancel, req *DetailRequest) (*api.Result, error) {
	key := req.Table
	if key == "" {
		key = "#1"
	}
	var gt, pred tables.Side
	if err := addFile(&gt, req.GT, ""); err != nil {
		return nil, err
	}
	if err := addFile(&pred, req.Pred, ""); err != nil {
		return nil, err
	}
	g := gt.Tables[key]
	if g == nil {
		return nil, inputerr.New(req.GT.Name, 0, "no table %s (it holds %d)", key, len(gt.Keys))
	}
	pkey := req.PredTable
	if pkey == "" {
		pkey = key
	}
	d, err := tables.Detail(key, pred.Tables[pkey], g, tables.Options{THAsTD: req.THAsTD})
	if err != nil {
		return nil, err
	}
	return &api.Result{Value: d}, nil
}

// fileID is a file's id: its base name up to the first dot.
func fileID(name string) string {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	if i := strings.IndexByte(base, '.'); i >= 0 {
		return base[:i]
	}
	return base
}

func addFile(s *tables.Side, f api.File, id string) error {
	format, ok := tables.FormatOf(f.Name)
	if !ok {
		return inputerr.New(f.Name, 0, "unknown table file type: expected .html, .htm, .md, .markdown or .csv")
	}
	data, err := f.Bytes()
	if err != nil {
		return err
	}
	ts, err := tables.Parse(f.Name, string(data), format, tables.ParseOptions{})
	if err != nil {
		return err
	}
	if err := s.Add(id, ts); err != nil {
		return inputerr.New(f.Name, 0, "%v", err)
	}
	return nil
}

// side reads one side's files: ids from names unless single.
func side(files []api.File, single bool) (tables.Side, error) {
	var s tables.Side
	for _, f := range files {
		id := ""
		if !single {
			id = fileID(f.Name)
		}
		if err := addFile(&s, f, id); err != nil {
			return s, err
		}
	}
	return s, nil
}

// ScoreTables scores a request and returns the report in its format.
func ScoreTables(req TablesRequest) ([]byte, error) {
	res, err := ScoreTablesOperation().Run(api.NoCancel, &req)
	if err != nil {
		return nil, err
	}
	return res.Bytes, nil
}

// ScoreTablesReport is ScoreTablesOperation for native hosts that also
// want the typed report: the same checks, the same bytes.
func ScoreTablesReport(ctx api.Cancel, req *TablesRequest) (*api.Result, *tables.Report, error) {
	if err := ScoreTablesOperation().Check(ctx, req); err != nil {
		return nil, nil, err
	}
	res, rep, err := scoreTablesReport(ctx, req)
	if err == nil {
		err = ScoreTablesOperation().Stamp(req, res)
	}
	return res, rep, err
}

func scoreTables(ctx api.Cancel, req *TablesRequest) (*api.Result, error) {
	res, _, err := scoreTablesReport(ctx, req)
	return res, err
}

func scoreTablesReport(ctx api.Cancel, req *TablesRequest) (*api.Result, *tables.Report, error) {
	if len(req.GT) == 0 {
		return nil, nil, inputerr.New("", 0, "no ground truth given (expected .html, .md or .csv table files)")
	}
	runsMode := req.Runs != (api.File{})
	single := !req.ByID && len(req.GT) == 1 && (runsMode || len(req.Pred) <= 1)
	gt, err := side(req.GT, single)
	if err != nil {
		return nil, nil, err
	}
	var runs []tables.Run
	if runsMode {
		runs, err = readRuns(req.Runs)
	} else {
		var p tables.Side
		p, err = side(req.Pred, single)
		runs = []tables.Run{{Model: req.Model, Phase: req.Phase, Pred: p}}
	}
	if err != nil {
		return nil, nil, err
	}
	o := tables.Options{THAsTD: req.THAsTD, Jobs: req.Jobs, Err: ctx.Err}
	o.Bootstrap, o.CILevel, o.Seed = req.IntervalOptions.Settings()
	rep, err := tables.Score(gt, runs, o)
	if err != nil {
		return nil, nil, err
	}
	format := req.Format
	if format == "" {
		format = "json"
	}
	var b []byte
	switch format {
	case "json":
		b, err = rep.WriteJSON()
	case "csv":
		b, err = rep.WriteCSV()
	case "md":
		b, err = rep.WriteMarkdown()
	}
	if err != nil {
		return nil, nil, err
	}
	return &api.Result{Format: format, Bytes: b}, rep, nil
}

// runRecord is one line of a runs file.
type runRecord struct {
	Model    *string         `json:"model"`
	Phase    json.RawMessage `json:"phase"`
	Run      json.RawMessage `json:"run"`
	Table    *string         `json:"table"`
	HTML     *string         `json:"html"`
	Markdown *string         `json:"markdown"`
	CSV      *string         `json:"csv"`
}

// scalar is a JSON string's value or a number's text ("" for absent).
func scalar(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}

// readRuns reads a runs JSONL: each record one table of one (model,
// phase, run); a record whose table has no "#" holds the tables
// table#1, table#2, … of its content.
func readRuns(f api.File) ([]tables.Run, error) {
	data, err := f.Bytes()
	if err != nil {
		return nil, err
	}
	type mpr struct{ m, p, r string }
	index := map[mpr]int{}
	var runs []tables.Run
	ls := ingest.NewLines(f.Name, data)
	for ls.Next() {
		if bad := ls.BadLine(); bad != nil {
			return nil, bad
		}
		l := ls.Line()
		lineNo := l.No
		// lineErr is an error about the line's record: the caret under
		// its start.
		lineErr := func(format string, args ...any) *inputerr.Error {
			return inputerr.At(f.Name, lineNo, l.Indent+1, l.Source(), format, args...)
		}
		var rec runRecord
		if err := json.Unmarshal(l.Text, &rec); err != nil {
			return nil, ingest.LineJSONError(f.Name, l, err, "one JSON object a line")
		}
		if rec.Model == nil || rec.Table == nil {
			return nil, lineErr("expected \"model\" and \"table\" members")
		}
		text, format := "", tables.Format("")
		count := 0
		for _, c := range []struct {
			v *string
			f tables.Format
		}{{rec.HTML, tables.HTML}, {rec.Markdown, tables.Markdown}, {rec.CSV, tables.CSV}} {
			if c.v != nil {
				text, format = *c.v, c.f
				count++
			}
		}
		if count != 1 {
			return nil, lineErr("expected exactly one of \"html\", \"markdown\" or \"csv\"")
		}
		ts, err := tables.Parse(f.Name, text, format, tables.ParseOptions{})
		if err != nil {
			if ie, ok := inputerr.As(err); ok {
				return nil, lineErr("%s", ie.Msg)
			}
			return nil, err
		}
		k := mpr{*rec.Model, scalar(rec.Phase), scalar(rec.Run)}
		i, ok := index[k]
		if !ok {
			i = len(runs)
			index[k] = i
			runs = append(runs, tables.Run{Model: k.m, Phase: k.p, Run: k.r})
		}
		key := *rec.Table
		if strings.Contains(key, "#") {
			if len(ts) > 1 {
				return nil, lineErr("table %q names one table; the record holds %d", key, len(ts))
			}
			for j := range ts {
				ts[j].ID = ""
			}
		}
		if err := runs[i].Pred.Add(key, ts); err != nil {
			return nil, lineErr("%v", err)
		}
	}
	if err := ls.Err(); err != nil {
		return nil, err
	}
	return runs, nil
}
