package tabular

import (
	"github.com/docscore/docscore/scoring/stats"
)

// Intervals are the settings of the cells' confidence intervals (SPEC
// F.4). The zero value computes none; hosts apply SPEC's defaults
// (stats.DefaultReplicates) when a request leaves them out.
type Intervals struct {
	// Bootstrap is the number of bootstrap replicates; 0 computes no
	// intervals (the cells have no "ci" member).
	Bootstrap int
	// CILevel is the intervals' confidence level, in (0, 1); 0 means
	// stats.DefaultLevel.
	CILevel float64
	// Seed is xored into each cell's random stream (--seed).
	Seed uint64
}

// withIntervals adds the cells' intervals to a finished report.
func withIntervals(rep *Report, iv Intervals) (*Report, error) {
	if err := addIntervals(rep.Fields, rep.Cells, rep.Images, iv); err != nil {
		return nil, err
	}
	return rep, nil
}

// addIntervals sets each cell's CI from its images (SPEC F.1): one unit
// per page the cell's images name, failed images keeping their page with
// nothing added, an ok image adding its counts and field sums.
func addIntervals(fields []string, cells []*Cell, images []*ImageScore, iv Intervals) error {
	if iv.Bootstrap == 0 {
		// Cells reused from an earlier scoring (ScoreReusing) may hold
		// that scoring's intervals.
		for _, c := range cells {
			c.CI = nil
		}
		return nil
	}
	o, err := stats.IntervalOptions(iv.Bootstrap, iv.CILevel, iv.Seed)
	if err != nil {
		return err
	}
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
			return err
		}
	}
	for _, c := range cells {
		ci, err := stats.Interval(builders[c.Model+"\x00"+c.Phase].Build(), o)
		if err != nil {
			return err
		}
		c.CI = ci
	}
	return nil
}
