package evalcase

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"
)

// NormalizeValue turns any JSON-marshalable Go value into the generic form
// that decoding JSON gives (map[string]any, []any, string, bool, nil and
// json.Number), so that metrics see one shape whether a case was read from
// a file or built in Go.
func NormalizeValue(v any) (any, error) {
	if isGeneric(v, 0) {
		return v, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return DecodeJSON(data)
}

// isGeneric reports whether v is already in the generic JSON form (as
// values read from a file are), so normalizing it would change nothing.
func isGeneric(v any, depth int) bool {
	if depth > ingest.MaxDepth {
		return false
	}
	switch x := v.(type) {
	case nil, string, bool, json.Number:
		return true
	case map[string]any:
		for _, e := range x {
			if !isGeneric(e, depth+1) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !isGeneric(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// DecodeJSON decodes one JSON value with numbers kept as json.Number.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// CanonicalJSON encodes v with sorted object keys and no HTML escaping; it
// is the byte form that fingerprints hash.
func CanonicalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// Number reports the numeric value of v when v is a Go number, a
// json.Number or a string holding a JSON number, as the values of cases
// read from a file are json.Number.
func Number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint64:
		return float64(x), true
	case string:
		if isJSONNumber(strings.TrimSpace(x)) {
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			return f, err == nil
		}
	}
	return 0, false
}

// emptyObject and emptyArray stand for {} and [] leaves in a flattened value.
type emptyContainer string

// MarshalJSON writes the empty container itself.
func (e emptyContainer) MarshalJSON() ([]byte, error) { return []byte(e), nil }

const (
	emptyObject emptyContainer = "{}"
	emptyArray  emptyContainer = "[]"
)

// Leaf is one scalar of a flattened JSON value: its path, such as
// $.items[0].code, and its value (a string, json.Number, bool, nil, or an
// empty object or array, which marshals as {} or []).
type Leaf struct {
	Path  string `json:"path"`
	Value any    `json:"value"`
}

// Flatten lists the scalar leaves of a JSON value with their paths, object
// keys in sorted order and array elements in index order. Empty objects and
// arrays are leaves of their own. The value is normalized first, so Go
// structs flatten like the JSON they marshal to.
func Flatten(v any) ([]Leaf, error) {
	n, err := NormalizeValue(v)
	if err != nil {
		return nil, err
	}
	var out []Leaf
	flattenInto(&out, "$", n)
	return out, nil
}

func flattenInto(out *[]Leaf, path string, v any) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			*out = append(*out, Leaf{path, emptyObject})
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			flattenInto(out, path+keySegment(k), x[k])
		}
	case []any:
		if len(x) == 0 {
			*out = append(*out, Leaf{path, emptyArray})
			return
		}
		for i, e := range x {
			flattenInto(out, path+"["+strconv.Itoa(i)+"]", e)
		}
	default:
		*out = append(*out, Leaf{path, x})
	}
}

// keySegment renders one object key as a path segment: .name for plain
// identifiers, ["any key"] otherwise, with only '"' and '\' escaped by a
// backslash — exactly what CanonicalPath reads back, so a rendered path is
// its own canonical form.
func keySegment(k string) string {
	if isIdentifier(k) {
		return "." + k
	}
	return `["` + keyEscaper.Replace(k) + `"]`
}

var keyEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// CanonicalPath parses a field path as written in a path/value table
// ($.items[0].code, items[0].code, $['odd key'], $["odd key"]) and renders
// it in the form Flatten uses.
func CanonicalPath(p string) (string, error) {
	s := strings.TrimSpace(p)
	if s == "" {
		return "", fmt.Errorf("empty path")
	}
	var b strings.Builder
	b.WriteString("$")
	i := 0
	if s[0] == '$' {
		i = 1
	} else if s[0] != '[' {
		s = "." + s
	}
	for i < len(s) {
		switch s[i] {
		case '.':
			j := i + 1
			for j < len(s) && s[j] != '.' && s[j] != '[' {
				j++
			}
			name := s[i+1 : j]
			if name == "" {
				return "", fmt.Errorf("path %q: empty name after '.' at offset %d", p, i)
			}
			b.WriteString(keySegment(name))
			i = j
		case '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return "", fmt.Errorf("path %q: '[' at offset %d is not closed", p, i)
			}
			inner := strings.TrimSpace(s[i+1 : i+j])
			switch {
			case inner == "":
				return "", fmt.Errorf("path %q: empty [] at offset %d", p, i)
			case inner[0] == '"' || inner[0] == '\'':
				// A quoted key may itself contain ']': find the closing quote.
				q := inner[0]
				k := i + 2
				var key strings.Builder
				for ; k < len(s) && s[k] != q; k++ {
					if s[k] == '\\' && k+1 < len(s) {
						k++
					}
					key.WriteByte(s[k])
				}
				if k+1 >= len(s) || s[k+1] != ']' {
					return "", fmt.Errorf("path %q: quoted key at offset %d is not closed", p, i)
				}
				b.WriteString(keySegment(key.String()))
				i = k + 2
			default:
				n, err := strconv.Atoi(inner)
				if err != nil || n < 0 {
					return "", fmt.Errorf("path %q: [%s] is neither an array index nor a quoted key", p, inner)
				}
				b.WriteString("[" + strconv.Itoa(n) + "]")
				i += j + 1
			}
		default:
			return "", fmt.Errorf("path %q: unexpected %q at offset %d (expected '.' or '[')", p, s[i], i)
		}
	}
	return b.String(), nil
}

// ScalarKey is the comparison form of a scalar: two scalars are equal for
// exact metrics when their keys are equal. Numbers (and strings holding a
// JSON number) compare by exact decimal value, so 11.50 equals 11.5 and the
// text "3" equals the number 3; strings compare after trimming spaces; null
// and the empty string are the same blank value; true/false equal the text
// "true"/"false".
func ScalarKey(v any) string {
	switch x := v.(type) {
	case nil:
		return "blank"
	case bool:
		return "bool:" + strconv.FormatBool(x)
	case json.Number:
		return numberKey(string(x))
	case float64:
		return numberKey(strconv.FormatFloat(x, 'g', -1, 64))
	case float32:
		return numberKey(strconv.FormatFloat(float64(x), 'g', -1, 32))
	case int:
		return numberKey(strconv.Itoa(x))
	case int64:
		return numberKey(strconv.FormatInt(x, 10))
	case string:
		s := strings.TrimSpace(x)
		switch {
		case s == "" || s == "null":
			return "blank"
		case s == "true" || s == "false":
			return "bool:" + s
		case s == "{}" || s == "[]":
			return "json:" + s
		case isJSONNumber(s):
			return numberKey(s)
		}
		return "str:" + s
	case emptyContainer:
		return "json:" + string(x)
	}
	b, _ := json.Marshal(v)
	return "json:" + string(b)
}

func numberKey(s string) string {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return "str:" + s
	}
	return "num:" + r.RatString()
}
