package compareapi

import (
	"slices"
	"strings"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/reportread"
	"github.com/docscore/docscore/scoring/stats"
)

// Report is a comparison report with the cells it left out: SPEC F.6
// compares the cells two reports both have.
type Report struct {
	*stats.Report
	// OnlyBase and OnlyNew name the cells (model/phase, or a receipts
	// phase) only the base or only the new report has, in report order.
	OnlyBase, OnlyNew []string
}

// buildReport reads the request's reports, chooses the comparisons of
// SPEC F.6 and runs them.
func buildReport(ctx api.Cancel, req *CompareRequest, o stats.Options) (*Report, error) {
	base, err := reportread.Read(req.Base)
	if err != nil {
		return nil, err
	}
	return buildFrom(ctx, base, req, o)
}

// buildFrom is buildReport with the base report read.
func buildFrom(ctx api.Cancel, base *reportread.Report, req *CompareRequest, o stats.Options) (*Report, error) {
	var err error
	rep := &Report{}
	var pairs []stats.Pair
	switch {
	case req.Within:
		pairs, err = withinPairs(base, req.Pairs)
	case req.Preview:
		pairs, err = previewPairs(base, req.New)
	default:
		pairs, rep.OnlyBase, rep.OnlyNew, err = reportPairs(base, req.New)
	}
	if err != nil {
		return nil, err
	}
	if err := checkWork(ctx, pairs, o); err != nil {
		return nil, err
	}
	rep.Report, err = stats.CompareAll(base.Family, pairs, o, ctx.Err)
	return rep, err
}

// reportPairs pairs every cell of base with the cell of the new report
// that has its model and phase, in base's order (SPEC F.6), and names the
// cells only one report has.
func reportPairs(base *reportread.Report, newFile api.File) (pairs []stats.Pair, onlyBase, onlyNew []string, err error) {
	nw, err := readComparable(base, newFile)
	if err != nil {
		return nil, nil, nil, err
	}
	byKey := map[string]*reportread.Cell{}
	for _, c := range nw.Cells {
		byKey[c.Key()] = c
	}
	inBase := map[string]bool{}
	for _, c := range base.Cells {
		inBase[c.Key()] = true
		if d := byKey[c.Key()]; d != nil {
			pairs = append(pairs, stats.Pair{A: c.Named(), B: d.Named(), PrefixA: stats.BasePrefix, PrefixB: stats.NewPrefix})
		} else {
			onlyBase = append(onlyBase, c.Key())
		}
	}
	for _, c := range nw.Cells {
		if !inBase[c.Key()] {
			onlyNew = append(onlyNew, c.Key())
		}
	}
	if len(pairs) == 0 {
		return nil, nil, nil, inputerr.New(nw.File, 0, "has no cell in common with %s (%s has %s; %s has %s): compare reports of the same models and phases",
			base.File, base.File, cellList(base), nw.File, cellList(nw))
	}
	return pairs, onlyBase, onlyNew, nil
}

// readComparable reads the report to compare with base: one of its
// family, its fields (tabular) or structured metrics (receipts), and its
// spelling of every page both name.
func readComparable(base *reportread.Report, f api.File) (*reportread.Report, error) {
	nw, err := reportread.Read(f)
	if err != nil {
		return nil, err
	}
	if base.Family != nw.Family {
		return nil, inputerr.New(nw.File, 0, "is a %s report and %s a %s report: compare two reports of one family", nw.Family, base.File, base.Family)
	}
	if base.Family == "tabular" && !slices.Equal(base.Fields, nw.Fields) {
		return nil, inputerr.New(nw.File, 0, "scores the fields %s, %s scores %s: reports whose fields differ cannot be compared",
			strings.Join(nw.Fields, ", "), base.File, strings.Join(base.Fields, ", "))
	}
	if has, baseHas := nw.Schema.Width > stats.RecTEDSum, base.Schema.Width > stats.RecTEDSum; base.Family == "receipts" && has != baseHas {
		return nil, inputerr.New(nw.File, 0, "has%s structured metrics and %s has%s: reports whose statistics differ cannot be compared",
			without(has), base.File, without(baseHas))
	}
	for n, page := range base.Pages {
		if other, ok := nw.Pages[n]; ok && other != page {
			return nil, inputerr.New(nw.File, 0, "spells page %q where %s spells it %q: compare needs one spelling of a page", other, base.File, page)
		}
	}
	return nw, nil
}

