package agreement

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// vectors are written by testdata/gen_vectors.py, an independent
// implementation in exact fractions (python3 gen_vectors.py > vectors.json).
type vectors struct {
	Alpha []struct {
		Name     string      `json:"name"`
		Units    [][]*string `json:"units"`
		Alpha    *float64    `json:"alpha"`
		Reason   string      `json:"reason"`
		Pairable int         `json:"pairable"`
	} `json:"alpha"`
	Kappa []struct {
		Name   string      `json:"name"`
		Pairs  [][2]string `json:"pairs"`
		Kappa  *float64    `json:"kappa"`
		Reason string      `json:"reason"`
	} `json:"kappa"`
}

func readVectors(t *testing.T) vectors {
	t.Helper()
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("testdata/vectors.json: %v", err)
	}
	if len(v.Alpha) < 5 || len(v.Kappa) < 4 {
		t.Fatalf("testdata/vectors.json: %d alpha and %d kappa vectors, expected at least 5 and 4", len(v.Alpha), len(v.Kappa))
	}
	return v
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestNominalAlphaAgainstPythonVectors(t *testing.T) {
	for _, c := range readVectors(t).Alpha {
		t.Run(c.Name, func(t *testing.T) {
			units := make([][]string, len(c.Units))
			for i, u := range c.Units {
				for _, v := range u {
					s := Missing
					if v != nil {
						s = *v
					}
					units[i] = append(units[i], s)
				}
			}
			got := NominalAlpha(units)
			if got.Values != c.Pairable {
				t.Errorf("pairable values %d, python %d", got.Values, c.Pairable)
			}
			switch {
			case c.Alpha == nil && got.Alpha != nil:
				t.Fatalf("alpha %v, python undefined (%s)", *got.Alpha, c.Reason)
			case c.Alpha != nil && got.Alpha == nil:
				t.Fatalf("alpha undefined (%s), python %v", got.Reason, *c.Alpha)
			case c.Alpha != nil && !near(*got.Alpha, *c.Alpha):
				t.Fatalf("alpha %.15f, python %.15f", *got.Alpha, *c.Alpha)
			case c.Alpha == nil && got.Reason == "":
				t.Fatal("undefined alpha without a reason")
			}
		})
	}
}

// TestKrippendorffPublishedExample checks the worked example of
// Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011),
// section C: four observers, twelve units, missing values; the paper gives
// n = 40 pairable values and nominal α = 0.743.
func TestKrippendorffPublishedExample(t *testing.T) {
	obs := [4]string{
		"1 2 3 3 2 1 4 1 2 . . .",
		"1 2 3 3 2 2 4 1 2 5 . 3",
		". 3 3 3 2 3 4 2 2 5 1 .",
		"1 2 3 3 2 4 4 1 2 5 1 .",
	}
	units := make([][]string, 12)
	for _, row := range obs {
		for u := 0; u < 12; u++ {
			v := string(row[2*u])
			if v == "." {
				v = Missing
			}
			units[u] = append(units[u], v)
		}
	}
	a := NominalAlpha(units)
	if a.Alpha == nil || math.Round(*a.Alpha*1000)/1000 != 0.743 {
		t.Fatalf("alpha %v (%s), published 0.743", a.Alpha, a.Reason)
	}
	if a.Values != 40 || a.Units != 11 {
		t.Fatalf("n = %d over %d units, published n = 40 over 11 pairable units", a.Values, a.Units)
	}
}

func TestNominalAlphaEdgeCases(t *testing.T) {
	for _, c := range []struct {
		name   string
		units  [][]string
		alpha  *float64
		reason string
	}{
		{"one judge", [][]string{{"pass"}, {"fail"}}, nil, ReasonNoPairs},
		{"nothing", nil, nil, ReasonNoPairs},
		{"all missing", [][]string{{"", ""}, {"", "pass"}}, nil, ReasonNoPairs},
		{"all agree on one value", [][]string{{"pass", "pass"}, {"pass", "pass", "pass"}}, nil, ReasonNoVariation},
		{"all agree, two values", [][]string{{"pass", "pass"}, {"fail", "fail", ""}}, ptr(1), ""},
		{"opposite", [][]string{{"pass", "fail"}, {"fail", "pass"}}, ptr(-0.5), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := NominalAlpha(c.units)
			if (a.Alpha == nil) != (c.alpha == nil) || (a.Alpha != nil && !near(*a.Alpha, *c.alpha)) {
				t.Fatalf("alpha %v, expected %v", show(a.Alpha), show(c.alpha))
			}
			if a.Reason != c.reason {
				t.Fatalf("reason %q, expected %q", a.Reason, c.reason)
			}
		})
	}
}

