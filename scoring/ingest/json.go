package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/docscore/docscore/scoring/inputerr"
)

// Position returns the 1-based line and column (in characters) of byte
// offset off in data; an offset outside data is clamped to it.
func Position(data []byte, off int) (line, col int) {
	x := NewLineIndex(data[:min(max(off, 0), len(data))])
	return x.Position(off)
}

// JSONError turns an error from decoding the JSON document data (with
// encoding/json, or ParseTree) into an input error naming file, the line
// and column where the decoder stopped and what was expected: what, such
// as "a harness report"; empty leaves the expectation out of syntax
// errors.
func JSONError(file string, data []byte, err error, what string) *inputerr.Error {
	return jsonError(file, data, 0, 0, err, what, false)
}

// JSONError is JSONError for the current line of ls.
func (ls *Lines) JSONError(err error, what string) *inputerr.Error {
	return LineJSONError(ls.name, ls.line, err, what)
}

// LineJSONError is JSONError for line l of file.
func LineJSONError(file string, l Line, err error, what string) *inputerr.Error {
	return jsonError(file, l.Text, l.No-1, l.Indent, err, what, false)
}

// jsonError places err in data, which starts on line lineBase+1 after
// indent characters. fromDecoder tells a json.Decoder's error (whose
// offsets are not all counted alike) from json.Unmarshal's (whose offsets
// count the offending byte).
func jsonError(file string, data []byte, lineBase, indent int, err error, what string, fromDecoder bool) *inputerr.Error {
	at := func(off int, msg string) *inputerr.Error {
		x := NewLineIndex(data)
		line, col := x.Position(off)
		src := x.LineText(line)
		if line == 1 && indent > 0 {
			col += indent
			src = strings.Repeat(" ", indent) + src
		}
		return &inputerr.Error{File: file, Line: line + lineBase, Column: col, Msg: msg, Source: src}
	}
	expect := ""
	if what != "" {
		expect = ": expected " + what
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var pe *posError
	switch {
	case errors.As(err, &pe):
		return at(pe.off, pe.msg)
	case errors.As(err, &syn):
		return at(syntaxOffset(data, syn, fromDecoder), "invalid JSON: "+syn.Error()+expect)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return at(len(data), "invalid JSON: unexpected end of input"+expect)
	case errors.As(err, &typ):
		msg := fmt.Sprintf("member %q is %s: expected %s", typ.Field, article(typ.Value), Kind(typ.Type))
		if typ.Field == "" {
			if what == "" {
				what = "another kind of value"
			}
			msg = fmt.Sprintf("expected %s, found %s", what, article(typ.Value))
		}
		// The decoder knows where the value ends; the caret goes where
		// it starts.
		if start, ok := valueStart(data, int(typ.Offset)); ok {
			return at(start, msg)
		}
		e := at(int(typ.Offset)-1, msg)
		e.Column = 0
		return e
	}
	if what == "" {
		return &inputerr.Error{File: file, Line: lineBase + 1, Msg: err.Error()}
	}
	return &inputerr.Error{File: file, Line: lineBase + 1, Msg: fmt.Sprintf("expected %s: %v", what, err)}
}

// syntaxOffset is the offset of the character a syntax error names:
// json.Unmarshal counts the offending byte, a json.Decoder's paths do not
// all do.
func syntaxOffset(data []byte, se *json.SyntaxError, fromDecoder bool) int {
	off := int(se.Offset)
	msg := se.Error()
	if strings.Contains(msg, "unexpected end of JSON input") {
		return len(data)
	}
	if !fromDecoder {
		return max(off-1, 0)
	}
	if i := strings.Index(msg, "invalid character '"); i >= 0 && off > 0 && off <= len(data) {
		if c := msg[i+len("invalid character '"):]; len(c) > 0 && data[off-1] == c[0] && (off >= len(data) || data[off] != c[0]) {
			off--
		}
	}
	return off
}

// article names a JSON kind as encoding/json's UnmarshalTypeError.Value
// gives it ("array", "number 1.5") with its article.
func article(v string) string {
	switch {
	case v == "":
		return "a value"
	case v == "null":
		return "null"
	case strings.HasPrefix(v, "array"), strings.HasPrefix(v, "object"):
		return "an " + v
	case v == "bool":
		return "true or false"
	}
	return "a " + v
}

// Kind names the JSON kind a Go type decodes from, for "expected …".
func Kind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

// NotObject returns an input error when the current line is a JSON value
// other than an object (an array, a string, a number, true, false or
// null): "expected what, found an array". It returns nil for an object
// and for text that is not JSON at all, whose syntax error the decoder
// reports. what should start with "a JSON object".
func (ls *Lines) NotObject(what string) *inputerr.Error {
	return LineNotObject(ls.name, ls.line, what)
}

// LineNotObject is NotObject for line l of file.
func LineNotObject(file string, l Line, what string) *inputerr.Error {
	kind := kindOf(l.Text)
	if kind == "" {
		return nil
	}
	return &inputerr.Error{File: file, Line: l.No, Column: l.Indent + 1, Msg: fmt.Sprintf("expected %s, found %s", what, kind), Source: l.Source()}
}

// kindOf names the kind of a valid JSON value that is not an object; ""
// for an object or invalid JSON.
func kindOf(text []byte) string {
	text = bytes.TrimSpace(text)
	if len(text) == 0 || text[0] == '{' || !json.Valid(text) {
		return ""
	}
	switch text[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return string(text)
	case 'n':
		return "null"
	}
	return "a number"
}

// valueStart is the offset where the JSON value that ends at offset end
// of data starts (encoding/json's UnmarshalTypeError.Offset is the end of
// the value it refused, or just after the '{' or '[' opening it); ok is
// false when no value ends there.
func valueStart(data []byte, end int) (int, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var open []int // where each open container starts
	for len(open) <= MaxDepth {
		start := int(skipSep(data, dec.InputOffset()))
		tok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		after := int(dec.InputOffset())
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if after == end {
				return start, true
			}
			open = append(open, start)
			continue
		case json.Delim('}'), json.Delim(']'):
			start = open[len(open)-1]
			open = open[:len(open)-1]
		}
		if after == end {
			return start, true
		}
		if after > end {
			return 0, false
		}
	}
	return 0, false
}
