package compareapi

import (
	"slices"
	"strings"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
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
	base, err := readReport(req.Base)
	if err != nil {
		return nil, err
	}
	return buildFrom(ctx, base, req, o)
}

// buildFrom is buildReport with the base report read.
func buildFrom(ctx api.Cancel, base *report, req *CompareRequest, o stats.Options) (*Report, error) {
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
	rep.Report, err = stats.CompareAll(base.family, pairs, o, ctx.Err)
	return rep, err
}

// reportPairs pairs every cell of base with the cell of the new report
// that has its model and phase, in base's order (SPEC F.6), and names the
// cells only one report has.
func reportPairs(base *report, newFile api.File) (pairs []stats.Pair, onlyBase, onlyNew []string, err error) {
	nw, err := readComparable(base, newFile)
	if err != nil {
		return nil, nil, nil, err
	}
	byKey := map[string]*cell{}
	for _, c := range nw.cells {
		byKey[c.key()] = c
	}
	inBase := map[string]bool{}
	for _, c := range base.cells {
		inBase[c.key()] = true
		if d := byKey[c.key()]; d != nil {
			pairs = append(pairs, stats.Pair{A: c.named(), B: d.named(), PrefixA: stats.BasePrefix, PrefixB: stats.NewPrefix})
		} else {
			onlyBase = append(onlyBase, c.key())
		}
	}
	for _, c := range nw.cells {
		if !inBase[c.key()] {
			onlyNew = append(onlyNew, c.key())
		}
	}
	if len(pairs) == 0 {
		return nil, nil, nil, inputerr.New(nw.file, 0, "has no cell in common with %s (%s has %s; %s has %s): compare reports of the same models and phases",
			base.file, base.file, cellList(base), nw.file, cellList(nw))
	}
	return pairs, onlyBase, onlyNew, nil
}

// readComparable reads the report to compare with base: one of its
// family, its fields (tabular) or structured metrics (receipts), and its
// spelling of every page both name.
func readComparable(base *report, f api.File) (*report, error) {
	nw, err := readReport(f)
	if err != nil {
		return nil, err
	}
	if base.family != nw.family {
		return nil, inputerr.New(nw.file, 0, "is a %s report and %s a %s report: compare two reports of one family", nw.family, base.file, base.family)
	}
	if base.family == "tabular" && !slices.Equal(base.fields, nw.fields) {
		return nil, inputerr.New(nw.file, 0, "scores the fields %s, %s scores %s: reports whose fields differ cannot be compared",
			strings.Join(nw.fields, ", "), base.file, strings.Join(base.fields, ", "))
	}
	if has, baseHas := nw.schema.Width > stats.RecTEDSum, base.schema.Width > stats.RecTEDSum; base.family == "receipts" && has != baseHas {
		return nil, inputerr.New(nw.file, 0, "has%s structured metrics and %s has%s: reports whose statistics differ cannot be compared",
			without(has), base.file, without(baseHas))
	}
	for n, page := range base.pages {
		if other, ok := nw.pages[n]; ok && other != page {
			return nil, inputerr.New(nw.file, 0, "spells page %q where %s spells it %q: compare needs one spelling of a page", other, base.file, page)
		}
	}
	return nw, nil
}

// previewPairs pairs every cell of the settled report with the same cell
// of the preview report (SPEC F.6): a draft-rule preview scores the same
// images twice, so both reports must be tabular and have the same cells,
// in the same order, on the same pages.
func previewPairs(settled *report, previewFile api.File) ([]stats.Pair, error) {
	if settled.family != "tabular" {
		return nil, inputerr.New(settled.file, 0, "is a %s report: a preview compares two tabular reports, the settled scoring and the preview (docscore score tabular, then with --preview)", settled.family)
	}
	pv, err := readComparable(settled, previewFile)
	if err != nil {
		return nil, err
	}
	if len(pv.cells) != len(settled.cells) {
		return nil, inputerr.New(pv.file, 0, "has the cells %s, %s has %s: a preview scores the same cells twice",
			cellList(pv), settled.file, cellList(settled))
	}
	named := make([]stats.Named, len(settled.cells))
	previews := make([]stats.Named, len(settled.cells))
	for i, c := range settled.cells {
		d := pv.cells[i]
		if c.key() != d.key() {
			return nil, inputerr.New(pv.file, 0, "has the cells %s, %s has %s: a preview scores the same cells twice",
				cellList(pv), settled.file, cellList(settled))
		}
		if a, b := c.stats.Units(), d.stats.Units(); !slices.Equal(a, b) {
			return nil, inputerr.New(pv.file, 0, "cell %s is on the pages %s, in %s on %s: a preview scores the same images twice",
				c.key(), strings.Join(b, ", "), settled.file, strings.Join(a, ", "))
		}
		named[i], previews[i] = c.named(), d.named()
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

func cellList(r *report) string {
	if len(r.cells) == 0 {
		return "no cells"
	}
	keys := make([]string, len(r.cells))
	for i, c := range r.cells {
		keys[i] = c.key()
	}
	return strings.Join(keys, ", ")
}

// withinPairs chooses the comparisons within one report: those named by
// pairs, or every two cells sharing a phase or a model (every two phases
// of a receipts report, one model's run), the first in report order as A
// (SPEC F.6).
func withinPairs(r *report, spec string) ([]stats.Pair, error) {
	var pairs []stats.Pair
	if spec == "" {
		for i, a := range r.cells {
			for _, b := range r.cells[i+1:] {
				// A receipts report is one model's run: its phases share it.
				if a.phase == b.phase || a.model == nil || *a.model == *b.model {
					pairs = append(pairs, stats.Pair{A: a.named(), B: b.named()})
				}
			}
		}
		if len(pairs) == 0 {
			return nil, inputerr.New(r.file, 0, "has no two cells sharing a phase or a model (%s): nothing to compare within it", cellList(r))
		}
		return pairs, nil
	}
	byKey := map[string]*cell{}
	for _, c := range r.cells {
		byKey[c.key()] = c
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
				found = append(found, stats.Pair{A: a.named(), B: b.named()})
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
			if r.family == "receipts" {
				want = "phase:phase"
			}
			return nil, api.Paramf("pairs", "%q: expected %s naming two cells of %s (%s)", item, want, r.file, cellList(r))
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
