// Package donut computes the CORD-standard structured metrics the way the
// clovaai/donut evaluator (donut/util.py, JSONParseEvaluator) defines them,
// so that scores can be compared with published CORD numbers:
//
//   - tree-edit-distance accuracy, max(0, 1 − TED(pred, gt)/TED(∅, gt)),
//     with the Zhang–Shasha algorithm over trees built from normalized
//     parses, and Donut's node costs;
//   - field-level F1 over flattened (key path, value) pairs, counted as a
//     multiset and micro-averaged over every page.
//
// Parses are JSON values (a Donut gt_parse object, or a prediction in the
// same shape) decoded by [Parse]. Every step follows Python's semantics
// where they show: key order, falsy values, str() of numbers, str.strip
// and code-point string lengths. The package is pure.
package donut

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Parse decodes one JSON value as Python's json module would see it:
// objects become map[string]any (a repeated key keeps its last value),
// arrays []any, numbers json.Number (kept as written, so that integers and
// floats stay apart), strings, booleans and nil. Anything after the value
// other than white space is an error.
//
// Two inputs differ from Python's json.loads, which clovaai/donut's
// evaluator uses (checked against it):
//
//   - a lone surrogate escape such as "\ud800" becomes U+FFFD (Go strings
//     hold no surrogates), where Python keeps the surrogate: two different
//     lone surrogates, or one and a real U+FFFD, compare equal here and
//     unequal there, and so can change a score;
//   - NaN, Infinity and -Infinity are refused (they are not JSON), where
//     Python accepts them as floats.
//
// Valid JSON without lone surrogates decodes the same in both.
func Parse(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// Dict is a normalized JSON object: its members in Donut's key order
// (shorter keys first, then by code point), each value a non-empty list of
// strings or of Dicts.
type Dict []Member

// Member is one key of a normalized object with its list value.
type Member struct {
	Key   string
	Value []any // elements are string or Dict
}

// Normalize returns the normalized form of a parse, as Donut's
// normalize_dict does:
//   - a "falsy" value (null, false, 0, 0.0, "", [] or {}) becomes an empty
//     Dict;
//   - an object keeps its keys sorted by (length, key), each with its
//     normalized value wrapped in a list when it is not one already; keys
//     whose value normalizes to nothing are dropped;
//   - a list of objects keeps its non-empty normalized objects;
//   - any other list keeps the str().strip() of its strings and numbers
//     (not of booleans, nulls, objects or lists) when that is non-empty;
//   - any other value becomes a one-element list of its str().strip().
//
// The result is a Dict, or a []any of strings or of Dicts.
func Normalize(v any) any {
	if falsy(v) {
		return Dict{}
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int {
			la, lb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
			if la != lb {
				return la - lb
			}
			return strings.Compare(a, b)
		})
		d := Dict{}
		for _, k := range keys {
			nv := Normalize(x[k])
			if empty(nv) {
				continue
			}
			list, ok := nv.([]any)
			if !ok {
				list = []any{nv}
			}
			d = append(d, Member{Key: k, Value: list})
		}
		return d
	case []any:
		allDicts := true
		for _, item := range x {
			if _, ok := item.(map[string]any); !ok {
				allDicts = false
				break
			}
		}
		out := []any{}
		if allDicts {
			for _, item := range x {
				if n := Normalize(item); !empty(n) {
					out = append(out, n)
				}
			}
			return out
		}
		for _, item := range x {
			switch item.(type) {
			case string, json.Number:
				if s := pyStrip(pyStr(item)); s != "" {
					out = append(out, s)
				}
			}
		}
		return out
	default:
		return []any{pyStrip(pyStr(v))}
	}
}

