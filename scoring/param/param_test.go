package param

import (
	"math"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
)

func TestFloat(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		v    float64
		r    Range
		ok   bool
		want string // in the message
	}{
		{0.7, Gate, true, ""},
		{1, Gate, true, ""},
		{0, Gate, false, "--x 0: expected a similarity in (0, 1]"},
		{nan, Gate, false, "--x NaN: expected"},
		{inf, Gate, false, "--x +Inf: expected"},
		{-inf, Gate, false, "--x -Inf: expected"},
		{0, Unit, true, ""},
		{1.0000001, Unit, false, "expected a number between 0 and 1"},
		{1e300, NonNegative, true, ""},
		{inf, NonNegative, false, "expected a finite number, 0 or more"},
		{nan, NonNegative, false, "NaN"},
		{-0.5, NonNegative, false, "-0.5"},
		{2, Temperature, true, ""},
		{0.5, Range{Lo: 0, Hi: 1, HiOpen: true}, true, ""},
		{1, Range{Lo: 0, Hi: 1, HiOpen: true}, false, "expected a finite number in [0, 1)"},
		{-inf, Range{Lo: math.Inf(-1), Hi: math.Inf(1)}, false, "-Inf"},
	}
	for _, tt := range tests {
		err := Float("--x", tt.v, tt.r)
		if tt.ok != (err == nil) {
			t.Errorf("Float(%v, %v) = %v, want ok %v", tt.v, tt.r, err, tt.ok)
			continue
		}
		if err == nil {
			continue
		}
		if _, ok := inputerr.As(err); !ok {
			t.Errorf("Float(%v): %T is not an input error", tt.v, err)
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Float(%v) = %q, want %q in it", tt.v, err, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		text string
		ok   bool
	}{
		{"0.5", true}, {" 1 ", true}, {"NaN", false}, {"nan", false}, {"Inf", false}, {"-inf", false},
		{"+Infinity", false}, {"abc", false}, {"", false}, {"1e400", false}, {"2", false},
	}
	for _, tt := range tests {
		v, err := Parse("f1", tt.text, Unit)
		if tt.ok != (err == nil) {
			t.Errorf("Parse(%q) = %v, %v, want ok %v", tt.text, v, err, tt.ok)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "f1 ") {
			t.Errorf("Parse(%q) = %q: does not name the parameter first", tt.text, err)
		}
	}
}
