package stats

import (
	"bytes"
	"testing"

	"github.com/docscore/docscore/scoring/internal/jsonout"
)

// oracleComparison writes a comparison as encoding/json does from the
// types' tags, the grouped statistics laid out by grouped: the writer
// Report.JSON replaced, kept as its oracle.
type oracleComparison struct{ c *Comparison }

func (o oracleComparison) MarshalJSON() ([]byte, error) {
	c := o.c
	stats := grouped(len(c.Stats),
		func(i int) string { return c.Stats[i].Name },
		func(i int) string { return c.Stats[i].Group },
		func(i int) any { return oracleStat(c.Stats[i]) })
	var b bytes.Buffer
	members := []member{{"a", c.A}, {"b", c.B}, {"units_paired", c.UnitsPaired}}
	if c.FewUnits {
		members = append(members, member{"few_units", true})
	}
	err := writeObject(&b, append(members,
		member{"units_only_a", nonNil(c.UnitsOnlyA)}, member{"units_only_b", nonNil(c.UnitsOnlyB)},
		member{"stats", stats}, member{"movement", c.Movement},
	))
	return b.Bytes(), err
}

// oracleStat is StatComparison without methods: its tags decide.
type oracleStat StatComparison

type oracleReport struct {
	Kind         string             `json:"kind"`
	Family       string             `json:"family"`
	Level        float64            `json:"level"`
	Replicates   int                `json:"replicates"`
	Permutations int                `json:"permutations"`
	Seed         uint64             `json:"seed"`
	Alpha        float64            `json:"alpha"`
	Effect       float64            `json:"effect,omitempty"`
	Comparisons  []oracleComparison `json:"comparisons"`
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestReportJSONIsEncodingJSON holds Report.JSON, written without
// reflection, to encoding/json's bytes for every report of the vectors.
func TestReportJSONIsEncodingJSON(t *testing.T) {
	for _, vc := range vectorCases(t) {
		t.Run(vc.Name, func(t *testing.T) {
			r := vc.report(t)
			got, err := r.JSON()
			if err != nil {
				t.Fatal(err)
			}
			o := oracleReport{r.Kind, r.Family, r.Level, r.Replicates, r.Permutations, r.Seed, r.Alpha, r.Effect, nil}
			for _, c := range r.Comparisons {
				o.Comparisons = append(o.Comparisons, oracleComparison{c})
			}
			want, err := jsonout.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("Report.JSON:\n%s\nencoding/json:\n%s", got, want)
			}
			if viaEncoder, err := jsonout.Marshal(r); err != nil || !bytes.Equal(viaEncoder, want) {
				t.Fatalf("jsonout.Marshal(report) (%v):\n%s", err, viaEncoder)
			}
		})
	}
}
