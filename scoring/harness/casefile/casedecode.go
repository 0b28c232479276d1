package casefile

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// Decoder converts one parsed item into Go values, naming positions.
type Decoder struct {
	Name     string
	Tree     *ingest.Tree
	LineBase int
}

// ErrAt is an input error at the tree path at: file, line and column.
func (d *Decoder) ErrAt(at, format string, args ...any) error {
	line, col := d.Tree.Pos(at)
	msg := fmt.Sprintf(format, args...)
	if at != "" {
		msg = at + ": " + msg
	}
	return &inputerr.Error{File: d.Name, Line: line + d.LineBase, Column: col, Msg: msg}
}

// Has reports whether m has the key k.
func Has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// SortedKeys returns m's keys, sorted.
func SortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// JSONType names the JSON type of a decoded value, for errors.
func JSONType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Keys checks that obj has every required key and no unknown one.
func (d *Decoder) Keys(obj map[string]any, at string, allowed, required []string) error {
	for _, k := range SortedKeys(obj) {
		if !slices.Contains(allowed, k) {
			return d.ErrAt(JoinKey(at, k), "unknown field (expected one of %s)", strings.Join(allowed, ", "))
		}
	}
	for _, k := range required {
		if !Has(obj, k) {
			return d.ErrAt(at, "missing required field %q", k)
		}
	}
	return nil
}

// Object returns v as a JSON object, or an error at at.
func (d *Decoder) Object(v any, at string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, d.ErrAt(at, "expected an object, found %s", JSONType(v))
	}
	return m, nil
}

// Array returns v as a JSON array, or an error at at.
func (d *Decoder) Array(v any, at string) ([]any, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, d.ErrAt(at, "expected an array, found %s", JSONType(v))
	}
	return a, nil
}

// OptString returns obj[k] as a string, "" when absent.
func (d *Decoder) OptString(obj map[string]any, at, k string) (string, error) {
	v, ok := obj[k]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", d.ErrAt(JoinKey(at, k), "expected a string, found %s", JSONType(v))
	}
	return s, nil
}

// ReqString returns obj[k] as a string that must be there.
func (d *Decoder) ReqString(obj map[string]any, at, k string) (string, error) {
	s, err := d.OptString(obj, at, k)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		if !Has(obj, k) {
			return "", d.ErrAt(at, "missing required field %q", k)
		}
		return "", d.ErrAt(JoinKey(at, k), "expected a non-empty string")
	}
	return s, nil
}

// EnumString returns obj[k], a string that must be one of allowed.
func (d *Decoder) EnumString(obj map[string]any, at, k string, allowed []string) (string, error) {
	s, err := d.OptString(obj, at, k)
	if err != nil || !Has(obj, k) {
		return s, err
	}
	if !slices.Contains(allowed, s) {
		return "", d.ErrAt(JoinKey(at, k), "%q: expected one of %s", s, strings.Join(allowed, ", "))
	}
	return s, nil
}

// OptBool returns obj[k] as a bool, false when absent.
func (d *Decoder) OptBool(obj map[string]any, at, k string) (bool, error) {
	v, ok := obj[k]
	if !ok {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, d.ErrAt(JoinKey(at, k), "expected true or false, found %s", JSONType(v))
	}
	return b, nil
}

// StringList returns obj[k] as a list of strings.
func (d *Decoder) StringList(obj map[string]any, at, k string) ([]string, error) {
	v, ok := obj[k]
	if !ok {
		return nil, nil
	}
	arr, err := d.Array(v, JoinKey(at, k))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, d.ErrAt(JoinKey(at, k)+"["+strconv.Itoa(i)+"]", "expected a string, found %s", JSONType(e))
		}
		out = append(out, s)
	}
	return out, nil
}

// OptObject returns obj[k] as a JSON object, nil when absent.
func (d *Decoder) OptObject(obj map[string]any, at, k string) (map[string]any, error) {
	v, ok := obj[k]
	if !ok {
		return nil, nil
	}
	return d.Object(v, JoinKey(at, k))
}
