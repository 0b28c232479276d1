package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxDepth bounds the nesting ParseTree accepts, so hostile input cannot
// exhaust the stack.
const MaxDepth = 512

// Tree is a decoded JSON document together with the byte offset where
// each of its values starts, keyed by a path such as
// pipelines[0].stages[1].prediction.
type Tree struct {
	data   []byte
	pos    map[string]int64
	indent int // characters before data on its first line
}

// ParseLineTree is ParseTree for a JSON Lines line: errors and Pos place
// values on the line (Pos still counts lines from 1).
func ParseLineTree(file string, l Line) (any, *Tree, error) {
	v, t, err := parseTree(l.Text, file, l.No-1, l.Indent)
	return v, t, err
}

// ParseTree decodes one JSON value (numbers as json.Number) and records
// where every value starts. Duplicate object keys and trailing data are
// errors, as input errors naming file and a line: lineBase is added to
// the line (for a JSONL line, its number minus one).
func ParseTree(data []byte, file string, lineBase int) (any, *Tree, error) {
	return parseTree(data, file, lineBase, 0)
}

func parseTree(data []byte, file string, lineBase, indent int) (any, *Tree, error) {
	t := &Tree{data: data, pos: map[string]int64{}, indent: indent}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := t.value(dec, "", 0)
	if err != nil {
		return nil, nil, jsonError(file, data, lineBase, indent, err, "", true)
	}
	off := skipSep(data, dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, jsonError(file, data, lineBase, indent, &posError{int(off), TrailingData}, "", true)
	}
	return v, t, nil
}

// TrailingData is the message of the error ParseTree returns for a
// document with more than one value (such as JSON Lines).
const TrailingData = "expected the end of the JSON value, found more data"

// posError is a structural error found while decoding, at a byte offset.
type posError struct {
	off int
	msg string
}

func (e *posError) Error() string { return e.msg }

func (t *Tree) value(dec *json.Decoder, at string, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, &posError{int(dec.InputOffset()), fmt.Sprintf("JSON nested deeper than %d levels", MaxDepth)}
	}
	start := skipSep(t.data, dec.InputOffset())
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
				keyOff := skipSep(t.data, dec.InputOffset())
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, &posError{int(keyOff), "expected an object key"}
				}
				if _, dup := m[k]; dup {
					return nil, &posError{int(keyOff), fmt.Sprintf("duplicate key %q", k)}
				}
				v, err := t.value(dec, JoinKey(at, k), depth+1)
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
		return nil, &posError{int(start), fmt.Sprintf("unexpected %q", rune(x))}
	default:
		return tok, nil
	}
}

// JoinKey extends the path at with the object key k, as Tree names paths.
func JoinKey(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// Pos returns the line and column (within the parsed text) of the value at
// path p, or of its nearest recorded parent.
func (t *Tree) Pos(p string) (line, col int) {
	for {
		if off, ok := t.pos[p]; ok {
			line, col = Position(t.data, int(off))
			if line == 1 {
				col += t.indent
			}
			return line, col
		}
		if p == "" {
			return 1, 1 + t.indent
		}
		p = parentPath(p)
	}
}

func parentPath(p string) string {
	if i := strings.LastIndexAny(p, ".["); i >= 0 {
		return p[:i]
	}
	return ""
}

// skipSep moves off past whitespace and the separators ':' and ',' so
// that it points at the next value.
func skipSep(data []byte, off int64) int64 {
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

// Locate returns the 1-based line and column where the value at path
// begins in data: string elements are object keys, int elements array
// indexes. ok is false when the path is not there. It is meant for error
// messages, so it favours simplicity over speed.
func Locate(data []byte, path ...any) (line, col int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	for _, step := range path {
		tok, err := dec.Token()
		if err != nil {
			return 0, 0, false
		}
		delim, _ := tok.(json.Delim)
		switch want := step.(type) {
		case string:
			if delim != '{' {
				return 0, 0, false
			}
			found := false
			for !found && dec.More() {
				k, err := dec.Token()
				if err != nil {
					return 0, 0, false
				}
				if found = k == want; !found && !skipValue(dec) {
					return 0, 0, false
				}
			}
			if !found {
				return 0, 0, false
			}
		case int:
			if delim != '[' {
				return 0, 0, false
			}
			for i := 0; i < want; i++ {
				if !dec.More() || !skipValue(dec) {
					return 0, 0, false
				}
			}
			if !dec.More() {
				return 0, 0, false
			}
		default:
			return 0, 0, false
		}
	}
	line, col = Position(data, int(skipSep(data, dec.InputOffset())))
	return line, col, true
}

// skipValue reads one whole value from dec.
func skipValue(dec *json.Decoder) bool {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
		}
		if depth == 0 {
			return true
		}
	}
}
