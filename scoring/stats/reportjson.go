package stats

import (
	"github.com/docscore/docscore/scoring/internal/jsonout"
)

// JSON returns the comparison report as "docscore compare" writes it
// (SPEC F.6): indented by two spaces, with a final newline, the bytes
// encoding/json's Encoder writes for it (jsonout.Marshal).
func (r *Report) JSON() ([]byte, error) {
	jw := jsonout.NewWriter(1024 + 2048*len(r.Comparisons))
	r.WriteJSON(jw)
	return jw.Bytes()
}

// MarshalJSON is JSON, for encoding/json.
func (r *Report) MarshalJSON() ([]byte, error) { return r.JSON() }

// WriteJSON writes the report as one JSON value at jw's depth: the tabular
// report writes it inside its "preview" object, "docscore compare" on its
// own. It writes the members itself, with no reflection, so that the
// page's core can hold it.
func (r *Report) WriteJSON(jw *jsonout.Writer) {
	jw.Open('{')
	jw.Key("kind")
	jw.String(r.Kind)
	jw.Key("family")
	jw.String(r.Family)
	jw.Key("level")
	jw.Float(r.Level)
	jw.Key("replicates")
	jw.Int(r.Replicates)
	jw.Key("permutations")
	jw.Int(r.Permutations)
	jw.Key("seed")
	jw.Uint(r.Seed)
	jw.Key("alpha")
	jw.Float(r.Alpha)
	if r.Effect > 0 {
		jw.Key("effect")
		jw.Float(r.Effect)
	}
	jw.Key("comparisons")
	jw.Open('[')
	for _, c := range r.Comparisons {
		jw.Elem()
		c.writeJSON(jw)
	}
	jw.Close(']')
	jw.Close('}')
}

// MarshalJSON writes one comparison of SPEC F.6, its statistics under
// "stats" keyed by name, field statistics inside "fields".
func (c *Comparison) MarshalJSON() ([]byte, error) {
	jw := jsonout.NewWriter(2048)
	c.writeJSON(jw)
	return jw.Bytes()
}

func (c *Comparison) writeJSON(jw *jsonout.Writer) {
	jw.Open('{')
	jw.Key("a")
	writeSide(jw, &c.A)
	jw.Key("b")
	writeSide(jw, &c.B)
	jw.Key("units_paired")
	jw.Int(c.UnitsPaired)
	if c.FewUnits {
		jw.Key("few_units")
		jw.Bool(true)
	}
	jw.Key("units_only_a")
	writeIDs(jw, c.UnitsOnlyA)
	jw.Key("units_only_b")
	writeIDs(jw, c.UnitsOnlyB)
	jw.Key("stats")
	jw.Open('{')
	// A group's statistics follow each other, as both schemas lay them
	// out: the group's object opens at its first and closes after its last.
	group := ""
	for i := range c.Stats {
		s := &c.Stats[i]
		if s.Group != group {
			if group != "" {
				jw.Close('}')
			}
			if group = s.Group; group != "" {
				jw.Key(group)
				jw.Open('{')
			}
		}
		jw.Key(s.Name)
		writeStat(jw, s)
	}
	if group != "" {
		jw.Close('}')
	}
	jw.Close('}')
	jw.Key("movement")
	jw.Open('{')
	jw.Key("rose")
	writeIDs(jw, c.Movement.Rose)
	jw.Key("fell")
	writeIDs(jw, c.Movement.Fell)
	jw.Key("same")
	jw.Int(c.Movement.Same)
	jw.Close('}')
	jw.Close('}')
}

func writeSide(jw *jsonout.Writer, s *Side) {
	jw.Open('{')
	if s.Model != nil {
		jw.Key("model")
		jw.String(*s.Model)
	}
	jw.Key("phase")
	jw.String(s.Phase)
	jw.Key("id")
	jw.String(s.ID)
	jw.Close('}')
}

// writeIDs writes a list of unit ids, [] for none.
func writeIDs(jw *jsonout.Writer, ids []string) {
	jw.Open('[')
	for _, id := range ids {
		jw.Elem()
		jw.String(id)
	}
	jw.Close(']')
}

func writeStat(jw *jsonout.Writer, s *StatComparison) {
	jw.Open('{')
	jw.Key("a")
	jw.OptFloat(s.A)
	jw.Key("b")
	jw.OptFloat(s.B)
	jw.Key("delta")
	jw.OptFloat(s.Delta)
	jw.Key("ci")
	if s.CI == nil {
		jw.Null()
	} else {
		jw.Open('[')
		jw.Elem()
		jw.Float(s.CI[0])
		jw.Elem()
		jw.Float(s.CI[1])
		jw.Close(']')
	}
	jw.Key("p")
	jw.OptFloat(s.P)
	jw.Key("p_holm")
	jw.OptFloat(s.PHolm)
	jw.Key("significant")
	jw.Bool(s.Significant)
	jw.Key("better")
	jw.OptString(s.Better)
	jw.Key("min_p")
	jw.Float(s.MinP)
	jw.Key("can_be_significant")
	jw.Bool(s.CanBeSignificant)
	jw.Key("mde")
	jw.OptFloat(s.MDE)
	if s.UnitsNeeded != nil {
		jw.Key("units_needed")
		jw.Int(*s.UnitsNeeded)
	}
	jw.Key("kept")
	jw.Open('{')
	jw.Key("bootstrap")
	jw.Int(s.Kept.Bootstrap)
	jw.Key("permutations")
	jw.Int(s.Kept.Permutations)
	jw.Close('}')
	jw.Close('}')
}
