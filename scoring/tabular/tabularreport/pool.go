package tabularreport

import (
	"sort"
	"strings"

	"github.com/docscore/docscore/scoring/schema"
)

// PRF computes precision, recall and F1 in the order of SPEC A.6.
func PRF(matched, nModel, nGT int) (p, r, f1 float64) {
	if nModel > 0 {
		p = float64(matched) / float64(nModel)
	}
	if nGT > 0 {
		r = float64(matched) / float64(nGT)
	}
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1
}

// PoolCells pools image scores per (model, phase), sorted by model then
// phase in code-point order.
func PoolCells(s *schema.Schema, images []*ImageScore) []*Cell {
	p := NewCellPool(s)
	for _, im := range images {
		p.Add(im)
	}
	return p.Cells()
}

// CellPool pools image scores into cells as they come, in input order:
// what poolCells does over a report's images and a streamed scoring
// (Stream) does image by image. It keeps one Cell per (model, phase).
type CellPool struct {
	s     *schema.Schema
	byKey map[CellKey]*Cell
	list  []*Cell // in order of first appearance
}

// CellKey names a cell: a (model, phase).
type CellKey struct{ Model, Phase string }

// Interner keeps one copy of each string it is given: the keys a long
// scoring keeps (pages, models) must not hold on to the lines they were
// read from.
type Interner map[string]string

// Get returns the one copy of s.
func (in Interner) Get(s string) string {
	if c, ok := in[s]; ok {
		return c
	}
	c := strings.Clone(s)
	in[c] = c
	return c
}

// NewCellPool returns an empty pool of cells for s's fields.
func NewCellPool(s *schema.Schema) *CellPool {
	return &CellPool{s: s, byKey: map[CellKey]*Cell{}, list: []*Cell{}} // an empty list, not null, when there is no image
}

// Add pools one image into its cell.
func (p *CellPool) Add(im *ImageScore) {
	k := CellKey{im.Model, im.Phase}
	c := p.byKey[k]
	if c == nil {
		// Clones: an image's strings share the memory of its whole line.
		k = CellKey{strings.Clone(im.Model), strings.Clone(im.Phase)}
		c = &Cell{Model: k.Model, Phase: k.Phase, Fields: make(FieldTotals, len(p.s.Columns))}
		for j, col := range p.s.Columns {
			c.Fields[j].Name = col.Name
		}
		p.byKey[k] = c
		p.list = append(p.list, c)
	}
	if im.Status != "ok" {
		c.ImagesFailed++
		return
	}
	c.ImagesOK++
	c.Matched += im.Matched
	c.NModel += im.NModel
	c.NGT += im.NGT
	c.NameEdits += im.NameEdits
	c.NameRefChars += im.NameRefChars
	for j := range im.Fields {
		c.Fields[j].Sum += im.Fields[j].Sum
		c.Fields[j].Scored += im.Fields[j].Scored
	}
}

// Cells finishes the pooled cells (their rates) and returns them sorted
// by model then phase in code-point order.
func (p *CellPool) Cells() []*Cell {
	cells := p.list
	for _, c := range cells {
		c.Precision, c.Recall, c.F1 = PRF(c.Matched, c.NModel, c.NGT)
		if c.NameRefChars > 0 {
			v := float64(c.NameEdits) / float64(c.NameRefChars)
			c.NameCER = &v
		}
		for j := range c.Fields {
			if c.Fields[j].Scored > 0 {
				v := c.Fields[j].Sum / float64(c.Fields[j].Scored)
				c.Fields[j].Accuracy = &v
			}
		}
	}
	// Sorting indices, not the cells themselves, keeps *Cell out of an
	// interface: the report's types are then not kept for reflection in
	// docscore.wasm.
	order := make([]int, len(cells))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		ca, cb := cells[order[a]], cells[order[b]]
		if ca.Model != cb.Model {
			return ca.Model < cb.Model
		}
		return ca.Phase < cb.Phase
	})
	sorted := make([]*Cell, len(cells))
	for i, j := range order {
		sorted[i] = cells[j]
	}
	return sorted
}

// PreviewCells pairs the settled and preview cells (same images, so the
// same cells in the same order) into deltas.
func PreviewCells(settled, preview []*Cell) []*PreviewCell {
	out := make([]*PreviewCell, len(settled))
	for i, s := range settled {
		p := preview[i]
		pc := &PreviewCell{
			Model: s.Model, Phase: s.Phase,
			Precision: delta(&s.Precision, &p.Precision),
			Recall:    delta(&s.Recall, &p.Recall),
			F1:        delta(&s.F1, &p.F1),
			NameCER:   delta(s.NameCER, p.NameCER),
			Fields:    make(FieldDeltas, len(s.Fields)),
		}
		for j := range s.Fields {
			pc.Fields[j] = FieldDelta{Name: s.Fields[j].Name, Delta: delta(s.Fields[j].Accuracy, p.Fields[j].Accuracy)}
		}
		out[i] = pc
	}
	return out
}

//go:noinline
func delta(settled, preview *float64) Delta {
	d := Delta{Settled: CopyFloat(settled), Preview: CopyFloat(preview)}
	if settled != nil && preview != nil {
		v := *preview - *settled
		d.Delta = &v
	}
	return d
}

//go:noinline
func CopyFloat(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
