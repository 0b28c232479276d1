package stats

// CI is a cell's bootstrap confidence intervals (SPEC F.4), one per
// statistic, written as the cell's "ci" member:
//
//	{"level", "replicates", "seed", "unit", "units",
//	 "f1": [lo, hi], …, "fields": {"title": [lo, hi], …},
//	 "kept": {"f1": 2000, …, "fields": {"title": 2000, …}}}
//
// An interval is null when the cell has fewer than two units or fewer
// kept values than half the replicates.
type CI struct {
	Level      float64 `json:"level"`
	Replicates int     `json:"replicates"`
	Seed       uint64  `json:"seed"`
	Unit       string  `json:"unit"`  // "page" or "sample"
	Units      int     `json:"units"` // a count
	// FewUnits marks intervals from fewer than FewUnits units (SPEC
	// F.7): written only when true.
	FewUnits bool `json:"few_units,omitempty"`
	// Stats holds the intervals in the cell's order; MarshalJSON writes
	// each under its name (grouped ones inside their group's object),
	// then their kept counts under "kept" in the same shape.
	Stats []StatInterval `json:"-"`
}

// StatInterval is one statistic's interval and the number of replicates
// on which it was defined.
type StatInterval struct {
	Name     string
	Group    string
	Interval *Range // nil: null
	Kept     int
}

// Get returns the named statistic's interval ("f1", "fields.title").
func (ci *CI) Get(path string) (StatInterval, bool) {
	for _, s := range ci.Stats {
		if (&Stat{Name: s.Name, Group: s.Group}).Path() == path {
			return s, true
		}
	}
	return StatInterval{}, false
}

// Interval computes the cell's bootstrap intervals from the stream
// ci:<id> (SPEC F.3, F.4): o.Replicates replicates, each drawing as many
// unit indices as the cell has units and computing every statistic from
// that one draw. It returns nil when o.Replicates is 0 (the member is left
// out). A cell of few units has its draws counted (enumerate.go).
func Interval(c *Cell, o Options) (*CI, error) { return interval(c, o, true) }

// interval is Interval; with enumerate false it draws and sums every
// replicate even where few units make them repeat, which the tests use to
// check that both give the same bits.
func interval(c *Cell, o Options, enumerate bool) (*CI, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if err := c.Schema.check(); err != nil {
		return nil, err
	}
	if o.Replicates == 0 {
		return nil, nil
	}
	st := c.Schema.Stats
	g := Stream(o.Seed, "ci:"+c.ID)
	n, w := len(c.units), c.Schema.Width
	sum := make([]float64, w)
	ci := &CI{Level: o.Level, Replicates: o.Replicates, Seed: o.Seed, Unit: c.Schema.Unit, Units: n,
		FewUnits: n < FewUnits, Stats: make([]StatInterval, len(st))}
	if size := sequences(n, o.Replicates); enumerate && size > 0 {
		// Few units: at most a few million draws counted, then each
		// distinct sequence summed once (a fraction of a second).
		if err := o.stopped(0); err != nil {
			return nil, err
		}
		found := make([][]weighted, len(st))
		eachSequence(g, n, w, o.Replicates, size, [][]float64{c.comp}, [][]float64{sum}, func(times int) {
			for i := range st {
				if v, ok := st[i].value(sum); ok {
					found[i] = append(found[i], weighted{v, times})
				}
			}
		})
		for i, f := range sortWeighted(found) {
			kept, r := weightedInterval(f, n, o.Replicates, o.Level)
			ci.Stats[i] = StatInterval{Name: st[i].Name, Group: st[i].Group, Kept: kept, Interval: r}
		}
		return ci, nil
	}
	values := make([][]float64, len(st))
	for i := range values {
		values[i] = make([]float64, 0, o.Replicates)
	}
	for r := 0; r < o.Replicates; r++ {
		if err := o.stopped(r); err != nil {
			return nil, err
		}
		drawSum(g, c.comp, n, w, sum)
		for i := range st {
			if v, ok := st[i].value(sum); ok {
				values[i] = append(values[i], v)
			}
		}
	}
	for i := range st {
		ci.Stats[i] = StatInterval{Name: st[i].Name, Group: st[i].Group, Kept: len(values[i]),
			Interval: percentileInterval(values[i], n, o.Replicates, o.Level)}
	}
	return ci, nil
}

// drawSum is one replicate: n indices drawn in turn from g, their units'
// contributions summed into sum in draw order. It allocates nothing.
func drawSum(g *SplitMix64, comp []float64, n, w int, sum []float64) {
	clear(sum)
	for range n {
		j := g.Index(n) * w
		addInto(sum, comp[j:j+w])
	}
}
