// Package param checks the numeric parameters every host takes (the
// command line's flags, the HTTP API's fields and query parameters, the
// keys of configuration files) with one rule: a value is a finite number
// within its range. NaN and the infinities are never in a range, so no
// comparison against a bound lets them through. The error names the
// parameter as the host calls it ("--gate", "gate", "[model] temperature").
package param

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/inputerr"
)

// Range is an interval of finite numbers; LoOpen and HiOpen leave out a
// bound. An infinite bound means "no bound on this side" (the value must
// still be finite).
type Range struct {
	Lo, Hi         float64
	LoOpen, HiOpen bool
	// Want, when set, replaces the interval in messages: "a similarity in
	// (0, 1]".
	Want string
}

// The ranges docscore's parameters share.
var (
	// Unit is [0, 1]: scores, floors and shares.
	Unit = Range{Lo: 0, Hi: 1, Want: "a number between 0 and 1"}
	// Gate is (0, 1]: the name-similarity gate.
	Gate = Range{Lo: 0, Hi: 1, LoOpen: true, Want: "a similarity in (0, 1]"}
	// NonNegative is [0, ∞): prices and the like.
	NonNegative = Range{Lo: 0, Hi: math.Inf(1), Want: "a finite number, 0 or more"}
	// Temperature is [0, 2]: a model's sampling temperature.
	Temperature = Range{Lo: 0, Hi: 2, Want: "a number from 0 to 2"}
)

// Contains reports whether v is finite and within r.
func (r Range) Contains(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	if v < r.Lo || r.LoOpen && v == r.Lo {
		return false
	}
	if v > r.Hi || r.HiOpen && v == r.Hi {
		return false
	}
	return true
}

// String describes the range: its Want, or the interval in the usual
// notation.
func (r Range) String() string {
	if r.Want != "" {
		return r.Want
	}
	lo, hi := "[", "]"
	if r.LoOpen {
		lo = "("
	}
	if r.HiOpen {
		hi = ")"
	}
	return fmt.Sprintf("a finite number in %s%g, %g%s", lo, r.Lo, r.Hi, hi)
}

// Float checks that the parameter called name has a value v within r. The
// error is an *inputerr.Error (the user's to fix: exit 2 on the command
// line) that reads "NAME V: expected RANGE".
func Float(name string, v float64, r Range) error {
	if r.Contains(v) {
		return nil
	}
	return inputerr.New("", 0, "%s %v: expected %s", name, v, r)
}

// Parse reads the text of the parameter called name as a number and
// checks it as Float does; text that is not a number is the same error.
func Parse(name, text string, r Range) (float64, error) {
	text = strings.TrimSpace(text)
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, inputerr.New("", 0, "%s %q: expected %s", name, text, r)
	}
	return v, Float(name, v, r)
}
