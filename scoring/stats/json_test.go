package stats

import (
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/internal/jsonout"
)

// The comparison report is written in the shape of SPEC F.6 (and F.5's
// kept counts), through the one JSON set-up every report uses.
func TestReportJSONShape(t *testing.T) {
	s := TabularSchema([]string{"title"})
	build := func(id string, pages map[string][]float64) *Cell {
		b := NewBuilder(id, s)
		for _, p := range []string{"1", "2", "3"} {
			if v, ok := pages[p]; ok {
				if err := b.Add(p, v); err != nil {
					t.Fatal(err)
				}
			}
		}
		return b.Build()
	}
	a := build("base:tabular/m/G", map[string][]float64{
		"1": {2, 2, 2, 0, 10, 1, 2}, "2": {1, 2, 2, 1, 10, 1, 1}})
	b := build("new:tabular/m/G", map[string][]float64{
		"2": {2, 2, 2, 0, 10, 2, 2}, "3": {1, 1, 1, 0, 5, 1, 1}})
	o := Options{Level: 0.9, Replicates: 4, Permutations: 4, Seed: 1, Alpha: 0.05}
	c, err := Compare(a, b, o)
	if err != nil {
		t.Fatal(err)
	}
	c.A, c.B = TabularSide("m", "G", a.ID), TabularSide("m", "G", b.ID)
	r, err := NewReport("tabular", o, []*Comparison{c})
	if err != nil {
		t.Fatal(err)
	}
	got, err := jsonout.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	// stat is one statistic's object, its members indented by in.
	stat := func(in, a, b, d, p string) string {
		return strings.ReplaceAll(`{
  "a": `+a+`,
  "b": `+b+`,
  "delta": `+d+`,
  "ci": null,
  "p": `+p+`,
  "p_holm": `+p+`,
  "significant": false,
  "better": null,
  "min_p": 1,
  "can_be_significant": false,
  "mde": null,
  "kept": {
    "bootstrap": 4,
    "permutations": 4
  }
}`, "\n", "\n"+in)
	}
	const in = "        " // inside "stats"
	want := `{
  "kind": "comparison",
  "family": "tabular",
  "level": 0.9,
  "replicates": 4,
  "permutations": 4,
  "seed": 1,
  "alpha": 0.05,
  "comparisons": [
    {
      "a": {
        "model": "m",
        "phase": "G",
        "id": "base:tabular/m/G"
      },
      "b": {
        "model": "m",
        "phase": "G",
        "id": "new:tabular/m/G"
      },
      "units_paired": 1,
      "few_units": true,
      "units_only_a": [
        "1"
      ],
      "units_only_b": [
        "3"
      ],
      "stats": {
        "precision": ` + stat(in, "0.5", "1", "0.5", "1") + `,
        "recall": ` + stat(in, "0.5", "1", "0.5", "1") + `,
        "f1": ` + stat(in, "0.5", "1", "0.5", "1") + `,
        "name_cer": ` + stat(in, "0.1", "0", "-0.1", "1") + `,
        "fields": {
          "title": ` + stat(in+"  ", "1", "1", "0", "1") + `
        }
      },
      "movement": {
        "rose": [
          "2"
        ],
        "fell": [],
        "same": 0
      }
    }
  ]
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