// previewPairs pairs every cell of the settled report with the same cell
// of the preview report (SPEC F.6): a draft-rule preview scores the same
// images twice, so both reports must be tabular and have the same cells,
// in the same order, on the same pages.
func previewPairs(settled *reportread.Report, previewFile api.File) ([]stats.Pair, error) {
	if settled.Family != "tabular" {
		return nil, inputerr.New(settled.File, 0, "is a %s report: a preview compares two tabular reports, the settled scoring and the preview (docscore score tabular, then with --preview)", settled.Family)
	}
	pv, err := readComparable(settled, previewFile)
	if err != nil {
		return nil, err
	}
	if len(pv.Cells) != len(settled.Cells) {
		return nil, inputerr.New(pv.File, 0, "has the cells %s, %s has %s: a preview scores the same cells twice",
			cellList(pv), settled.File, cellList(settled))
	}
	named := make([]stats.Named, len(settled.Cells))
	previews := make([]stats.Named, len(settled.Cells))
	for i, c := range settled.Cells {
		d := pv.Cells[i]
		if c.Key() != d.Key() {
			return nil, inputerr.New(pv.File, 0, "has the cells %s, %s has %s: a preview scores the same cells twice",
				cellList(pv), settled.File, cellList(settled))
		}
		if a, b := c.Stats.Units(), d.Stats.Units(); !slices.Equal(a, b) {
			return nil, inputerr.New(pv.File, 0, "cell %s is on the pages %s, in %s on %s: a preview scores the same images twice",
				c.Key(), strings.Join(b, ", "), settled.File, strings.Join(a, ", "))
		}
		named[i], previews[i] = c.Named(), d.Named()
	}
	return stats.PreviewPairs(named, previews)
}

// without is "" when has, else " no".
func without(has bool) string {
	if has {
		return ""
	}
	return " no"
}

func cellList(r *reportread.Report) string {
	if len(r.Cells) == 0 {
		return "no cells"
	}
	keys := make([]string, len(r.Cells))
	for i, c := range r.Cells {
		keys[i] = c.Key()
	}
	return strings.Join(keys, ", ")
}

// withinPairs chooses the comparisons within one report: those named by
// pairs, or every two cells sharing a phase or a model (every two phases
// of a receipts report, one model's run), the first in report order as A
// (SPEC F.6).
func withinPairs(r *reportread.Report, spec string) ([]stats.Pair, error) {
	var pairs []stats.Pair
	if spec == "" {
		for i, a := range r.Cells {
			for _, b := range r.Cells[i+1:] {
				// A receipts report is one model's run: its phases share it.
				if a.Phase == b.Phase || a.Model == nil || *a.Model == *b.Model {
					pairs = append(pairs, stats.Pair{A: a.Named(), B: b.Named()})
				}
			}
		}
		if len(pairs) == 0 {
			return nil, inputerr.New(r.File, 0, "has no two cells sharing a phase or a model (%s): nothing to compare within it", cellList(r))
		}
		return pairs, nil
	}
	byKey := map[string]*reportread.Cell{}
	for _, c := range r.Cells {
		byKey[c.Key()] = c
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		// A model name may hold a colon (llama3:8b): take the one split
		// whose both sides name cells.
		var found []stats.Pair
		for i := range len(item) {
			if item[i] != ':' {
				continue
			}
			a, b := byKey[item[:i]], byKey[item[i+1:]]
			if a != nil && b != nil {
				found = append(found, stats.Pair{A: a.Named(), B: b.Named()})
			}
		}
		switch {
		case len(found) == 1 && found[0].A.Cell == found[0].B.Cell:
			return nil, api.Paramf("pairs", "%q compares a cell with itself", item)
		case len(found) == 1:
			pairs = append(pairs, found[0])
		case len(found) > 1:
			return nil, api.Paramf("pairs", "%q can be read as more than one pair of cells", item)
		default:
			want := "model/phase:model/phase"
			if r.Family == "receipts" {
				want = "phase:phase"
			}
			return nil, api.Paramf("pairs", "%q: expected %s naming two cells of %s (%s)", item, want, r.File, cellList(r))
		}
	}
	return pairs, nil
}

// drawsPerPair is how many unit draws of a replicate count as one name
// pair of a tabular scoring against a host's work cap: a draw adds one
// unit's sums (about 30 ns), a name pair is compared in one to a few
// microseconds.
const drawsPerPair = 100

// checkWork refuses, on a host that caps work (api.Bounded: the HTTP API),
// a comparison whose replicates and rounds would draw more units than the
// cap allows: (bootstrap + permutations) × units, summed over the
// comparisons. The command line has no cap.
func checkWork(ctx api.Cancel, pairs []stats.Pair, o stats.Options) error {
	b, ok := ctx.(api.Bounded)
	if !ok || b.WorkLimits().MaxPairs <= 0 {
		return nil
	}
	limit := b.WorkLimits().MaxPairs * drawsPerPair
	var draws int64
	for _, p := range pairs {
		units := int64(len(p.A.Cell.Units()) + len(p.B.Cell.Units()))
		draws += int64(o.Replicates+o.Permutations) * units
		if draws > limit {
			return &workLimitError{inputerr.New("", 0, "the comparison draws more than %d units ((bootstrap + permutations) × pages, over its comparisons), this host's limit: a job this big belongs to the command line (docscore compare), which has no limit", limit)}
		}
	}
	return nil
}

// workLimitError is checkWork's refusal: an input error whose code is
// "too_much_work" in every host's error body (a 422 in the HTTP API).
type workLimitError struct{ input *inputerr.Error }

func (e *workLimitError) Error() string     { return e.input.Error() }
func (e *workLimitError) Unwrap() error     { return e.input }
func (e *workLimitError) ErrorCode() string { return "too_much_work" }
