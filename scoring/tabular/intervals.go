package tabular

import (
	"github.com/docscore/docscore/scoring/stats"
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
	// Seed is xored into each cell's random stream (--seed).
	Seed uint64
	// Permutations is the number of randomization rounds of a preview's
	// p-values; 0 computes none. With Bootstrap 0 too, a preview has no
	// "comparison".
	Permutations int
	// Alpha is the significance level of a preview's Holm-adjusted
	// p-values, in (0, 1); 0 means stats.DefaultAlpha.
	Alpha float64
}

// options checks the settings (as --bootstrap, --ci-level, --permutations
// and --alpha) and returns them as package stats takes them.
func (iv Intervals) options() (stats.Options, error) {
	return stats.ComparisonOptions(iv.Bootstrap, iv.Permutations, iv.CILevel, iv.Alpha, iv.Seed)
}

// withIntervals adds the cells' intervals to a finished report.
func withIntervals(rep *Report, iv Intervals) (*Report, error) {
	if err := addIntervals(rep.Fields, rep.Cells, rep.Images, iv); err != nil {
		return nil, err
	}
	return rep, nil
}

// addIntervals sets each cell's CI from its images' units (cellUnits).
func addIntervals(fields []string, cells []*Cell, images []*ImageScore, iv Intervals) error {
	if iv.Bootstrap == 0 {
		// Cells reused from an earlier scoring (ScoreReusing) may hold
		// that scoring's intervals.
		for _, c := range cells {
			c.CI = nil
		}
		return nil
	}
	o, err := iv.options()
	if err != nil {
		return err
	}
	units, err := cellUnits(fields, cells, images)
	if err != nil {
		return err
	}
	for i, c := range cells {
		if c.CI, err = stats.Interval(units[i], o); err != nil {
			return err
		}
	}
	return nil
}

// cellUnits returns each cell's units, built from its images (SPEC F.1):
// one unit per page the cell's images name, failed images keeping their
// page with nothing added, an ok image adding its counts and field sums.
func cellUnits(fields []string, cells []*Cell, images []*ImageScore) ([]*stats.Cell, error) {
	schema := stats.TabularSchema(fields)
	builders := make(map[string]*stats.Builder, len(cells))
	for _, c := range cells {
		builders[c.Model+"\x00"+c.Phase] = stats.NewBuilder(stats.TabularID(c.Model, c.Phase), schema)
	}
	v := make([]float64, schema.Width)
	for _, im := range images {
		b := builders[im.Model+"\x00"+im.Phase]
		if b == nil {
			continue
		}
		if im.Status != "ok" {
			b.Unit(im.Page)
			continue
		}
		v[stats.TabMatched] = float64(im.Matched)
		v[stats.TabNModel] = float64(im.NModel)
		v[stats.TabNGT] = float64(im.NGT)
		v[stats.TabNameEdits] = float64(im.NameEdits)
		v[stats.TabNameRefChars] = float64(im.NameRefChars)
		for i := range fields {
			var f FieldSum
			if i < len(im.Fields) {
				f = im.Fields[i]
			}
			v[stats.TabFields+2*i] = f.Sum
			v[stats.TabFields+2*i+1] = float64(f.Scored)
		}
		if err := b.Add(im.Page, v); err != nil {
			return nil, err
		}
	}
	units := make([]*stats.Cell, len(cells))
	for i, c := range cells {
		units[i] = builders[c.Model+"\x00"+c.Phase].Build()
	}
	return units, nil
}

// previewComparison is the preview's comparison report (SPEC F.6): each
// cell scored with the settled rules (settled, from settledImages)
// against the report's cell, scored with the previewed rows on, as
// "docscore compare --preview" makes it from the two JSON reports. It is
// nil when neither intervals nor p-values are asked for. stop, when not
// nil, is asked before each cell's comparison.
func previewComparison(stop Canceler, rep *Report, settled []*Cell, settledImages []*ImageScore, iv Intervals) (*stats.Report, error) {
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
