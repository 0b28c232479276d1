// Package jsonscan reads JSON text without building values: it checks a
// value's syntax and hands back the spans of an object's members and an
// array's elements, so that a reader of a large JSONL file decodes only the
// parts it needs, with a few allocations per line instead of one per token.
//
// It accepts exactly the texts encoding/json accepts (the fuzz tests hold it
// to that, both ways), and decodes strings as encoding/json does. It gives
// no reasons: when it refuses a text, the caller asks encoding/json for the
// error message it shows.
package jsonscan

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/internal/swar"
)

// Member is one member of an object: its decoded key and its value's raw
// text, without surrounding whitespace. Both share the scanned text's
// memory when they can (a key without escapes is a substring of it).
type Member struct {
	Key   string
	Value string
}

// maxDepth is encoding/json's nesting limit: deeper texts are refused.
const maxDepth = 10000

// Object parses data as one JSON object, with optional whitespace around
// it, and appends its members, in input order and with repeated keys kept,
// to dst. ok is false when data is anything else.
func Object(dst []Member, data string) (members []Member, ok bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return dst, false
	}
	end, ok := container(data, i, 1, &dst, nil)
	return dst, ok && skipSpace(data, end) == len(data)
}

// Array parses data as one JSON array, with optional whitespace around it,
// and appends its elements' raw texts to dst. ok is false when data is
// anything else.
func Array(dst []string, data string) (elems []string, ok bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return dst, false
	}
	end, ok := container(data, i, 1, nil, &dst)
	return dst, ok && skipSpace(data, end) == len(data)
}

// ValueEnd scans the JSON value that starts at data[i] (no whitespace
// before it) and returns the index after it: what encoding/json's Decoder
// reads of a stream that starts there, whatever follows. ok is false when
// no valid value starts there.
func ValueEnd(data string, i int) (end int, ok bool) {
	return value(data, i, 0)
}

// Valid reports whether data is one JSON value with optional whitespace
// around it.
func Valid(data string) bool {
	i := skipSpace(data, 0)
	end, ok := value(data, i, 0)
	return ok && skipSpace(data, end) == len(data)
}

// String decodes a JSON string literal (quotes included) as encoding/json
// does: escapes resolved, invalid UTF-8 and lone surrogates replaced by
// U+FFFD. ok is false when raw is not exactly one string literal.
func String(raw string) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	end, ok := stringEnd(raw, 0)
	if !ok || end != len(raw) {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	if strings.IndexByte(body, '\\') < 0 && utf8.ValidString(body) {
		return body, true
	}
	return unquote(raw)
}

// unquote is String's slow path for a valid literal with escapes or
// invalid UTF-8, ported from encoding/json's unquoteBytes: escapes
// resolved, surrogate pairs joined, lone surrogates and invalid bytes
// replaced by U+FFFD.
func unquote(raw string) (string, bool) {
	s := raw[1 : len(raw)-1]
	b := make([]byte, 0, len(s)+utf8.UTFMax)
	for r := 0; r < len(s); {
		c := s[r]
		if c >= 0x20 && c < utf8.RuneSelf && c != '\\' && c != '"' {
			start := r
			for r < len(s) && s[r] >= 0x20 && s[r] < utf8.RuneSelf && s[r] != '\\' && s[r] != '"' {
				r++
			}
			b = append(b, s[start:r]...)
			continue
		}
		switch {
		case c == '\\':
			r++
			if r >= len(s) {
				return "", false
			}
			switch s[r] {
			case '"', '\\', '/', '\'':
				b = append(b, s[r])
				r++
			case 'b':
				b = append(b, '\b')
				r++
			case 'f':
				b = append(b, '\f')
				r++
			case 'n':
				b = append(b, '\n')
				r++
			case 'r':
				b = append(b, '\r')
				r++
			case 't':
				b = append(b, '\t')
				r++
			case 'u':
				rr := getu4(s[r-1:])
				if rr < 0 {
					return "", false
				}
				r += 5
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, getu4(s[r:])); dec != unicode.ReplacementChar {
						r += 6 // a valid pair
						b = utf8.AppendRune(b, dec)
						break
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
			default:
				return "", false
			}
		case c == '"' || c < 0x20:
			return "", false
		default:
			rr, size := utf8.DecodeRuneInString(s[r:])
			r += size
			b = utf8.AppendRune(b, rr)
		}
	}
	return string(b), true
}

