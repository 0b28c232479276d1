package compareapi

import (
	"slices"
	"strings"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/stats"
)

// pair is one comparison to make: cell a (baseline) against cell b, each
// with its id prefix.
type pair struct {
	a, b             *cell
	prefixA, prefixB string
}

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
	var pairs []pair
	if req.Within {
		pairs, err = withinPairs(base, req.Pairs)
	} else {
		pairs, rep.OnlyBase, rep.OnlyNew, err = reportPairs(base, req.New)
	}
	if err != nil {
		return nil, err
	}
	if err := checkWork(ctx, pairs, o); err != nil {
		return nil, err
	}
	cs := make([]*stats.Comparison, 0, len(pairs))
	for _, p := range pairs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a, sideA := p.a.side(p.prefixA)
		b, sideB := p.b.side(p.prefixB)
		c, err := stats.Compare(a, b, o)
		if err != nil {
			return nil, err
		}
		c.A, c.B = sideA, sideB
		cs = append(cs, c)
	}
	rep.Report, err = stats.NewReport(base.family, o, cs)
	return rep, err
}

// reportPairs pairs every cell of base with the cell of the new report
// that has its model and phase, in base's order (SPEC F.6), and names the
// cells only one report has.
func reportPairs(base *report, newFile api.File) (pairs []pair, onlyBase, onlyNew []string, err error) {
	nw, err := readReport(newFile)
	if err != nil {
		return nil, nil, nil, err
	}
	if base.family != nw.family {
		return nil, nil, nil, inputerr.New(nw.file, 0, "is a %s report and %s a %s report: compare two reports of one family", nw.family, base.file, base.family)
	}
	if base.family == "tabular" && !slices.Equal(base.fields, nw.fields) {
		return nil, nil, nil, inputerr.New(nw.file, 0, "scores the fields %s, %s scores %s: reports whose fields differ cannot be compared",
			strings.Join(nw.fields, ", "), base.file, strings.Join(base.fields, ", "))
	}
	if has, baseHas := nw.schema.Width > stats.RecTEDSum, base.schema.Width > stats.RecTEDSum; base.family == "receipts" && has != baseHas {
		return nil, nil, nil, inputerr.New(nw.file, 0, "has%s structured metrics and %s has%s: reports whose statistics differ cannot be compared",
			without(has), base.file, without(baseHas))
	}
	for n, page := range base.pages {
		if other, ok := nw.pages[n]; ok && other != page {
			return nil, nil, nil, inputerr.New(nw.file, 0, "spells page %q where %s spells it %q: compare needs one spelling of a page", other, base.file, page)
		}
	}
	byKey := map[string]*cell{}
	for _, c := range nw.cells {
		byKey[c.key()] = c
	}
	inBase := map[string]bool{}
	for _, c := range base.cells {
		inBase[c.key()] = true
		if d := byKey[c.key()]; d != nil {
			pairs = append(pairs, pair{a: c, b: d, prefixA: stats.BasePrefix, prefixB: stats.NewPrefix})
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
func withinPairs(r *report, spec string) ([]pair, error) {
	var pairs []pair
	if spec == "" {
		for i, a := range r.cells {
			for _, b := range r.cells[i+1:] {
				// A receipts report is one model's run: its phases share it.
				if a.phase == b.phase || a.model == nil || *a.model == *b.model {
					pairs = append(pairs, pair{a: a, b: b})
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
		var found []pair
		for i := range len(item) {
			if item[i] != ':' {
				continue
			}
			a, b := byKey[item[:i]], byKey[item[i+1:]]
			if a != nil && b != nil {
				found = append(found, pair{a: a, b: b})
			}
		}
		switch {
		case len(found) == 1 && found[0].a == found[0].b:
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
func checkWork(ctx api.Cancel, pairs []pair, o stats.Options) error {
	b, ok := ctx.(api.Bounded)
	if !ok || b.WorkLimits().MaxPairs <= 0 {
		return nil
	}
	limit := b.WorkLimits().MaxPairs * drawsPerPair
	var draws int64
	for _, p := range pairs {
		units := int64(len(p.a.stats.Units()) + len(p.b.stats.Units()))
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
