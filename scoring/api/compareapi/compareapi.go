// Package compareapi is the comparison entry point of scoring/api (SPEC
// F.5, F.6): the request every host decodes — two reports of one family,
// or one report compared within itself — and the function that answers it
// with the exact bytes of "docscore compare". Package reportread reads the
// reports' own per-image (tabular) and per-page (receipts) rows, so no
// ground truth is needed, and package stats does the statistics. It is a package of
// its own so that the page's core (docscore.wasm) does not link it.
package compareapi

import (
	"strings"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/stats"
)

// CompareRequest asks for a comparison report (SPEC F.6). Base and New are
// the JSON reports of two "docscore score" runs of one family, compared
// cell by cell, base as A; with Within, Base alone is compared within
// itself (every two cells sharing a phase or a model, or the Pairs given);
// with Preview, Base is a tabular scoring with the settled rules and New
// the same scoring with OPEN rows previewed, compared cell by cell with
// ids prefixed settled: and preview: (SPEC F.6). Options left out take SPEC F's defaults (stats.DefaultOptions).
type CompareRequest struct {
	Base   api.File `json:"base"`
	New    api.File `json:"new"`
	Within bool     `json:"within,omitempty"`
	// Preview compares Base, settled, with New, its preview (tabular).
	Preview bool `json:"preview,omitempty"`
	// Pairs, with Within, names the comparisons to make instead of every
	// one: "A:B,…", each side model/phase (tabular) or phase (receipts).
	Pairs        string   `json:"pairs,omitempty"`
	Permutations *int     `json:"permutations,omitempty"` // R, default 10000; 0: no p-values
	Bootstrap    *int     `json:"bootstrap,omitempty"`    // B, default 2000; 0: no intervals
	Alpha        *float64 `json:"alpha,omitempty"`        // default 0.05, in (0, 1)
	CILevel      *float64 `json:"ci_level,omitempty"`     // default 0.95, in (0, 1)
	Seed         *uint64  `json:"seed,omitempty"`         // default 0
	// Effect is the difference each statistic's units_needed is computed
	// for (SPEC F.7); left out or 0, units_needed is left out.
	Effect *float64 `json:"effect,omitempty"`
	Format string   `json:"format,omitempty"` // json (default), csv, md or junit
}

// InputFiles lists the base report, then the new one unless Within.
func (req *CompareRequest) InputFiles() []*api.File {
	if req.Within {
		return []*api.File{&req.Base}
	}
	return []*api.File{&req.Base, &req.New}
}

// ReportFormat is the format the request asks for.
func (req *CompareRequest) ReportFormat() string { return req.Format }

// The ranges of the request's numeric options.
var (
	levelRange = param.Range{Lo: 0, Hi: 1, LoOpen: true, HiOpen: true, Want: "a number strictly between 0 and 1"}
	drawsRange = param.Range{Lo: 0, Hi: stats.MaxDraws, Want: "a whole number from 0 to 1000000"}
)

// Validate checks the options: each number within its range (package
// param), a new report unless Within, pairs only with Within. A bad
// option is an *api.ParamError naming it.
func (req *CompareRequest) Validate() error {
	for _, c := range []struct {
		name string
		v    *float64
	}{{"ci_level", req.CILevel}, {"alpha", req.Alpha}} {
		if c.v == nil {
			continue
		}
		if err := param.Float(c.name, *c.v, levelRange); err != nil {
			return &api.ParamError{Param: c.name, Msg: strings.TrimPrefix(err.Error(), c.name+" ")}
		}
	}
	if req.Effect != nil {
		if err := param.Float("effect", *req.Effect, stats.EffectRange); err != nil {
			return &api.ParamError{Param: "effect", Msg: strings.TrimPrefix(err.Error(), "effect ")}
		}
	}
	for _, c := range []struct {
		name string
		v    *int
	}{{"bootstrap", req.Bootstrap}, {"permutations", req.Permutations}} {
		if c.v != nil && !drawsRange.Contains(float64(*c.v)) {
			return api.Paramf(c.name, "%d: expected %s", *c.v, drawsRange)
		}
	}
	switch {
	case req.Within && req.Preview:
		return api.Paramf("preview", "given with within: a preview compares two reports, the settled scoring (base) and the preview (new)")
	case req.Within && !isEmptyFile(req.New):
		return api.Paramf("new", "given with within: compare two reports, or one report within itself")
	case !req.Within && isEmptyFile(req.New):
		return api.Paramf("new", "missing: expected the new report (JSON), or within: true to compare the base report within itself")
	case !req.Within && req.Pairs != "":
		return api.Paramf("pairs", "%q: pairs name cells of one report, with within: true", req.Pairs)
	}
	return nil
}

func isEmptyFile(f api.File) bool { return f == api.File{} }

