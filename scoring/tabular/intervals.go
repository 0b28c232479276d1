package tabular

import (
	"strings"

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
	acc, err := newIntervalAcc(fields, iv)
	if err != nil {
		return err
	}
	for _, im := range images {
		if err := acc.add(im); err != nil {
			return err
		}
	}
	return acc.finish(cells)
}

// intervalAcc gathers the per-unit contributions of the cells' intervals
// image by image, in input order (SPEC F.1): what addIntervals does over
// a report's images and a streamed scoring (Stream) does as it goes. It
// keeps one stats.Builder per cell, which holds a sum per page: its size
// does not grow with the number of images.
type intervalAcc struct {
	fields   []string
	o        stats.Options
	schema   *stats.Schema
	builders map[cellKey]*stats.Builder
	pages    interner
	v        []float64
}

func newIntervalAcc(fields []string, iv Intervals) (*intervalAcc, error) {
	o, err := stats.IntervalOptions(iv.Bootstrap, iv.CILevel, iv.Seed)
	if err != nil {
		return nil, err
	}
	schema := stats.TabularSchema(fields)
	return &intervalAcc{fields: fields, o: o, schema: schema, builders: map[cellKey]*stats.Builder{}, pages: interner{}, v: make([]float64, schema.Width)}, nil
}

func (a *intervalAcc) builder(model, phase string) *stats.Builder {
	k := cellKey{model, phase}
	b := a.builders[k]
	if b == nil {
		b = stats.NewBuilder(stats.TabularID(model, phase), a.schema)
		a.builders[cellKey{strings.Clone(model), strings.Clone(phase)}] = b
	}
	return b
}

// add adds one image's contribution to its cell's page.
func (a *intervalAcc) add(im *ImageScore) error {
	b := a.builder(im.Model, im.Phase)
	page := a.pages.get(im.Page)
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
		var f FieldSum
		if i < len(im.Fields) {
			f = im.Fields[i]
		}
		v[stats.TabFields+2*i] = f.Sum
		v[stats.TabFields+2*i+1] = float64(f.Scored)
	}
	return b.Add(page, v)
}

// finish sets each cell's CI from what was added.
func (a *intervalAcc) finish(cells []*Cell) error {
	for _, c := range cells {
		ci, err := stats.Interval(a.builder(c.Model, c.Phase).Build(), a.o)
		if err != nil {
			return err
		}
		c.CI = ci
	}
	return nil
}
