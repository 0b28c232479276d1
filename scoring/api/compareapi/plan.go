package compareapi

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/stats"
)

// PlanRequest asks how much a report's sample can tell (SPEC F.7): for
// every two cells of the report that share a phase (models) or a model
// (phases), or the Pairs given, and every statistic, the minimum
// detectable effect now, the floor of the test's p-value, whether the
// comparison can be significant at all, and with Effect the paired units
// needed to detect that difference.
type PlanRequest struct {
	Report api.File `json:"report"`
	// Pairs names the cell pairs instead of every one, as compare's
	// --pairs: "A:B,…".
	Pairs  string   `json:"pairs,omitempty"`
	Effect *float64 `json:"effect,omitempty"` // the difference to plan for, e.g. 0.01
	Alpha  *float64 `json:"alpha,omitempty"`  // default 0.05, in (0, 1)
	Format string   `json:"format,omitempty"` // json (default) or md
}

// InputFiles lists the report.
func (req *PlanRequest) InputFiles() []*api.File { return []*api.File{&req.Report} }

// ReportFormat is the format the request asks for.
func (req *PlanRequest) ReportFormat() string { return req.Format }

// Validate checks alpha and effect.
func (req *PlanRequest) Validate() error {
	if req.Alpha != nil {
		if err := param.Float("alpha", *req.Alpha, stats.AlphaRange); err != nil {
			return &api.ParamError{Param: "alpha", Msg: err.Error()[len("alpha "):]}
		}
	}
	if req.Effect != nil {
		if err := param.Float("effect", *req.Effect, stats.EffectRange); err != nil {
			return &api.ParamError{Param: "effect", Msg: err.Error()[len("effect "):]}
		}
	}
	return nil
}

// ProvenanceOptions are the plan's options as they take effect (SPEC
// F.8): the pairs, α and the effect.
func (req *PlanRequest) ProvenanceOptions() []provenance.Option {
	alpha, effect := stats.DefaultAlpha, 0.0
	if req.Alpha != nil {
		alpha = *req.Alpha
	}
	if req.Effect != nil {
		effect = *req.Effect
	}
	return []provenance.Option{api.Option("pairs", req.Pairs), api.Option("alpha", alpha), api.Option("effect", effect)}
}

var planOp = api.Lazy{Define: func() api.Operation {
	return api.Define(api.Operation{
		Name:    "plan",
		Route:   "/v1/plan",
		Doc:     `exactly "docscore plan --format F"`,
		Formats: []string{"json", "md"},
		Family:  "compare",
		Command: "plan",
		Inputs: []api.Input{
			{Name: "report", Arg: "REPORT.json", Required: true, Binary: true, Help: "a report: the JSON of docscore score tabular or score receipts"},
		},
		Params: []api.Param{
			api.FormatParam,
			{Name: "pairs", Kind: api.String, Help: `the cell pairs to plan: "A:B,…" (model/phase, or a receipts phase)`},
			{Name: "effect", Kind: api.Float, Default: 0.0, Range: &stats.EffectRange, Help: "the difference to plan for, e.g. 0.01: the paired pages it needs"},
			{Name: "alpha", Kind: api.Float, Default: stats.DefaultAlpha, Range: &stats.AlphaRange, Help: "significance threshold on Holm-adjusted p-values, strictly between 0 and 1"},
		},
		Provenance: true,
	}, plan)
}}

// PlanOperation answers a PlanRequest: exactly the bytes of "docscore
// plan REPORT.json --format F".
func PlanOperation() api.Operation { return planOp.Get() }

func plan(ctx api.Cancel, req *PlanRequest) (*api.Result, error) {
	o := stats.DefaultOptions()
	// No draws: the floor, the MDE and the units needed come from the
	// paired units themselves.
	o.Replicates, o.Permutations = 0, 0
	if req.Alpha != nil {
		o.Alpha = *req.Alpha
	}
	if req.Effect != nil {
		o.Effect = *req.Effect
	}
	rep, err := buildReport(ctx, &CompareRequest{Base: req.Report, Within: true, Pairs: req.Pairs}, o)
	if err != nil {
		return nil, err
	}
	format := req.Format
	if format == "" {
		format = "json"
	}
	var b []byte
	if format == "md" {
		b = planMarkdown(rep.Report)
	} else {
		b, err = planJSON(rep.Report)
	}
	if err != nil {
		return nil, err
	}
	return &api.Result{Format: format, Bytes: b}, nil
}

