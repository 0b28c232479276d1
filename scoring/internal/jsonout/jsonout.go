// Package jsonout is where docscore's JSON is written: every report and
// result is encoding/json's Encoder with SetEscapeHTML(false) and
// SetIndent("", "  "), and a final newline. Marshal is that Encoder, set
// up in this one place (hosts outside scoring/ reach it through
// api.MarshalJSON). Writer writes the same bytes by hand: the same string
// escapes, the same float format, the same layout of empty and nested
// containers. A report writer that knows its types uses it to skip
// reflection and the second indenting pass; the tests hold it to
// encoding/json.
package jsonout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/internal/swar"
)

// Marshal returns v as docscore writes JSON: indented by two spaces, HTML
// characters left as they are, with a final newline.
func Marshal(v any) ([]byte, error) { return marshalAt(v, "") }

// marshalAt is Marshal with every line after the first starting with
// prefix.
func marshalAt(v any, prefix string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Writer appends JSON to a buffer. The first error (a NaN, a value
// encoding/json refuses) sticks and is returned by Bytes.
type Writer struct {
	buf []byte
	// empty[i] says whether the container open at depth i has no member
	// or element yet.
	empty []bool
	err   error
}

// NewWriter returns a writer with room for about size bytes.
func NewWriter(size int) *Writer { return &Writer{buf: make([]byte, 0, size)} }

// Bytes returns the JSON written, with a final newline as Encoder.Encode
// writes, or the first error.
func (w *Writer) Bytes() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	return append(w.buf, '\n'), nil
}

// Flush writes what was written so far to out and empties the buffer;
// the writer keeps its place (the containers open), so that a long
// document can be written in parts. It returns the first error.
func (w *Writer) Flush(out io.Writer) error {
	if w.err != nil {
		return w.err
	}
	_, err := out.Write(w.buf)
	w.buf = w.buf[:0]
	return err
}

// Detach returns what was written since the last Flush, Reset or
// Detach, and the first error, and goes on writing into next[:0] (nil: a
// new buffer), keeping its place as Flush does: the written bytes are
// handed over, not copied.
func (w *Writer) Detach(next []byte) ([]byte, error) {
	out := w.buf
	w.buf = next[:0]
	return out, w.err
}

// Len is the number of bytes written since the last Flush or Reset.
func (w *Writer) Len() int { return len(w.buf) }

// Reset empties the buffer and keeps the writer's place: a writer opened
// at some depth then reset writes values laid out at that depth.
func (w *Writer) Reset() { w.buf = w.buf[:0] }

// Splice writes a value written by another Writer at the same depth (its
// bytes, without the final newline), as the current value.
func (w *Writer) Splice(value []byte) { w.buf = append(w.buf, value...) }

// Filled marks the innermost open container as holding members already,
// written elsewhere (spliced into the output between two Flushes): what
// comes next is preceded by a comma, and Close goes to a new line.
func (w *Writer) Filled() { w.empty[len(w.empty)-1] = false }

func (w *Writer) newline() {
	n := 2 * len(w.empty)
	if n < len(indent) {
		w.buf = append(w.buf, indent[:1+n]...)
		return
	}
	w.buf = append(w.buf, '\n')
	for range w.empty {
		w.buf = append(w.buf, ' ', ' ')
	}
}

// indent is a new line and the spaces of 31 levels, appended in one go
// (two spaces at a time took 5 % of a report's writing).
const indent = "\n" + "                                                              "

// next starts a member or element: a comma after the previous one, then
// a new line at the container's indentation.
func (w *Writer) next() {
	if n := len(w.empty); n > 0 {
		if !w.empty[n-1] {
			w.buf = append(w.buf, ',')
		}
		w.empty[n-1] = false
		w.newline()
	}
}

// Open starts an object ('{') or an array ('[') as the current value.
func (w *Writer) Open(c byte) {
	w.buf = append(w.buf, c)
	w.empty = append(w.empty, true)
}

// Close ends the innermost container with c ('}' or ']'); an empty one
// stays on its line, as in "{}" and "[]".
func (w *Writer) Close(c byte) {
	n := len(w.empty)
	wasEmpty := w.empty[n-1]
	w.empty = w.empty[:n-1]
	if !wasEmpty {
		w.newline()
	}
	w.buf = append(w.buf, c)
}

// Key starts an object member named k; its value is written next.
func (w *Writer) Key(k string) {
	w.next()
	w.buf = AppendString(w.buf, k)
	w.buf = append(w.buf, ':', ' ')
}

// Elem starts an array element; its value is written next.
func (w *Writer) Elem() { w.next() }

// String writes a string value.
func (w *Writer) String(s string) { w.buf = AppendString(w.buf, s) }

// Int writes an integer value.
func (w *Writer) Int(n int) { w.buf = strconv.AppendInt(w.buf, int64(n), 10) }

// Uint writes an unsigned integer value.
func (w *Writer) Uint(n uint64) { w.buf = strconv.AppendUint(w.buf, n, 10) }

// Bool writes true or false.
func (w *Writer) Bool(b bool) { w.buf = strconv.AppendBool(w.buf, b) }

// Null writes null.
func (w *Writer) Null() { w.buf = append(w.buf, "null"...) }

// Float writes a float64 as encoding/json does: like ES6's number to
// string conversion. NaN and infinities are an error, as there.
func (w *Writer) Float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		w.fail(fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64)))
		w.Null()
		return
	}
	w.buf = AppendFloat(w.buf, f)
}

