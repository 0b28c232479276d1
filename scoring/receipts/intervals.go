package receipts

import (
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
)
import "github.com/docscore/docscore/scoring/stats"

// addIntervals sets each phase's CI from its page rows (SPEC F.1): one
// unit per sample, contributing its ROUGE-L F1 (when not null), its
// numeric counts and, when the report has structured metrics, its TED
// accuracy and field counts (zero for a page without them).
func addIntervals(rep *receiptsreport.Report, opts Options) error {
	if opts.Bootstrap == 0 {
		return nil
	}
	o, err := stats.IntervalOptions(opts.Bootstrap, opts.CILevel, opts.Seed)
	if err != nil {
		return err
	}
	o.Stop = opts.Stop
	structured := false
	for i := range rep.Phases {
		structured = structured || rep.Phases[i].Structured != nil
	}
	schema := stats.ReceiptsSchema(structured)
	v := make([]float64, schema.Width)
	for pi := range rep.Phases {
		ph := &rep.Phases[pi]
		b := stats.NewBuilder(stats.ReceiptsID(ph.Phase), schema)
		for i := range rep.Pages {
			p := &rep.Pages[i]
			if p.Phase != ph.Phase {
				continue
			}
			if err := b.Add(p.SampleID, unitOf(p).fill(v, structured)); err != nil {
				return err
			}
		}
		if ph.CI, err = stats.Interval(b.Build(), o); err != nil {
			return err
		}
	}
	return nil
}

// unit is what a page contributes to its phase's intervals: its ROUGE-L
// F1 (when not null), its numeric counts and its structured scores (when
// it has them).
type unit struct {
	f1, ted                             float64
	hasF1, hasTED, hasStructured        bool
	matched, ref, fMatched, fPred, fRef int32
}

func unitOf(p *receiptsreport.Page) unit {
	u := unit{matched: int32(p.NumericMatched), ref: int32(p.NumericRef)}
	if p.F1 != nil {
		u.f1, u.hasF1 = *p.F1, true
	}
	if s := p.Structured; s != nil {
		u.hasStructured = true
		if s.TEDAccuracy != nil {
			u.ted, u.hasTED = *s.TEDAccuracy, true
		}
		u.fMatched, u.fPred, u.fRef = int32(s.FieldsMatched), int32(s.FieldsPred), int32(s.FieldsRef)
	}
	return u
}

// fill writes the unit's contribution into v (the width of
// stats.ReceiptsSchema(structured)) and returns it.
func (u unit) fill(v []float64, structured bool) []float64 {
	clear(v)
	if u.hasF1 {
		v[stats.RecF1Sum], v[stats.RecF1Count] = u.f1, 1
	}
	v[stats.RecNumericMatched], v[stats.RecNumericRef] = float64(u.matched), float64(u.ref)
	if structured && u.hasStructured {
		if u.hasTED {
			v[stats.RecTEDSum], v[stats.RecTEDCount] = u.ted, 1
		}
		v[stats.RecFieldsMatched], v[stats.RecFieldsPred], v[stats.RecFieldsRef] =
			float64(u.fMatched), float64(u.fPred), float64(u.fRef)
	}
	return v
}
