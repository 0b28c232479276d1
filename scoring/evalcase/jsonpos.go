package evalcase

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/inputerr"
)

// maxJSONDepth bounds the nesting of a cases file, so hostile input cannot
// exhaust the stack.
const maxJSONDepth = 512

// PosTree is a decoded JSON document together with the byte offset where
// each of its values starts, keyed by a path such as
// pipelines[0].stages[1].prediction.
type PosTree struct {
	data []byte
	pos  map[string]int64
}

// ParseWithPositions decodes one JSON value (numbers as json.Number) and
// records where every value starts. Duplicate object keys and trailing data
// are errors. name and lineBase place errors: lineBase is added to the line
// (for a JSONL line, its line number minus one).
func ParseWithPositions(data []byte, name string, lineBase int) (any, *PosTree, error) {
	t := &PosTree{data: data, pos: map[string]int64{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := t.value(dec, "", 0)
	if err != nil {
		return nil, nil, jsonSyntaxError(name, data, err, lineBase)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := skipSpace(data, dec.InputOffset())
		line, col := lineCol(data, off)
		return nil, nil, &inputerr.Error{File: name, Line: line + lineBase, Column: col, Msg: "expected the end of the JSON value, found more data"}
	}
	return v, t, nil
}

// posError is a structural error found while decoding, at a byte offset.
type posError struct {
	off int64
	msg string
}

func (e *posError) Error() string { return e.msg }

func (t *PosTree) value(dec *json.Decoder, at string, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, &posError{dec.InputOffset(), fmt.Sprintf("JSON nested deeper than %d levels", maxJSONDepth)}
	}
	start := skipSpace(t.data, dec.InputOffset())
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	t.pos[at] = start
	switch x := tok.(type) {
	case json.Delim:
		switch x {
		case '{':
			m := map[string]any{}
			for dec.More() {
				keyOff := skipSpace(t.data, dec.InputOffset())
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, &posError{keyOff, "expected an object key"}
				}
				if _, dup := m[k]; dup {
					return nil, &posError{keyOff, fmt.Sprintf("duplicate key %q", k)}
				}
				child := JoinKey(at, k)
				v, err := t.value(dec, child, depth+1)
				if err != nil {
					return nil, err
				}
				m[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return m, nil
		case '[':
			a := []any{}
			for i := 0; dec.More(); i++ {
				v, err := t.value(dec, at+"["+strconv.Itoa(i)+"]", depth+1)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return a, nil
		}
		return nil, &posError{start, fmt.Sprintf("unexpected %q", rune(x))}
	default:
		return tok, nil
	}
}

// JoinKey appends key k to the path at, in the paths errors name
// (a.b, or k alone at the top).
func JoinKey(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// Line returns the line and column of the value at path p, or of its
// nearest recorded parent.
func (t *PosTree) Line(p string) (int, int) {
	for {
		if off, ok := t.pos[p]; ok {
			return lineCol(t.data, off)
		}
		if p == "" {
			return 1, 1
		}
		p = parentPath(p)
	}
}

func parentPath(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '.' || p[i] == '[' {
			return p[:i]
		}
	}
	return ""
}

// jsonSyntaxError turns a decoding error into an input error with line
// and column.
func jsonSyntaxError(name string, data []byte, err error, lineBase int) error {
	var off int64 = -1
	msg := err.Error()
	var se *json.SyntaxError
	var pe *posError
	switch {
	case errors.As(err, &pe):
		off, msg = pe.off, pe.msg
	case errors.As(err, &se):
		off = se.Offset
		msg = "invalid JSON: " + se.Error()
		// Some decoder paths count the offending byte, some do not: point
		// at the character the message names.
		if i := strings.Index(msg, "invalid character '"); i >= 0 && off > 0 && off <= int64(len(data)) {
			if c := msg[i+len("invalid character '"):]; len(c) > 0 && data[off-1] == c[0] && (off >= int64(len(data)) || data[off] != c[0]) {
				off--
			}
		}
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(data))
		msg = "invalid JSON: unexpected end of input"
	}
	if off < 0 {
		return &inputerr.Error{File: name, Line: lineBase, Msg: msg}
	}
	line, col := lineCol(data, off)
	return &inputerr.Error{File: name, Line: line + lineBase, Column: col, Msg: msg}
}

// lineCol converts a byte offset into a 1-based line and column (in bytes).
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// skipSpace moves off past whitespace and the separators ':' and ',' so
// that it points at the next value.
func skipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
		default:
			return off
		}
	}
	return off
}
