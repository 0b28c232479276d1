package compareapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/docscore/docscore/scoring/api"
)

// TestGoldenPlan holds docscore plan on the sample reports to reviewed
// files, and its numbers to those compare --within writes.
func TestGoldenPlan(t *testing.T) {
	for _, tc := range []struct{ name, report string }{
		{"tabular_plan", tabularReport},
		{"receipts_plan", receiptsReport},
	} {
		for _, format := range []string{"json", "md"} {
			t.Run(tc.name+"."+format, func(t *testing.T) {
				res, err := PlanOperation().Run(api.NoCancel, &PlanRequest{Report: file(t, tc.report), Effect: floatp(0.01), Format: format})
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", tc.name+"."+format)
				if *update {
					if err := os.WriteFile(path, res.Bytes, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(res.Bytes, want) {
					t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", format, path, res.Bytes)
				}
			})
		}
	}
}

// TestPlanAgreesWithCompare: a plan's floor, MDE and units needed are
// those of compare --within with the same effect, whatever the draws.
func TestPlanAgreesWithCompare(t *testing.T) {
	res, err := PlanOperation().Run(api.NoCancel, &PlanRequest{Report: file(t, tabularReport), Effect: floatp(0.01)})
	if err != nil {
		t.Fatal(err)
	}
	var plan struct {
		Plans []struct {
			Stats map[string]json.RawMessage `json:"stats"`
		} `json:"plans"`
	}
	if err := json.Unmarshal(res.Bytes, &plan); err != nil {
		t.Fatal(err)
	}
	req := small(&CompareRequest{Base: file(t, tabularReport), Within: true, Effect: floatp(0.01)})
	var cmp struct {
		Comparisons []struct {
			Stats map[string]json.RawMessage `json:"stats"`
		} `json:"comparisons"`
	}
	if err := json.Unmarshal(run(t, req), &cmp); err != nil {
		t.Fatal(err)
	}
	if len(plan.Plans) != len(cmp.Comparisons) || len(plan.Plans) == 0 {
		t.Fatalf("%d plans, %d comparisons", len(plan.Plans), len(cmp.Comparisons))
	}
	type f7 struct {
		MinP        float64  `json:"min_p"`
		Can         bool     `json:"can_be_significant"`
		MDE         *float64 `json:"mde"`
		UnitsNeeded *int     `json:"units_needed"`
	}
	for i := range plan.Plans {
		var p, c f7
		if err := json.Unmarshal(plan.Plans[i].Stats["f1"], &p); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(cmp.Comparisons[i].Stats["f1"], &c); err != nil {
			t.Fatal(err)
		}
		if p.MinP != c.MinP || p.Can != c.Can || *p.MDE != *c.MDE || *p.UnitsNeeded != *c.UnitsNeeded {
			t.Errorf("plan %d: %+v, compare %+v", i, p, c)
		}
		// The sample's 3 pages: the floor is 0.25 or more, never significant.
		if p.MinP < 0.25 || p.Can {
			t.Errorf("plan %d: min_p %v, can_be_significant %v on 3 pages", i, p.MinP, p.Can)
		}
	}
}

func TestPlanRefusesABadEffect(t *testing.T) {
	_, err := PlanOperation().Run(api.NoCancel, &PlanRequest{Report: file(t, tabularReport), Effect: floatp(-1)})
	var pe *api.ParamError
	if !errors.As(err, &pe) || pe.Param != "effect" {
		t.Fatalf("got %v, want a ParamError on effect", err)
	}
}