func TestCohenKappaAgainstPythonVectors(t *testing.T) {
	for _, c := range readVectors(t).Kappa {
		t.Run(c.Name, func(t *testing.T) {
			pairs := make([]Pair, len(c.Pairs))
			for i, p := range c.Pairs {
				pairs[i] = Pair{Judge: p[0], Human: p[1]}
			}
			got := CohenKappa(pairs)
			if (got.Kappa == nil) != (c.Kappa == nil) || (c.Kappa != nil && !near(*got.Kappa, *c.Kappa)) {
				t.Fatalf("kappa %v (%s), python %v (%s)", show(got.Kappa), got.Reason, show(c.Kappa), c.Reason)
			}
			if got.N != len(pairs) {
				t.Fatalf("n %d, expected %d", got.N, len(pairs))
			}
		})
	}
}

// TestCohenKappaClassic is the textbook 2×2 example, by hand: 50 items,
// both yes 20, judge yes / human no 5, judge no / human yes 10, both no 15.
// po = 35/50 = 0.7; the judge says yes 25/50, the human 30/50, so
// pe = 0.5·0.6 + 0.5·0.4 = 0.5 and κ = (0.7 − 0.5)/(1 − 0.5) = 0.4.
func TestCohenKappaClassic(t *testing.T) {
	var pairs []Pair
	add := func(j, h string, n int) {
		for i := 0; i < n; i++ {
			pairs = append(pairs, Pair{j, h})
		}
	}
	add("yes", "yes", 20)
	add("yes", "no", 5)
	add("no", "yes", 10)
	add("no", "no", 15)
	add("yes", Missing, 3) // a unit no person decided: skipped
	k := CohenKappa(pairs)
	if k.Kappa == nil || !near(*k.Kappa, 0.4) || !near(k.Observed, 0.7) || !near(k.Expected, 0.5) {
		t.Fatalf("kappa %v po %v pe %v, expected 0.4, 0.7, 0.5", show(k.Kappa), k.Observed, k.Expected)
	}
	if k.N != 50 || k.Skipped != 3 {
		t.Fatalf("n %d skipped %d, expected 50 and 3", k.N, k.Skipped)
	}
	want := []Cell{{"no", "no", 15}, {"no", "yes", 10}, {"yes", "no", 5}, {"yes", "yes", 20}}
	if len(k.Confusion) != len(want) {
		t.Fatalf("confusion %v, expected %v", k.Confusion, want)
	}
	for i := range want {
		if k.Confusion[i] != want[i] {
			t.Fatalf("confusion %v, expected %v", k.Confusion, want)
		}
	}
}

func TestCohenKappaEdgeCases(t *testing.T) {
	if k := CohenKappa(nil); k.Kappa != nil || k.Reason != ReasonNoKappaPair || k.Confusion == nil {
		t.Fatalf("empty: %+v", k)
	}
	if k := CohenKappa([]Pair{{"pass", "pass"}, {"pass", "pass"}}); k.Kappa != nil || k.Reason != ReasonKappaChance {
		t.Fatalf("one category: %+v", k)
	}
	if k := CohenKappa([]Pair{{"pass", "fail"}, {"fail", "pass"}}); k.Kappa == nil || !near(*k.Kappa, -1) {
		t.Fatalf("always opposite: %v, expected -1", show(k.Kappa))
	}
}

func TestDissent(t *testing.T) {
	raters := []string{"a", "b", "c"}
	units := [][]string{
		{"pass", "pass", "fail"},
		{"fail", "fail", "fail"},
		{"pass", Missing, "fail"},
		{"pass", "fail"}, // c did not rate: padded
		{"pass", "pass", "pass"},
	}
	decisions := []string{"pass", "fail", "pass", "pass", Missing}
	got := Dissent(raters, units, decisions)
	want := map[string][2]int{"a": {0, 4}, "b": {1, 3}, "c": {2, 3}}
	for r, w := range want {
		if got[r].Count != w[0] || got[r].N != w[1] {
			t.Errorf("%s: %d of %d, expected %d of %d", r, got[r].Count, got[r].N, w[0], w[1])
		}
	}
	if got["c"].Rate == nil || !near(*got["c"].Rate, 2.0/3) {
		t.Errorf("c: rate %v, expected 2/3", show(got["c"].Rate))
	}
	if r := Dissent([]string{"x"}, nil, nil)["x"]; r.Rate != nil || r.N != 0 {
		t.Errorf("no units: %+v, expected a nil rate", r)
	}
}

func TestChanges(t *testing.T) {
	for _, c := range []struct {
		name     string
		groups   [][]string
		count, n int
	}{
		{"stable and changed", [][]string{{"pass", "pass", "pass"}, {"pass", "fail", "pass"}, {"fail", "fail"}}, 1, 3},
		{"missing ignored", [][]string{{"pass", Missing, "pass"}, {Missing, "fail"}, {"pass", "uncertain"}}, 1, 2},
		{"nothing", nil, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Changes(c.groups)
			if r.Count != c.count || r.N != c.n || (r.N == 0) != (r.Rate == nil) {
				t.Fatalf("%d of %d (rate %v), expected %d of %d", r.Count, r.N, show(r.Rate), c.count, c.n)
			}
		})
	}
}

func ptr(f float64) *float64 { return &f }

func show(p *float64) any {
	if p == nil {
		return "undefined"
	}
	return *p
}
