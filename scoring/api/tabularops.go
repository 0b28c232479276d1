package api

import (
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
)

// The tabular family's operations (SPEC A), served by docscore.wasm, the
// HTTP API and the command line.
var (
	scoreTabularOp = Lazy{Define: func() Operation {
		return Define(Operation{
			Name:       "scoreTabular",
			Route:      "/v1/score/tabular",
			Doc:        `exactly "docscore score tabular --format F"`,
			Formats:    []string{"json", "csv", "md"},
			Family:     "tabular",
			Command:    "score tabular",
			Inputs:     tabularInputs,
			Params:     tabularParams,
			Provenance: true,
		}, scoreTabular)
	}}

	dropTabularOp = Lazy{Define: func() Operation {
		return Define(Operation{
			Name:    "dropTabular",
			Doc:     "the rule file's check and the summary of a tabular report, or why it was not scored",
			Formats: []string{"json"},
			Family:  "tabular",
			Inputs:  tabularInputs,
			Params:  tabularParams,
		}, dropTabular)
	}}

	checkRulesOp = Lazy{Define: func() Operation {
		return Define(Operation{
			Name:    "checkRules",
			Route:   "/v1/rules/check",
			Doc:     "the parsed rows, errors and warnings of a rule file",
			Family:  "tabular",
			Command: "rules check",
			Inputs: []Input{
				{Name: "rules", Required: true, Help: "the EQUIVALENCES.md rule file"},
				{Name: "gt", Many: true, Help: "ground-truth CSV files, for the ignore check"},
				{Name: "schema", Help: "a schema file for tables other than the default register"},
			},
		}, func(ctx Cancel, req *RulesCheckRequest) (*Result, error) {
			res, err := CheckRules(*req)
			if err != nil {
				return nil, err
			}
			return &Result{Value: res}, nil
		})
	}}

	tabularDetailOp = Lazy{Define: func() Operation {
		return Define(Operation{
			Name:   "tabularDetail",
			Route:  "/v1/tabular/detail",
			Doc:    "the drill-down of one image: its pairs, field values and differences",
			Family: "tabular",
			Inputs: tabularInputs,
			Params: append(append([]Param(nil), tabularParams...),
				Param{Name: "line", Kind: Int, Required: true, Help: "the image's line in the runs file"}),
		}, tabularDetail)
	}}
)

// ScoreTabularOperation scores a TabularRequest: the report, exactly
// the bytes of "docscore score tabular --format F".
func ScoreTabularOperation() Operation { return scoreTabularOp.Get() }

// DropTabularOperation is the page's call after a drop: the rule
// file's check and the report's summary in one answer (DropTabular).
func DropTabularOperation() Operation { return dropTabularOp.Get() }

// CheckRulesOperation checks a rule file: its rows, errors and
// warnings (RulesCheckResult).
func CheckRulesOperation() Operation { return checkRulesOp.Get() }

// TabularDetailOperation answers the drill-down of one image
// (tabular.ImageDetail).
func TabularDetailOperation() Operation { return tabularDetailOp.Get() }

// tabularInputs are the files of a tabular scoring.
var tabularInputs = []Input{
	{Name: "gt", Many: true, Required: true, Help: "one or more ground-truth CSV files"},
	{Name: "runs", Required: true, Help: "the runs JSONL file"},
	{Name: "rules", Help: "the EQUIVALENCES.md rule file"},
	{Name: "schema", Help: "a schema file for tables other than the default register"},
}

// tabularParams are the options of a tabular scoring.
var tabularParams = append(append([]Param{
	{Name: "gate", Kind: Float, Default: tabular.DefaultGate, Range: &param.Gate, Help: "name-similarity gate for a candidate pair"},
	{Name: "preview", Kind: String, Help: `switch OPEN rows on: "open" for all, or their line numbers "32,33"`},
	FormatParam,
	{Name: "skip_bad_lines", Kind: Bool, Help: "report and skip malformed runs lines instead of failing"},
	{Name: "skip_bad_inputs", Kind: Bool, Help: "score what is valid: leave out unreadable ground-truth files, bad rule rows and bad runs lines, and list them"},
}, IntervalParams("cell")...),
	Param{Name: "permutations", Kind: Int, Default: stats.DefaultPermutations, Range: &stats.RoundsRange, Help: "with --preview, randomization rounds of the p-values (0: none)"},
	Param{Name: "alpha", Kind: Float, Default: stats.DefaultAlpha, Range: &stats.AlphaRange, Help: "with --preview, significance level of the Holm-adjusted p-values, between 0 and 1"},
	Param{Name: "effect", Kind: Float, Default: 0.0, Range: &stats.EffectRange, Help: "with --preview, the difference each statistic's units_needed is computed for, e.g. 0.01"},
)

func tabularDetail(ctx Cancel, req *TabularDetailRequest) (*Result, error) {
	d, err := sessionOf(ctx).detail(req)
	if err != nil {
		return nil, err
	}
	return &Result{Value: d}, nil
}

// TabularOperations lists the tabular family's operations.
func TabularOperations() []Operation {
	return []Operation{ScoreTabularOperation(), DropTabularOperation(), CheckRulesOperation(), TabularDetailOperation()}
}

// InputFiles lists the rule file, the GT files and the schema.
func (req *RulesCheckRequest) InputFiles() []*File {
	files := []*File{&req.Rules}
	for i := range req.GT {
		files = append(files, &req.GT[i])
	}
	if req.Schema != nil {
		files = append(files, req.Schema)
	}
	return files
}

// ReportFormat is "": the drill-down is a JSON value whatever format the
// scoring request it carries names.
func (req *TabularDetailRequest) ReportFormat() string { return "" }
