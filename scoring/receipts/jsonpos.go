package receipts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// jsonPath is a path into a JSON document: string elements are object
// keys, int elements array indexes.
type jsonPath []any

// String renders the path as valid_line[2].words[0].text.
func (p jsonPath) String() string {
	var b strings.Builder
	for _, e := range p {
		switch x := e.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(x)
		case int:
			fmt.Fprintf(&b, "[%d]", x)
		}
	}
	return b.String()
}

// locate returns the 1-based line and column where the value at path
// begins in data; ok is false when the path is not there. It is only used
// to position error messages, so it favours simplicity over speed.
func locate(data []byte, path jsonPath) (line, col int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	for depth := 0; depth < len(path); depth++ {
		tok, err := dec.Token()
		if err != nil {
			return 0, 0, false
		}
		delim, isDelim := tok.(json.Delim)
		switch want := path[depth].(type) {
		case string:
			if !isDelim || delim != '{' {
				return 0, 0, false
			}
			found := false
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return 0, 0, false
				}
				if k == want {
					found = true
					break
				}
				if !skipValue(dec) {
					return 0, 0, false
				}
			}
			if !found {
				return 0, 0, false
			}
		case int:
			if !isDelim || delim != '[' {
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
		}
	}
	off := int(dec.InputOffset())
	for off < len(data) && strings.IndexByte(" \t\r\n:,", data[off]) >= 0 {
		off++
	}
	line, col = lineCol(data, off)
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

// lineCol converts a byte offset into a 1-based line and column (in
// characters).
func lineCol(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}
