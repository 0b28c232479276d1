package stats

import (
	"fmt"
	"math"
	"sort"
)

// Cell is one cell's units and what each contributes (SPEC F.1): the unit
// ids in ascending byte order, and for each a vector of Schema.Width
// sums. Build one with a Builder.
type Cell struct {
	// ID names the cell in stream keys: tabular/<model>/<phase> or
	// receipts/<phase>, prefixed base:/new: or settled:/preview: in a
	// comparison (SPEC F.3).
	ID     string
	Schema *Schema
	units  []string
	comp   []float64 // len(units)·Width, unit by unit
}

// Units returns the cell's unit ids in order; the caller must not change
// them.
func (c *Cell) Units() []string { return c.units }

// Contribution returns unit i's contribution vector; the caller must not
// change it.
func (c *Cell) Contribution(i int) []float64 {
	w := c.Schema.Width
	return c.comp[i*w : (i+1)*w]
}

// Builder gathers a cell's contributions, summing those given for the
// same unit in the order they are added (a tabular page's images).
type Builder struct {
	id     string
	schema *Schema
	index  map[string]int
	units  []string
	comp   [][]float64
}

// NewBuilder returns a builder for the cell id under schema.
//
//go:noinline
func NewBuilder(id string, schema *Schema) *Builder {
	return &Builder{id: id, schema: schema, index: map[string]int{}}
}

// Unit makes the unit exist with whatever it has so far, so that a page
// whose images all failed is still a unit contributing nothing (SPEC F.1).
//
//go:noinline
func (b *Builder) Unit(unit string) {
	if _, ok := b.index[unit]; !ok {
		b.index[unit] = len(b.units)
		b.units = append(b.units, unit)
		b.comp = append(b.comp, make([]float64, b.schema.Width))
	}
}

// Add adds contrib to the unit's sums, component by component. It refuses
// a vector of the wrong width and a value that is negative, NaN or
// infinite: contributions are counts and sums of scores.
func (b *Builder) Add(unit string, contrib []float64) error {
	if len(contrib) != b.schema.Width {
		return fmt.Errorf("stats: cell %q unit %q: %d components, expected %d", b.id, unit, len(contrib), b.schema.Width)
	}
	for i, v := range contrib {
		if !(v >= 0) || math.IsInf(v, 1) {
			return fmt.Errorf("stats: cell %q unit %q: component %s is %v, expected a finite number ≥ 0",
				b.id, unit, b.schema.componentName(i), v)
		}
	}
	b.Unit(unit)
	sums := b.comp[b.index[unit]]
	for i, v := range contrib {
		sums[i] += v
	}
	return nil
}

// Build returns the cell, its units sorted by id as UTF-8 byte strings.
// The builder can be used again after it.
func (b *Builder) Build() *Cell {
	w := b.schema.Width
	order := make([]int, len(b.units))
	for i := range order {
		order[i] = i
	}
	// Unit ids are distinct, so any sort gives the same order; sort.Slice
	// is already in docscore.wasm, a generic instance would cost 4.5 KB.
	sort.Slice(order, func(i, j int) bool { return b.units[order[i]] < b.units[order[j]] })
	c := &Cell{ID: b.id, Schema: b.schema, units: make([]string, len(order)), comp: make([]float64, 0, len(order)*w)}
	for i, j := range order {
		c.units[i] = b.units[j]
		c.comp = append(c.comp, b.comp[j]...)
	}
	return c
}

func (s *Schema) componentName(i int) string {
	if i < len(s.Components) {
		return s.Components[i]
	}
	return fmt.Sprint(i)
}

// Values returns every statistic of the cell over all its units, summed
// in unit order, with ok false where a statistic is undefined (the point
// estimates, up to the last bits of a sum taken in another order).
func (c *Cell) Values() (v []float64, ok []bool) {
	sum := make([]float64, c.Schema.Width)
	for i := range c.units {
		addInto(sum, c.Contribution(i))
	}
	v = make([]float64, len(c.Schema.Stats))
	ok = make([]bool, len(v))
	for i := range c.Schema.Stats {
		v[i], ok[i] = c.Schema.Stats[i].value(sum)
	}
	return v, ok
}

func addInto(sum, x []float64) {
	for i, v := range x {
		sum[i] += v
	}
}

// NewBuilder and Unit are //go:noinline: they run once per cell and per
// image, not in the bootstrap loop, and inlined into tabular's addIntervals
// they made the page's docscore.wasm larger (sitebuild.WasmBuildFlags).
