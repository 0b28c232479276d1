package ingest

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// DecodeStrict decodes the source's one JSON value into v as
// json.Unmarshal does, but refuses members that v has no field for. Its
// errors are input errors at the offending character, with the source
// line: a syntax or type error as [JSONError] places it, an unknown
// member at its key. what names the expected document ("a schema
// object"), for the messages.
func (s *Source) DecodeStrict(v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(s.data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	if key, ok := unknownField(err); ok {
		off, found := keyOffset(s.data, key)
		if !found {
			off = 0
		}
		return s.ErrorAt(off, "unknown member %q: expected %s", key, what)
	}
	// json.Unmarshal names the offending byte itself; a Decoder's
	// offsets are not all counted alike.
	if uerr := json.Unmarshal(s.data, v); uerr != nil {
		return s.JSONError(uerr, what)
	}
	return s.JSONError(err, what)
}

// KeyOffset is the byte offset of the first object key equal to key in
// the source's JSON text, in document order: where an error about an
// unknown member goes.
func (s *Source) KeyOffset(key string) (int, bool) { return keyOffset(s.data, key) }

// ValueStart is the byte offset where the JSON value that ends at offset
// end starts: encoding/json's UnmarshalTypeError.Offset is the end of the
// value it refused, the caret goes at its start.
func (s *Source) ValueStart(end int) (int, bool) { return valueStart(s.data, end) }

// unknownField is the member name of encoding/json's error for a member
// with no field under DisallowUnknownFields.
func unknownField(err error) (string, bool) {
	const prefix = `json: unknown field `
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return "", false
	}
	key, uerr := strconv.Unquote(msg[len(prefix):])
	return key, uerr == nil
}

// keyOffset is the byte offset of the first object key equal to key in
// the JSON text data, in document order.
func keyOffset(data []byte, key string) (int, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	// inObject[i] is whether the i-th open container is an object;
	// wantKey whether the next token of the innermost object is a key.
	var inObject []bool
	wantKey := false
	for depth := 0; depth <= MaxDepth; {
		off := skipSep(data, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				inObject = append(inObject, d == '{')
				wantKey = d == '{'
				depth++
			default:
				inObject = inObject[:len(inObject)-1]
				depth--
				wantKey = len(inObject) > 0 && inObject[len(inObject)-1]
			}
			continue
		}
		if wantKey {
			if k, _ := tok.(string); k == key {
				return int(off), true
			}
			wantKey = false
			continue
		}
		wantKey = len(inObject) > 0 && inObject[len(inObject)-1]
	}
	return 0, false
}