// getu4 decodes the \uXXXX escape at the start of s, or returns -1.
func getu4(s string) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// skipSpace returns the index of the first byte at or after i that is not
// whitespace. An indented text's whitespace is mostly a newline and a run
// of spaces, measured eight bytes at a time. (The test for none is
// apart, so that it is inlined.)
func skipSpace(data string, i int) int {
	if i < len(data) && data[i] > ' ' {
		return i
	}
	return skipSpaces(data, i)
}

func skipSpaces(data string, i int) int {
	for i < len(data) && data[i] <= ' ' {
		switch data[i] {
		case '\n':
			i++
			for i+8 <= len(data) {
				n := bits.TrailingZeros64(swar.Load64(data, i)^(swar.Ones*' ')) >> 3
				i += n
				if n < 8 {
					break
				}
			}
		case ' ', '\t', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value scans the value starting at data[i], nested depth levels deep, and
// returns the index after it.
func value(data string, i, depth int) (end int, ok bool) {
	if i >= len(data) {
		return 0, false
	}
	switch c := data[i]; {
	case c == '"':
		return stringEnd(data, i)
	case c == '{' || c == '[':
		if depth+1 > maxDepth {
			return 0, false
		}
		return container(data, i, depth+1, nil, nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return numberEnd(data, i)
	case c == 't':
		return literal(data, i, "true")
	case c == 'f':
		return literal(data, i, "false")
	case c == 'n':
		return literal(data, i, "null")
	}
	return 0, false
}

// container scans the object or array starting at data[i], depth levels
// deep, and returns the index after it. When members (for an object) or
// elems (for an array) is not nil, its parts are appended there; nested
// containers are only checked.
func container(data string, i, depth int, members *[]Member, elems *[]string) (end int, ok bool) {
	closer := byte(']')
	if data[i] == '{' {
		closer = '}'
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == closer {
		return i + 1, true
	}
	for i < len(data) {
		var keyStart, keyEnd int
		if closer == '}' {
			if data[i] != '"' {
				return 0, false
			}
			keyStart = i
			if keyEnd, ok = stringEnd(data, i); !ok {
				return 0, false
			}
			i = skipSpace(data, keyEnd)
			if i >= len(data) || data[i] != ':' {
				return 0, false
			}
			i = skipSpace(data, i+1)
		}
		valEnd, ok := value(data, i, depth)
		if !ok {
			return 0, false
		}
		switch {
		case members != nil:
			key, _ := String(data[keyStart:keyEnd])
			*members = append(*members, Member{Key: key, Value: data[i:valEnd]})
		case elems != nil:
			*elems = append(*elems, data[i:valEnd])
		}
		i = skipSpace(data, valEnd)
		if i >= len(data) {
			return 0, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case closer:
			return i + 1, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// stringEnd returns the index after the string literal starting at
// data[i] == '"'.
func stringEnd(data string, i int) (end int, ok bool) {
	i++
	for {
		for i+8 <= len(data) {
			if m := swar.StringStops(swar.Load64(data, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto stop
			}
			i += 8
		}
		for i < len(data) && data[i] >= 0x20 && data[i] != '"' && data[i] != '\\' {
			i++
		}
	stop:
		switch {
		case i >= len(data) || data[i] < 0x20:
			return 0, false
		case data[i] == '"':
			return i + 1, true
		}
		// data[i] is a backslash
		i++
		if i >= len(data) {
			return 0, false
		}
		switch data[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			if i+4 >= len(data) {
				return 0, false
			}
			for k := i + 1; k < i+5; k++ {
				if !isHex(data[k]) {
					return 0, false
				}
			}
			i += 5
		default:
			return 0, false
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// numberEnd returns the index after the number starting at data[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func numberEnd(data string, i int) (end int, ok bool) {
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	default:
		return 0, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || !isDigit(data[i]) {
			return 0, false
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			return 0, false
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	return i, true
}

func literal(data string, i int, word string) (end int, ok bool) {
	if len(data)-i < len(word) || data[i:i+len(word)] != word {
		return 0, false
	}
	return i + len(word), true
}

// Nested is one JSON object read in one pass together with the objects
// of one of its members, a list of objects (the records of a runs line).
// Its slices are reused by the next Parse.
type Nested struct {
	Members []Member // the object's members, in input order, repeated keys kept
	// Items are the members of the list's objects, one after another, and
	// Ends[i] is where object i's members end in Items. Both are set only
	// when List is true.
	Items []Member
	Ends  []int
	// List reports whether the last member named by Parse's key is an
	// array whose elements are all objects.
	List bool
}

// Parse reads data as one JSON object, as Object does (it accepts the
// same texts), and in the same pass splits the last member named key,
// when it is an array of objects, into Items and Ends.
func (n *Nested) Parse(data, key string) (ok bool) {
	n.Members, n.Items, n.Ends, n.List = n.Members[:0], n.Items[:0], n.Ends[:0], false
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipSpace(data, i+1) == len(data)
	}
	for i < len(data) {
		if data[i] != '"' {
			return false
		}
		keyEnd, ok := stringEnd(data, i)
		if !ok {
			return false
		}
		k, _ := String(data[i:keyEnd])
		i = skipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		var valEnd int
		if k == key {
			n.Items, n.Ends = n.Items[:0], n.Ends[:0]
			valEnd, n.List, ok = n.list(data, i)
		} else {
			valEnd, ok = value(data, i, 1)
		}
		if !ok {
			return false
		}
		n.Members = append(n.Members, Member{Key: k, Value: data[i:valEnd]})
		i = skipSpace(data, valEnd)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return skipSpace(data, i+1) == len(data)
		default:
			return false
		}
	}
	return false
}

// list scans the member value at data[i] (one level deep); when it is an
// array whose elements are all objects, their members go to n.Items.
func (n *Nested) list(data string, i int) (end int, objects, ok bool) {
	if i >= len(data) || data[i] != '[' {
		end, ok = value(data, i, 1)
		return end, false, ok
	}
	objects = true
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return i + 1, true, true
	}
	for i < len(data) {
		var valEnd int
		if objects && data[i] == '{' {
			valEnd, ok = container(data, i, 3, &n.Items, nil)
			n.Ends = append(n.Ends, len(n.Items))
		} else {
			objects = false
			valEnd, ok = value(data, i, 2)
		}
		if !ok {
			return 0, false, false
		}
		i = skipSpace(data, valEnd)
		if i >= len(data) {
			return 0, false, false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case ']':
			return i + 1, objects, true
		default:
			return 0, false, false
		}
	}
	return 0, false, false
}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace (len(data) when there is none).
func SkipSpace(data string, i int) int { return skipSpace(data, i) }

// StringEnd returns the index after the string literal starting at
// data[i] == '"'; ok is false when it is not a valid literal.
func StringEnd(data string, i int) (end int, ok bool) { return stringEnd(data, i) }

// NumberEnd returns the index after the number starting at data[i],
// which is '-' or a digit; ok is false when it is not a valid number.
func NumberEnd(data string, i int) (end int, ok bool) { return numberEnd(data, i) }

// MaxDepth is encoding/json's nesting limit: deeper texts are refused.
const MaxDepth = maxDepth
