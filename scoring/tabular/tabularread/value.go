package tabularread

import (
	"math"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/internal/jsonscan"
	"github.com/docscore/docscore/scoring/text"
)

// Value is one cell of a record: its text and whether it came as a JSON
// number (which matters for integer columns).
type Value struct {
	Text   string
	Number bool
}

// Blank reports whether the value is empty after trimming whitespace (null,
// missing, arrays and objects are blank).
func (v Value) Blank() bool { return text.IsBlank(v.Text) }

// valueFromJSON converts a JSON value of a record: strings as they are,
// numbers by their literal, booleans to Y/N, and null, arrays and objects
// to blank.
func valueFromJSON(raw string) Value {
	if len(raw) == 0 {
		return Value{}
	}
	switch raw[0] {
	case '"':
		if s, ok := jsonscan.String(raw); ok {
			return Value{Text: s}
		}
	case 't':
		return Value{Text: "Y"}
	case 'f':
		return Value{Text: "N"}
	case 'n', '[', '{':
		return Value{}
	default:
		return Value{Text: raw, Number: true}
	}
	return Value{}
}

// IntegerValue returns the integer a value holds: an integer literal with
// optional sign, leading zeros and surrounding spaces, or an integral JSON
// number such as 2.0.
func IntegerValue(v Value) (int64, bool) {
	s := strings.TrimSpace(v.Text)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	if !v.Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}
