package api

// The tabular family's operations (SPEC A), served by docscore.wasm, the
// HTTP API and the command line.
var (
	// ScoreTabularOperation scores a TabularRequest: the report, exactly
	// the bytes of "docscore score tabular --format F".
	ScoreTabularOperation = Define(Operation{
		Name:    "scoreTabular",
		Route:   "/v1/score/tabular",
		Doc:     `exactly "docscore score tabular --format F"`,
		Formats: []string{"json", "csv", "md"},
		Required: []Field{
			{"gt", "one or more ground-truth CSV files"},
			{"runs", "the runs JSONL file"},
		},
		Query: []string{"gate", "preview", "format", "skip_bad_lines", "skip_bad_inputs", "bootstrap", "ci_level", "seed", "permutations", "alpha", "effect"},
	}, scoreTabular)

	// DropTabularOperation is the page's call after a drop: the rule
	// file's check and the report's summary in one answer (DropTabular).
	DropTabularOperation = Define(Operation{
		Name:    "dropTabular",
		Doc:     "the rule file's check and the summary of a tabular report, or why it was not scored",
		Formats: []string{"json"},
		Required: []Field{
			{"gt", "one or more ground-truth CSV files"},
			{"runs", "the runs JSONL file"},
		},
	}, dropTabular)

	// CheckRulesOperation checks a rule file: its rows, errors and
	// warnings (RulesCheckResult).
	CheckRulesOperation = Define(Operation{
		Name:     "checkRules",
		Route:    "/v1/rules/check",
		Doc:      "the parsed rows, errors and warnings of a rule file",
		Required: []Field{{"rules", "the EQUIVALENCES.md rule file"}},
	}, func(ctx Cancel, req *RulesCheckRequest) (*Result, error) {
		res, err := CheckRules(*req)
		if err != nil {
			return nil, err
		}
		return &Result{Value: res}, nil
	})

	// TabularDetailOperation answers the drill-down of one image
	// (tabular.ImageDetail).
	TabularDetailOperation = Define(Operation{
		Name:  "tabularDetail",
		Route: "/v1/tabular/detail",
		Doc:   "the drill-down of one image: its pairs, field values and differences",
		Required: []Field{
			{"gt", "one or more ground-truth CSV files"},
			{"runs", "the runs JSONL file"},
			{"line", "the image's line in the runs file"},
		},
	}, tabularDetail)
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
	return []Operation{ScoreTabularOperation, DropTabularOperation, CheckRulesOperation, TabularDetailOperation}
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