// falsy reports whether Python's "not v" holds for a decoded JSON value.
func falsy(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == ""
	case json.Number:
		if isIntLiteral(string(x)) {
			return strings.TrimLeft(strings.TrimPrefix(string(x), "-"), "0") == ""
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f == 0
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

// empty reports whether a normalized value is falsy (an empty Dict or list).
func empty(v any) bool {
	switch x := v.(type) {
	case Dict:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

func isIntLiteral(s string) bool { return !strings.ContainsAny(s, ".eE") }

// pyStr returns Python's str() of a decoded JSON scalar.
func pyStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		s := string(x)
		if isIntLiteral(s) {
			if strings.TrimLeft(strings.TrimPrefix(s, "-"), "0") == "" {
				return "0"
			}
			return s
		}
		f, _ := strconv.ParseFloat(s, 64) // ±Inf on overflow, as Python reads it
		return pyFloat(f)
	case nil:
		return "None"
	}
	return fmt.Sprint(v)
}

// pyFloat formats f as Python's repr(float): the shortest digits that
// round-trip, in fixed notation when the decimal exponent is in [-4, 16),
// else in scientific notation with a signed two-digit exponent.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	sign := ""
	if strings.HasPrefix(mant, "-") {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	point := exp + 1 // digits before the decimal point
	var s string
	switch {
	case point <= 0:
		s = "0." + strings.Repeat("0", -point) + digits
	case point >= len(digits):
		s = digits + strings.Repeat("0", point-len(digits)) + ".0"
	default:
		s = digits[:point] + "." + digits[point:]
	}
	return sign + s
}

// pyStrip trims what Python's str.strip() trims: Unicode white space and
// the information separators U+001C–U+001F.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
	})
}

// Field is one flattened (key path, value) pair.
type Field struct {
	Key   string // dotted key path, such as "menu.nm"
	Value string
}

// Flatten lists the (key path, value) pairs of a normalized value in
// order, as Donut's flatten does: object keys join with ".", list elements
// share their parent's path.
func Flatten(normalized any) []Field {
	var out []Field
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case Dict:
			for _, m := range x {
				k := m.Key
				if key != "" {
					k = key + "." + m.Key
				}
				walk(m.Value, k)
			}
		case []any:
			for _, item := range x {
				walk(item, key)
			}
		case string:
			out = append(out, Field{Key: key, Value: x})
		}
	}
	walk(normalized, "")
	return out
}

// FieldCounts compares the flattened fields of a predicted and a ground
// truth parse (both normalized first) as multisets: matched is the size of
// their intersection, pred and gt the number of fields on each side.
func FieldCounts(pred, gt any) (matched, nPred, nGT int) {
	p := Flatten(Normalize(pred))
	g := Flatten(Normalize(gt))
	left := map[Field]int{}
	for _, f := range g {
		left[f]++
	}
	for _, f := range p {
		if left[f] > 0 {
			left[f]--
			matched++
		}
	}
	return matched, len(p), len(g)
}

// F1 is Donut's micro-averaged field F1 from pooled counts:
// tp / (tp + (fp + fn)/2), with fp = pred − tp and fn = gt − tp. ok is false
// when both sides have no field at all (Donut divides by zero there).
func F1(matched, nPred, nGT int) (f1 float64, ok bool) {
	fnOrFP := (nPred - matched) + (nGT - matched)
	den := float64(matched) + float64(fnOrFP)/2
	if den == 0 {
		return 0, false
	}
	return float64(matched) / den, true
}

// ErrEmptyGroundTruth is returned by [Accuracy] when the ground truth
// normalizes to nothing: TED accuracy divides by its size.
var ErrEmptyGroundTruth = errors.New("donut: the ground truth parse is empty; TED accuracy is undefined")

// Accuracy returns Donut's normalized tree-edit-distance accuracy of a
// predicted parse against the ground truth:
// max(0, 1 − TED(pred, gt)/TED(∅, gt)), both trees built from the
// normalized parses ([Tree]) and compared with Zhang–Shasha ([TED]).
func Accuracy(pred, gt any) (float64, error) {
	g := Tree(Normalize(gt))
	p := Tree(Normalize(pred))
	den, err := TED(Tree(Dict{}), g)
	if err != nil {
		return 0, err
	}
	if den == 0 {
		return 0, ErrEmptyGroundTruth
	}
	d, err := TED(p, g)
	if err != nil {
		return 0, err
	}
	return max(0, 1-float64(d)/float64(den)), nil
}
