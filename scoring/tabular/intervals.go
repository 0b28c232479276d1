package tabular

import (
	"strings"

	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// Intervals are the settings of the cells' confidence intervals (SPEC
// F.4) and of a preview's comparison (SPEC F.5, F.6). The zero value
// computes none; hosts apply SPEC's defaults (stats.DefaultReplicates,
// stats.DefaultPermutations) when a request leaves them out.
type Intervals struct {
	// Bootstrap is the number of bootstrap replicates; 0 computes no
	// intervals (the cells have no "ci" member).
	Bootstrap int
	// CILevel is the intervals' confidence level, in (0, 1); 0 means
	// stats.DefaultLevel.
	CILevel float64
	// Stop, when set, is asked between bootstrap replicates and
	// randomization rounds (stats.Options.Stop); the scorings set it to
	// their context's Err when it is nil.
	Stop func() error
	// Seed is xored into each cell's random stream (--seed).
	Seed uint64
	// Permutations is the number of randomization rounds of a preview's
	// p-values; 0 computes none. With Bootstrap 0 too, a preview has no
	// "comparison".
	Permutations int
	// Alpha is the significance level of a preview's Holm-adjusted
	// p-values, in (0, 1); 0 means stats.DefaultAlpha.
	Alpha float64
	// Effect is the difference a preview's units_needed is computed for
	// (--effect, SPEC F.7); 0 leaves units_needed out.
	Effect float64
}

// options checks the settings (as --bootstrap, --ci-level, --permutations
// and --alpha) and returns them as package stats takes them.
func (iv Intervals) options() (stats.Options, error) {
	o, err := stats.ComparisonOptions(iv.Bootstrap, iv.Permutations, iv.CILevel, iv.Alpha, iv.Seed)
	o.Effect = iv.Effect
	o.Stop = iv.Stop
	if err == nil {
		err = o.Validate()
	}
	return o, err
}

// SameSettings reports whether iv and o ask for the same intervals:
// every setting but Stop is equal.
func (iv Intervals) SameSettings(o Intervals) bool {
	return iv.Bootstrap == o.Bootstrap && iv.CILevel == o.CILevel && iv.Seed == o.Seed &&
		iv.Permutations == o.Permutations && iv.Alpha == o.Alpha && iv.Effect == o.Effect
}

// StoppedBy returns iv with Stop set to ctx's Err when it has none.
func (iv Intervals) StoppedBy(ctx Canceler) Intervals {
	if iv.Stop == nil && ctx != nil {
		iv.Stop = ctx.Err
	}
	return iv
}

// withIntervals adds the cells' intervals to a finished report.
func withIntervals(rep *tabularreport.Report, iv Intervals) (*tabularreport.Report, error) {
	if err := addIntervals(rep.Fields, rep.Cells, rep.Images, iv); err != nil {
		return nil, err
	}
	return rep, nil
}

// addIntervals sets each cell's CI from its images' units (intervalAcc).
func addIntervals(fields []string, cells []*tabularreport.Cell, images []*tabularreport.ImageScore, iv Intervals) error {
	if iv.Bootstrap == 0 {
		// Cells reused from an earlier scoring (ScoreReusing) may hold
		// that scoring's intervals.
		for _, c := range cells {
			c.CI = nil
		}
		return nil
	}
	acc, err := NewIntervalAcc(fields, iv)
	if err != nil {
		return err
	}
	for _, im := range images {
		if err := acc.Add(im); err != nil {
			return err
		}
	}
	return acc.Finish(cells)
}

// IntervalAcc gathers the per-unit contributions of the cells' intervals
// image by image, in input order (SPEC F.1): what addIntervals does over
// a report's images and a streamed scoring (Stream) does as it goes. It
// keeps one stats.Builder per cell, which holds a sum per page: its size
// does not grow with the number of images.
type IntervalAcc struct {
	fields   []string
	o        stats.Options
	schema   *stats.Schema
	builders map[tabularreport.CellKey]*stats.Builder
	pages    tabularreport.Interner
	v        []float64
}

// NewIntervalAcc returns an accumulator of the intervals iv asks for
// over fields; an error is iv's.
func NewIntervalAcc(fields []string, iv Intervals) (*IntervalAcc, error) {
	o, err := iv.options()
	if err != nil {
		return nil, err
	}
	return newAcc(fields, o), nil
}

func newAcc(fields []string, o stats.Options) *IntervalAcc {
	schema := stats.TabularSchema(fields)
	return &IntervalAcc{fields: fields, o: o, schema: schema, builders: map[tabularreport.CellKey]*stats.Builder{}, pages: tabularreport.Interner{}, v: make([]float64, schema.Width)}
}

func (a *IntervalAcc) builder(model, phase string) *stats.Builder {
	k := tabularreport.CellKey{Model: model, Phase: phase}
	b := a.builders[k]
	if b == nil {
		b = stats.NewBuilder(stats.TabularID(model, phase), a.schema)
		a.builders[tabularreport.CellKey{Model: strings.Clone(model), Phase: strings.Clone(phase)}] = b
	}
	return b
}

// Add adds one image's contribution to its cell's page.
func (a *IntervalAcc) Add(im *tabularreport.ImageScore) error {
	b := a.builder(im.Model, im.Phase)
	page := a.pages.Get(im.Page)
	if im.Status != "ok" {
		b.Unit(page)
		return nil
	}
	v := a.v
	v[stats.TabMatched] = float64(im.Matched)
	v[stats.TabNModel] = float64(im.NModel)
	v[stats.TabNGT] = float64(im.NGT)
	v[stats.TabNameEdits] = float64(im.NameEdits)
	v[stats.TabNameRefChars] = float64(im.NameRefChars)
	for i := range a.fields {
		var f tabularreport.FieldSum
		if i < len(im.Fields) {
			f = im.Fields[i]
		}
		v[stats.TabFields+2*i] = f.Sum
		v[stats.TabFields+2*i+1] = float64(f.Scored)
	}
	return b.Add(page, v)
}

// Finish sets each cell's CI from what was added.
func (a *IntervalAcc) Finish(cells []*tabularreport.Cell) error {
	for _, c := range cells {
		ci, err := stats.Interval(a.builder(c.Model, c.Phase).Build(), a.o)
		if err != nil {
			return err
		}
		c.CI = ci
	}
	return nil
}

// cellUnits returns each cell's units, built from its images (SPEC F.1)
// as the intervals' accumulator builds them.
func cellUnits(fields []string, cells []*tabularreport.Cell, images []*tabularreport.ImageScore) ([]*stats.Cell, error) {
	acc := newAcc(fields, stats.Options{})
	for _, im := range images {
		if err := acc.Add(im); err != nil {
			return nil, err
		}
	}
	units := make([]*stats.Cell, len(cells))
	for i, c := range cells {
		units[i] = acc.builder(c.Model, c.Phase).Build()
	}
	return units, nil
}

// previewComparison is the preview's comparison report (SPEC F.6): each
// cell scored with the settled rules (settled, from settledImages)
// against the report's cell, scored with the previewed rows on, as
// "docscore compare --preview" makes it from the two JSON reports. It is
// nil when neither intervals nor p-values are asked for. stop, when not
// nil, is asked before each cell's comparison.
func previewComparison(stop Canceler, rep *tabularreport.Report, settled []*tabularreport.Cell, settledImages []*tabularreport.ImageScore, iv Intervals) (*stats.Report, error) {
	if iv.Bootstrap == 0 && iv.Permutations == 0 {
		return nil, nil
	}
	o, err := iv.options()
	if err != nil {
		return nil, err
	}
	a, err := cellUnits(rep.Fields, settled, settledImages)
	if err != nil {
		return nil, err
	}
	b, err := cellUnits(rep.Fields, rep.Cells, rep.Images)
	if err != nil {
		return nil, err
	}
	na, nb := make([]stats.Named, len(a)), make([]stats.Named, len(b))
	for i := range a {
		na[i] = stats.Named{Cell: a[i], Model: &settled[i].Model, Phase: settled[i].Phase}
		nb[i] = stats.Named{Cell: b[i], Model: &rep.Cells[i].Model, Phase: rep.Cells[i].Phase}
	}
	var stopFn func() error
	if stop != nil {
		stopFn = stop.Err
	}
	return stats.Preview("tabular", na, nb, o, stopFn)
}
