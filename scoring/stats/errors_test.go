package stats

import (
	"math"
	"strings"
	"testing"
)

func TestBuilderRefusesBadContributions(t *testing.T) {
	s := TabularSchema([]string{"title"})
	tests := []struct {
		name string
		v    []float64
		want string
	}{
		{"short", []float64{1, 2}, "2 components, expected 7"},
		{"negative", []float64{1, 1, 1, 0, 0, -1, 1}, "component title.sum is -1, expected a finite number ≥ 0"},
		{"NaN", []float64{math.NaN(), 1, 1, 0, 0, 0, 0}, "component matched is NaN"},
		{"infinite", []float64{1, math.Inf(1), 1, 0, 0, 0, 0}, "component n_model is +Inf"},
	}
	for _, tt := range tests {
		err := NewBuilder("tabular/m/G", s).Add("27", tt.v)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `unit "27"`) {
			t.Errorf("%s: error %v, want one naming unit \"27\" and %q", tt.name, err, tt.want)
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"defaults", func(*Options) {}, ""},
		{"level 1", func(o *Options) { o.Level = 1 }, "level 1"},
		{"level NaN", func(o *Options) { o.Level = math.NaN() }, "level NaN"},
		{"negative replicates", func(o *Options) { o.Replicates = -1 }, "-1 bootstrap replicates"},
		{"too many permutations", func(o *Options) { o.Permutations = MaxDraws + 1 }, "permutations, expected 0 to"},
		{"alpha 0", func(o *Options) { o.Alpha = 0 }, "alpha 0"},
	}
	for _, tt := range tests {
		o := DefaultOptions()
		tt.edit(&o)
		err := o.Validate()
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
		if tt.want != "" {
			if _, err := Interval(synthTabular(t, "c", 3, 0.5, "o"), o); err == nil {
				t.Errorf("%s: Interval accepted the options", tt.name)
			}
		}
	}
}

func TestCompareRefusesDifferentFields(t *testing.T) {
	a := NewBuilder("base:tabular/m/G", TabularSchema([]string{"title"})).Build()
	b := NewBuilder("new:tabular/m/G", TabularSchema([]string{"title", "arrival_date"})).Build()
	_, err := Compare(a, b, DefaultOptions())
	if err == nil || !strings.Contains(err.Error(), "fields differ") {
		t.Errorf("error %v, want one saying the fields differ", err)
	}
	r := NewBuilder("receipts/c1", ReceiptsSchema(false)).Build()
	if _, err := Compare(a, r, DefaultOptions()); err == nil {
		t.Error("a tabular cell was compared with a receipts phase")
	}
}

// Empty cells give null intervals and no p-values, never a panic.
func TestEmptyCells(t *testing.T) {
	a := NewBuilder("a", ReceiptsSchema(true)).Build()
	ci, err := Interval(a, DefaultOptions())
	if err != nil || ci.Units != 0 {
		t.Fatalf("%v %+v", err, ci)
	}
	for _, s := range ci.Stats {
		if s.Interval != nil {
			t.Errorf("%s: interval %v on no units", s.Name, *s.Interval)
		}
	}
	c, err := Compare(a, withID(a, "b"), DefaultOptions())
	if err != nil || c.UnitsPaired != 0 {
		t.Fatalf("%v %+v", err, c)
	}
	for _, s := range c.Stats {
		if s.CI != nil || s.P != nil || s.Delta != nil {
			t.Errorf("%s: ci %v p %v delta %v on no units", s.Path(), s.CI, show(s.P), show(s.Delta))
		}
	}
}