// OptFloat writes *f, or null when f is nil.
func (w *Writer) OptFloat(f *float64) {
	if f == nil {
		w.Null()
		return
	}
	w.Float(*f)
}

// OptString writes *s, or null when s is nil.
func (w *Writer) OptString(s *string) {
	if s == nil {
		w.Null()
		return
	}
	w.String(*s)
}

// Raw writes a JSON text (a json.RawMessage) re-indented at the current
// depth, as the Encoder lays out a RawMessage value.
func (w *Writer) Raw(raw []byte) {
	if raw == nil {
		w.Null() // as encoding/json writes a nil RawMessage
		return
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, w.prefix(), "  "); err != nil {
		w.fail(err)
		w.Null()
		return
	}
	w.buf = append(w.buf, bytes.TrimRight(b.Bytes(), " \t\r\n")...)
}

// Value writes any value through encoding/json, re-indented at the
// current depth: for the parts of a report that are small or rare.
func (w *Writer) Value(v any) {
	b, err := marshalAt(v, w.prefix())
	if err != nil {
		w.fail(err)
		w.Null()
		return
	}
	w.buf = append(w.buf, bytes.TrimSuffix(b, []byte("\n"))...)
}

func (w *Writer) prefix() string {
	p := make([]byte, 2*len(w.empty))
	for i := range p {
		p[i] = ' '
	}
	return string(p)
}

func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string literal, escaped as
// encoding/json escapes it without HTML escaping: quotes, backslashes and
// control characters, U+2028 and U+2029; invalid UTF-8 becomes U+FFFD.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain ASCII bytes at a time: most of a report's keys and
		// values need no escape.
		for i+8 <= len(s) && special(swar.Load64(s, i)) == 0 {
			i += 8
		}
		for i < len(s) && plain[s[i]>>6]>>(s[i]&63)&1 != 0 {
			i++
		}
		if i >= len(s) {
			break
		}
		if b := s[i]; b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plain marks, a bit per byte, the bytes a JSON string holds as they
// are: printable ASCII but the quote and the backslash.
var plain = [4]uint64{0xFFFFFFFB00000000, 0xFFFFFFFFEFFFFFFF, 0, 0}

// special is non-zero when one of w's bytes is not plain ASCII in a JSON
// string: a quote, a backslash, a control character or a byte of a
// multi-byte character.
func special(w uint64) uint64 {
	return swar.StringStops(w) | w&(swar.Ones*0x80)
}

// AppendFloat appends a finite float64 as encoding/json formats it: the
// shortest representation that round-trips, in 'f' form between 1e-6 and
// 1e21 and in 'e' form with an unpadded exponent outside.
func AppendFloat(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	if abs < 1e15 && f == float64(int64(f)) {
		// A whole number (a score of 0 or 1, most of a report's): its
		// digits, as the shortest form is.
		if f == 0 && math.Signbit(f) {
			return append(dst, '-', '0')
		}
		return strconv.AppendInt(dst, int64(f), 10)
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