// planJSON writes the plan:
//
//	{"kind": "plan", "family", "alpha", "power": 0.8, "effect" (when
//	 given), "plans": [{"a", "b", "units_paired", "stats": {"f1":
//	 {"delta", "units_differ", "min_p", "can_be_significant", "mde",
//	 "units_needed", "units_more"}, …}}]}
//
// units_needed and units_more (how many more paired units than now) only
// with an effect, null when the difference cannot be planned for.
func planJSON(r *stats.Report) ([]byte, error) {
	jw := jsonout.NewWriter(1024 + 1024*len(r.Comparisons))
	jw.Open('{')
	jw.Key("kind")
	jw.String("plan")
	jw.Key("family")
	jw.String(r.Family)
	jw.Key("alpha")
	jw.Float(r.Alpha)
	jw.Key("power")
	jw.Float(stats.Power)
	if r.Effect > 0 {
		jw.Key("effect")
		jw.Float(r.Effect)
	}
	jw.Key("plans")
	jw.Open('[')
	for _, c := range r.Comparisons {
		jw.Elem()
		jw.Open('{')
		jw.Key("a")
		jw.Value(c.A)
		jw.Key("b")
		jw.Value(c.B)
		jw.Key("units_paired")
		jw.Int(c.UnitsPaired)
		jw.Key("stats")
		jw.Open('{')
		group := ""
		for i := range c.Stats {
			s := &c.Stats[i]
			if s.Group != group {
				if group != "" {
					jw.Close('}')
				}
				if group = s.Group; group != "" {
					jw.Key(group)
					jw.Open('{')
				}
			}
			jw.Key(s.Name)
			jw.Open('{')
			jw.Key("delta")
			jw.OptFloat(s.Delta)
			jw.Key("units_differ")
			jw.Int(s.UnitsDiffer)
			jw.Key("min_p")
			jw.Float(s.MinP)
			jw.Key("can_be_significant")
			jw.Bool(s.CanBeSignificant)
			jw.Key("mde")
			jw.OptFloat(s.MDE)
			if r.Effect > 0 {
				jw.Key("units_needed")
				if s.UnitsNeeded == nil {
					jw.Null()
					jw.Key("units_more")
					jw.Null()
				} else {
					jw.Int(*s.UnitsNeeded)
					jw.Key("units_more")
					jw.Int(max(0, *s.UnitsNeeded-c.UnitsPaired))
				}
			}
			jw.Close('}')
		}
		if group != "" {
			jw.Close('}')
		}
		jw.Close('}')
		jw.Close('}')
	}
	jw.Close(']')
	jw.Close('}')
	return jw.Bytes()
}

// planMarkdown writes the plan as a table, then what cannot be
// significant in words.
func planMarkdown(r *stats.Report) []byte {
	var b bytes.Buffer
	unit := units(r, 1)
	fmt.Fprintf(&b, "# What the %s sample can tell\n\n", r.Family)
	fmt.Fprintf(&b, "For every two cells sharing a phase or a model: the smallest difference the test detects 80%% of the time at α = %g (mde) on the paired %ss", r.Alpha, unit)
	if r.Effect > 0 {
		fmt.Fprintf(&b, ", and the paired %ss a difference of %g needs", unit, r.Effect)
	}
	b.WriteString(".\n\n")
	if r.Effect > 0 {
		fmt.Fprintf(&b, "| cells | statistic | %ss | differ | min p | can be significant | mde | needed for ±%g | more |\n", unit, r.Effect)
		b.WriteString("|---|---|---:|---:|---:|---|---:|---:|---:|\n")
	} else {
		fmt.Fprintf(&b, "| cells | statistic | %ss | differ | min p | can be significant | mde |\n", unit)
		b.WriteString("|---|---|---:|---:|---:|---|---:|\n")
	}
	for _, c := range r.Comparisons {
		for i := range c.Stats {
			s := &c.Stats[i]
			can := "no"
			if s.CanBeSignificant {
				can = "yes"
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %s |", mdCell(title(c)), mdCell(s.Path()), c.UnitsPaired, s.UnitsDiffer,
				strconv.FormatFloat(s.MinP, 'g', 4, 64), can, f4(s.MDE))
			if r.Effect > 0 {
				need, more := "–", "–"
				if s.UnitsNeeded != nil {
					need = strconv.Itoa(*s.UnitsNeeded)
					more = strconv.Itoa(max(0, *s.UnitsNeeded-c.UnitsPaired))
				}
				fmt.Fprintf(&b, " %s | %s |", need, more)
			}
			b.WriteString("\n")
		}
	}
	if lim := r.Limits(unit, title); len(lim) > 0 {
		b.WriteString("\nWhat cannot be significant, however large the difference (p has a floor of 2^(1−n), n the paired " + unit + "s that differ):\n\n")
		for _, l := range lim {
			b.WriteString("- " + l + "\n")
		}
	}
	return b.Bytes()
}
