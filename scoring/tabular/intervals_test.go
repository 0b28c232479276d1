package tabular_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// scoreSample scores the bundled sample (with its rules) with iv, its runs
// rewritten line by line by edit (nil keeps them).
func scoreSample(t *testing.T, iv tabular.Intervals, edit func(line string) string) (*tabularreport.Report, error) {
	t.Helper()
	req, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		lines := strings.Split(string(req.Runs.Data), "\n")
		for i := range lines {
			if lines[i] != "" {
				lines[i] = edit(lines[i])
			}
		}
		req.Runs.Data = []byte(strings.Join(lines, "\n"))
	}
	req.Intervals = iv
	return tabular.ScoreRequest(req)
}

// TestIntervalSettings: each cell's ci echoes the settings, level 0 means
// 0.95, the unit is the page, and another seed draws other intervals.
func TestIntervalSettings(t *testing.T) {
	for _, tc := range []struct {
		iv        tabular.Intervals
		wantLevel float64
	}{
		{tabular.Intervals{Bootstrap: 2000}, 0.95},
		{tabular.Intervals{Bootstrap: 300, CILevel: 0.8, Seed: 7}, 0.8},
		{tabular.Intervals{Bootstrap: 1, CILevel: 0.5, Seed: math.MaxUint64}, 0.5},
	} {
		rep, err := scoreSample(t, tc.iv, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range rep.Cells {
			ci := c.CI
			if ci == nil {
				t.Fatalf("%+v: cell %s/%s has no ci", tc.iv, c.Model, c.Phase)
			}
			if ci.Level != tc.wantLevel || ci.Replicates != tc.iv.Bootstrap || ci.Seed != tc.iv.Seed || ci.Unit != "page" || ci.Units != 3 {
				t.Errorf("%+v: ci settings %v %d %d %q %d", tc.iv, ci.Level, ci.Replicates, ci.Seed, ci.Unit, ci.Units)
			}
			if len(ci.Stats) != 4+len(rep.Fields) {
				t.Errorf("%+v: %d intervals, want %d", tc.iv, len(ci.Stats), 4+len(rep.Fields))
			}
		}
	}
	a, _ := scoreSample(t, tabular.Intervals{Bootstrap: 200, Seed: 1}, nil)
	b, _ := scoreSample(t, tabular.Intervals{Bootstrap: 200, Seed: 2}, nil)
	ja, _ := a.JSON()
	jb, _ := b.JSON()
	if bytes.Equal(ja, jb) {
		t.Error("seeds 1 and 2 gave the same report")
	}
}

// TestIntervalsOffIsTheZeroValue: Bootstrap 0 leaves every ci out.
func TestIntervalsOffIsTheZeroValue(t *testing.T) {
	rep, err := scoreSample(t, tabular.Intervals{CILevel: 0.9, Seed: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rep.JSON()
	if bytes.Contains(b, []byte(`"ci"`)) {
		t.Error(`--bootstrap 0 wrote a "ci" member`)
	}
}

// TestFailedPageIsAUnit: a page whose images in a cell all failed is
// still one of the cell's units, contributing nothing (SPEC F.1); a page
// with no image in the cell is none.
func TestFailedPageIsAUnit(t *testing.T) {
	const cell = `"model": "gpt-4o-2024-08-06", "phase": "G"`
	for _, tc := range []struct {
		name  string
		edit  func(string) string
		units int
	}{
		{"page 29 failed", func(l string) string {
			if strings.Contains(l, cell) && strings.Contains(l, `"page": "29"`) {
				return strings.Replace(l, `"status": "ok"`, `"status": "error"`, 1)
			}
			return l
		}, 3},
		{"page 29 absent", func(l string) string {
			if strings.Contains(l, cell) && strings.Contains(l, `"page": "29"`) {
				return ""
			}
			return l
		}, 2},
	} {
		rep, err := scoreSample(t, tabular.Intervals{Bootstrap: 100}, tc.edit)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range rep.Cells {
			if c.Model == "gpt-4o-2024-08-06" && c.Phase == "G" {
				if c.CI.Units != tc.units {
					t.Errorf("%s: %d units, want %d", tc.name, c.CI.Units, tc.units)
				}
				if tc.name == "page 29 failed" && c.ImagesFailed != 3 {
					t.Errorf("%s: %d failed images, want 3", tc.name, c.ImagesFailed)
				}
			}
		}
	}
}

// TestBadIntervalSettings: settings out of range are input errors naming
// the option.
func TestBadIntervalSettings(t *testing.T) {
	for _, tc := range []struct {
		iv   tabular.Intervals
		want string
	}{
		{tabular.Intervals{Bootstrap: -1}, "bootstrap -1"},
		{tabular.Intervals{Bootstrap: stats.MaxDraws + 1}, "bootstrap 1000001"},
		{tabular.Intervals{Bootstrap: 10, CILevel: 1.5}, "ci-level 1.5"},
		{tabular.Intervals{Bootstrap: 10, CILevel: 1}, "ci-level 1"},
		{tabular.Intervals{Bootstrap: 10, CILevel: -0.5}, "ci-level -0.5"},
		{tabular.Intervals{Bootstrap: 10, CILevel: math.NaN()}, "ci-level NaN"},
		{tabular.Intervals{CILevel: math.Inf(1)}, "ci-level +Inf"},
	} {
		_, err := scoreSample(t, tc.iv, nil)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want an input error naming %q", tc.iv, err, tc.want)
		}
	}
}
