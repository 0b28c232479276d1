package receipts

import "github.com/docscore/docscore/scoring/stats"

// addIntervals sets each phase's CI from its page rows (SPEC F.1): one
// unit per sample, contributing its ROUGE-L F1 (when not null), its
// numeric counts and, when the report has structured metrics, its TED
// accuracy and field counts (zero for a page without them).
func addIntervals(rep *Report, opts Options) error {
	if opts.Bootstrap == 0 {
		return nil
	}
	o, err := stats.IntervalOptions(opts.Bootstrap, opts.CILevel, opts.Seed)
	if err != nil {
		return err
	}
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
			clear(v)
			if p.F1 != nil {
				v[stats.RecF1Sum], v[stats.RecF1Count] = *p.F1, 1
			}
			v[stats.RecNumericMatched], v[stats.RecNumericRef] = float64(p.NumericMatched), float64(p.NumericRef)
			if s := p.Structured; structured && s != nil {
				if s.TEDAccuracy != nil {
					v[stats.RecTEDSum], v[stats.RecTEDCount] = *s.TEDAccuracy, 1
				}
				v[stats.RecFieldsMatched], v[stats.RecFieldsPred], v[stats.RecFieldsRef] =
					float64(s.FieldsMatched), float64(s.FieldsPred), float64(s.FieldsRef)
			}
			if err := b.Add(p.SampleID, v); err != nil {
				return err
			}
		}
		if ph.CI, err = stats.Interval(b.Build(), o); err != nil {
			return err
		}
	}
	return nil
}
