package harness

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

// fileDecoder converts one parsed item into Go values, naming positions.
type fileDecoder struct {
	name     string
	tree     *ingest.Tree
	lineBase int
}

func (d *fileDecoder) errAt(at, format string, args ...any) error {
	line, col := d.tree.Pos(at)
	msg := fmt.Sprintf(format, args...)
	if at != "" {
		msg = at + ": " + msg
	}
	return &inputerr.Error{File: d.name, Line: line + d.lineBase, Column: col, Msg: msg}
}

func has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func jsonType(v any) string {
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

// keys checks that obj has every required key and no unknown one.
func (d *fileDecoder) keys(obj map[string]any, at string, allowed, required []string) error {
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(allowed, k) {
			return d.errAt(joinKey(at, k), "unknown field (expected one of %s)", strings.Join(allowed, ", "))
		}
	}
	for _, k := range required {
		if !has(obj, k) {
			return d.errAt(at, "missing required field %q", k)
		}
	}
	return nil
}

func (d *fileDecoder) object(v any, at string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, d.errAt(at, "expected an object, found %s", jsonType(v))
	}
	return m, nil
}

func (d *fileDecoder) array(v any, at string) ([]any, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, d.errAt(at, "expected an array, found %s", jsonType(v))
	}
	return a, nil
}

func (d *fileDecoder) optString(obj map[string]any, at, k string) (string, error) {
	v, ok := obj[k]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", d.errAt(joinKey(at, k), "expected a string, found %s", jsonType(v))
	}
	return s, nil
}

func (d *fileDecoder) reqString(obj map[string]any, at, k string) (string, error) {
	s, err := d.optString(obj, at, k)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		if !has(obj, k) {
			return "", d.errAt(at, "missing required field %q", k)
		}
		return "", d.errAt(joinKey(at, k), "expected a non-empty string")
	}
	return s, nil
}

func (d *fileDecoder) enumString(obj map[string]any, at, k string, allowed []string) (string, error) {
	s, err := d.optString(obj, at, k)
	if err != nil || !has(obj, k) {
		return s, err
	}
	if !slices.Contains(allowed, s) {
		return "", d.errAt(joinKey(at, k), "%q: expected one of %s", s, strings.Join(allowed, ", "))
	}
	return s, nil
}

func (d *fileDecoder) optBool(obj map[string]any, at, k string) (bool, error) {
	v, ok := obj[k]
	if !ok {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, d.errAt(joinKey(at, k), "expected true or false, found %s", jsonType(v))
	}
	return b, nil
}

func (d *fileDecoder) stringList(obj map[string]any, at, k string) ([]string, error) {
	v, ok := obj[k]
	if !ok {
		return nil, nil
	}
	arr, err := d.array(v, joinKey(at, k))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, d.errAt(joinKey(at, k)+"["+strconv.Itoa(i)+"]", "expected a string, found %s", jsonType(e))
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *fileDecoder) optObject(obj map[string]any, at, k string) (map[string]any, error) {
	v, ok := obj[k]
	if !ok {
		return nil, nil
	}
	return d.object(v, joinKey(at, k))
}
