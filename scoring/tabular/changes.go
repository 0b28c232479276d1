package tabular

import (
	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// diffImages lists what differs between two scorings of the same images
// (before[i] and after[i] score images[i]), in image order, then
// ground-truth row order, then pairing, name, fields in schema order.
func diffImages(s *schema.Schema, pages *PageIndex, before, after []*tabularreport.ImageScore) []tabularreport.Change {
	var out []tabularreport.Change
	for i, b := range before {
		a := after[i]
		if b.Status != "ok" || a.Status != "ok" {
			continue
		}
		page := pages.Find(b.Page)
		if page == nil {
			continue
		}
		bp := pairsByGT(b.Pairs, len(page.Rows))
		ap := pairsByGT(a.Pairs, len(page.Rows))
		for g, row := range page.Rows {
			x, y := bp[g], ap[g]
			if x == nil && y == nil {
				continue
			}
			base := tabularreport.Change{Line: b.Line, Model: b.Model, Phase: b.Phase, Run: b.Run, Page: b.Page, GT: row.Key, GTLine: row.Line}
			if x == nil || y == nil || x.ModelIndex != y.ModelIndex {
				c := base
				c.Field = tabularreport.PairingField
				if x != nil {
					c.Before, c.RecordBefore = floatPtr(x.Similarity), x.Model
				}
				if y != nil {
					c.After, c.RecordAfter = floatPtr(y.Similarity), y.Model
				}
				out = append(out, c)
				continue
			}
			base.RecordBefore, base.RecordAfter = x.Model, y.Model
			if x.NameEdits != y.NameEdits || x.NameRefChars != y.NameRefChars {
				c := base
				c.Field = s.Key
				c.Before, c.After = pairCER(x), pairCER(y)
				out = append(out, c)
			}
			for k := range x.Fields {
				u, v := x.Fields[k].Score, y.Fields[k].Score
				if (u == nil) == (v == nil) && (u == nil || *u == *v) {
					continue
				}
				c := base
				c.Field = x.Fields[k].Name
				c.Before, c.After = tabularreport.CopyFloat(u), tabularreport.CopyFloat(v)
				out = append(out, c)
			}
		}
	}
	return out
}

func pairsByGT(pairs []*tabularreport.Pair, n int) []*tabularreport.Pair {
	by := make([]*tabularreport.Pair, n)
	for _, p := range pairs {
		if p.GTIndex >= 0 && p.GTIndex < n {
			by[p.GTIndex] = p
		}
	}
	return by
}

func pairCER(p *tabularreport.Pair) *float64 {
	if p.NameRefChars == 0 {
		return nil
	}
	return floatPtr(float64(p.NameEdits) / float64(p.NameRefChars))
}

func floatPtr(v float64) *float64 { return &v }

// rescoreFields scores the fields of an image's pairs, paired as settled
// paired them, with sc's rules: what a row that adds no rule on the key
// column changes (it cannot change the pairing). Only what diffImages
// reads is filled in.
func (sc *scorer) rescoreFields(im *tabularread.Image, settled *tabularreport.ImageScore) *tabularreport.ImageScore {
	out := &tabularreport.ImageScore{Line: settled.Line, Model: settled.Model, Phase: settled.Phase, Run: settled.Run,
		Page: settled.Page, Status: settled.Status}
	page := sc.pages.Find(im.Page)
	if settled.Status != "ok" || page == nil {
		return out
	}
	pp := sc.prepare(page)
	cols := sc.s.Columns
	out.Pairs = make([]*tabularreport.Pair, len(settled.Pairs))
	for k, p := range settled.Pairs {
		q := *p
		q.Fields = make(tabularreport.PairFields, len(cols))
		row, rec := &page.Rows[p.GTIndex], &im.Records[p.ModelIndex]
		if !sc.work.spend(sc.fieldCost(pp.values[p.GTIndex], rec)) {
			return out
		}
		for j, col := range cols {
			q.Fields[j].Name = col.Name
			if score, ok := sc.fieldScore(j, col, row.Values[j], pp.values[p.GTIndex][j], rec.Values[j]); ok {
				q.Fields[j].Score = &score
			}
		}
		out.Pairs[k] = &q
	}
	return out
}

// changeKey is where a change is: an image, a ground-truth row, a field.
type changeKey struct {
	line, gtLine int
	field        string
}

func keyOf(c *tabularreport.Change) changeKey { return changeKey{c.Line, c.GTLine, c.Field} }

// sameChange reports whether two changes are the same change of the same
// row of the same image.
func sameChange(a, b *tabularreport.Change) bool {
	return a.Line == b.Line && a.GTLine == b.GTLine && a.Field == b.Field &&
		a.RecordBefore == b.RecordBefore && a.RecordAfter == b.RecordAfter &&
		optEqual(a.Before, b.Before) && optEqual(a.After, b.After)
}

func optEqual(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// previewChanges fills p's Changes, ChangeCounts and ChangeTotal: what the preview
// scoring (preview) changed against the settled one (settled), each
// change attributed to the previewed rows that make it alone. With more
// than one row previewed (and at most MaxAttributedRows), each row is
// scored alone on the images the preview changed.
func previewChanges(p *tabularreport.Preview, in Input, s *schema.Schema, gate float64, pages *PageIndex, work *budget, settled, preview []*tabularreport.ImageScore) error {
	p.Changes = diffImages(s, pages, settled, preview)
	if p.Changes == nil {
		p.Changes = []tabularreport.Change{}
	}
	p.ChangeCounts = make([]tabularreport.ChangeCount, len(p.Rows))
	for i, r := range p.Rows {
		p.ChangeCounts[i].Line = r.Line
	}
	for i := range p.Changes {
		p.Changes[i].Rows = []int{}
		p.ChangeTotal.Add(&p.Changes[i], s.Key)
	}
	switch {
	case len(p.Rows) == 1:
		for i := range p.Changes {
			p.Changes[i].Rows = []int{p.Rows[0].Line}
			p.ChangeCounts[0].Add(&p.Changes[i], s.Key)
		}
		return nil
	case len(p.Rows) > tabularreport.MaxAttributedRows || len(p.Changes) == 0:
		return nil
	}
	settledRows, _, err := in.Rules.Active(rules.Selection{})
	if err != nil {
		return err
	}
	settledKey := len(rules.Compile(settledRows, s).Key)
	for k, r := range p.Rows {
		active, _, err := in.Rules.Active(rules.Selection{Lines: []int{r.Line}})
		if err != nil {
			return err
		}
		compiled := rules.Compile(active, s)
		keyRules := len(compiled.Key) > settledKey
		// Alone, the row can change only the fields it names, and, with a
		// rule on the key column, pairings and names: only the images
		// with such a change are scored again.
		can := map[string]bool{}
		for _, f := range r.Fields {
			if f == "*" {
				for _, c := range s.TextColumns() {
					can[c] = true
				}
			}
			can[f] = true
		}
		if keyRules {
			can[tabularreport.PairingField], can[s.Key] = true, true
		}
		lines := map[int]bool{}
		for i := range p.Changes {
			if can[p.Changes[i].Field] {
				lines[p.Changes[i].Line] = true
			}
		}
		var images []*tabularread.Image
		var before []*tabularreport.ImageScore
		for i, im := range in.Runs.Images {
			if lines[settled[i].Line] {
				images = append(images, im)
				before = append(before, settled[i])
			}
		}
		sc := newScorer(s, compiled, gate, pages, work)
		var after []*tabularreport.ImageScore
		if !keyRules {
			// The pairs are the settled ones: only their fields are scored
			// again.
			after = make([]*tabularreport.ImageScore, len(images))
			for i, im := range images {
				if !work.alive() {
					return work.err
				}
				after[i] = sc.rescoreFields(im, before[i])
			}
			work.flush()
			if work.err != nil {
				return work.err
			}
		} else if after, err = sc.scoreAll(images); err != nil {
			return err
		}
		alone := map[changeKey]*tabularreport.Change{}
		diff := diffImages(s, pages, before, after)
		for j := range diff {
			alone[keyOf(&diff[j])] = &diff[j]
		}
		for i := range p.Changes {
			c := &p.Changes[i]
			if a, ok := alone[keyOf(c)]; ok && sameChange(c, a) {
				c.Rows = append(c.Rows, r.Line)
				p.ChangeCounts[k].Add(c, s.Key)
			}
		}
	}
	return nil
}