// Options are the statistics' options the request asks for, SPEC F's
// defaults where it names none.
func (req *CompareRequest) Options() stats.Options {
	o := stats.DefaultOptions()
	if req.CILevel != nil {
		o.Level = *req.CILevel
	}
	if req.Alpha != nil {
		o.Alpha = *req.Alpha
	}
	if req.Bootstrap != nil {
		o.Replicates = *req.Bootstrap
	}
	if req.Permutations != nil {
		o.Permutations = *req.Permutations
	}
	if req.Seed != nil {
		o.Seed = *req.Seed
	}
	if req.Effect != nil {
		o.Effect = *req.Effect
	}
	return o
}

var compareOp = api.Lazy{Define: func() api.Operation {
	return api.Define(api.Operation{
		Name:    "compare",
		Route:   "/v1/compare",
		Doc:     `exactly "docscore compare --format F"`,
		Formats: []string{"json", "csv", "md", "junit"},
		Family:  "compare",
		Command: "compare",
		Inputs: []api.Input{
			{Name: "base", Arg: "BASE.json", Required: true, Binary: true, Help: "the baseline report: the JSON of docscore score tabular, receipts, tables or text"},
			{Name: "new", Arg: "NEW.json", Binary: true, Help: "the new report of the same family; left out with within"},
		},
		Params: []api.Param{
			api.FormatParam,
			{Name: "within", Kind: api.Bool, Help: "compare the cells of one report with each other"},
			{Name: "preview", Kind: api.Bool, Help: "compare a settled tabular scoring (A) with its draft-rule preview (B)"},
			{Name: "pairs", Kind: api.String, Help: `with --within, the comparisons to make: "A:B,…" (model/phase, or a receipts phase)`},
			{Name: "permutations", Kind: api.Int, Default: stats.DefaultPermutations, Range: &drawsRange, Help: "randomization rounds for the p-values (0: no p-values)"},
			{Name: "bootstrap", Kind: api.Int, Default: stats.DefaultReplicates, Range: &drawsRange, Help: "bootstrap replicates for the intervals (0: no intervals)"},
			{Name: "alpha", Kind: api.Float, Default: stats.DefaultAlpha, Range: &levelRange, Help: "significance threshold on Holm-adjusted p-values, strictly between 0 and 1"},
			{Name: "ci_level", Kind: api.Float, Default: stats.DefaultLevel, Range: &levelRange, Help: "confidence level of the intervals, strictly between 0 and 1"},
			{Name: "seed", Kind: api.Uint, Default: uint64(0), Help: "seed of the random streams"},
			{Name: "effect", Kind: api.Float, Default: 0.0, Range: &stats.EffectRange, Help: "the difference each statistic's units_needed is computed for, e.g. 0.01 (SPEC F.7)"},
		},
		Provenance: true,
	}, compare)
}}

// CompareOperation answers a CompareRequest: the comparison report,
// exactly the bytes of "docscore compare --format F".
func CompareOperation() api.Operation { return compareOp.Get() }

// Operations lists the comparison operations: compare and plan.
func Operations() []api.Operation { return []api.Operation{CompareOperation(), PlanOperation()} }

func compare(ctx api.Cancel, req *CompareRequest) (*api.Result, error) {
	res, _, err := compareReport(ctx, req)
	return res, err
}

// CompareReport is CompareOperation for native hosts that also want the
// typed report (the command line's --fail-on-regression reads it, and
// warns about the cells only one report has): the same checks, the same
// bytes.
func CompareReport(ctx api.Cancel, req *CompareRequest) (*api.Result, *Report, error) {
	if err := CompareOperation().Check(ctx, req); err != nil {
		return nil, nil, err
	}
	res, rep, err := compareReport(ctx, req)
	if err == nil {
		err = CompareOperation().Stamp(req, res)
	}
	return res, rep, err
}

// ProvenanceOptions are the comparison's options that change numbers,
// as they take effect: which comparisons (within, preview, pairs), the
// interval level, α and the effect (SPEC F.8).
func (req *CompareRequest) ProvenanceOptions() []provenance.Option {
	o := req.Options()
	return []provenance.Option{api.Option("within", req.Within), api.Option("preview", req.Preview), api.Option("pairs", req.Pairs),
		api.Option("ci_level", o.Level), api.Option("alpha", o.Alpha), api.Option("effect", o.Effect)}
}

// Draws are the comparison's seed, replicates and permutations (SPEC
// F.8).
func (req *CompareRequest) Draws() (uint64, int, int) {
	o := req.Options()
	return o.Seed, o.Replicates, o.Permutations
}

func compareReport(ctx api.Cancel, req *CompareRequest) (*api.Result, *Report, error) {
	o := req.Options()
	rep, err := buildReport(ctx, req, o)
	if err != nil {
		return nil, nil, err
	}
	format := req.Format
	if format == "" {
		format = "json"
	}
	b, err := render(rep.Report, format, sideNames(req))
	if err != nil {
		return nil, nil, err
	}
	return &api.Result{Format: format, Bytes: b}, rep, nil
}
