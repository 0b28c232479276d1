package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/inputerr"
)

// Source is one input file as every reader sees it: its name, its bytes
// without a byte order mark and known to be UTF-8, and an index of its
// lines, so that any byte offset becomes a line and a column and any
// error shows its source line with a caret (see [inputerr.Render]).
type Source struct {
	name string
	LineIndex
}

// Open is the one way in for a whole input file: it drops a leading UTF-8
// byte order mark, checks that the rest is UTF-8 (an error at the first
// byte that is not) and indexes the lines. b is kept, not copied. The
// error, when there is one, is an *[inputerr.Error].
func Open(name string, b []byte) (*Source, error) {
	src := OpenBytes(name, b)
	if e := src.CheckUTF8(); e != nil {
		return nil, e
	}
	return src, nil
}

// OpenBytes is Open for a reader that checks the encoding itself, or
// accepts bytes that are not UTF-8 (such as a Markdown file whose bad
// bytes are reported with the rest of its problems): it drops the byte
// order mark and indexes the lines, and checks nothing.
func OpenBytes(name string, b []byte) *Source {
	return &Source{name: name, LineIndex: NewLineIndex(StripBOM(b))}
}

// Name is the file name errors carry.
func (s *Source) Name() string { return s.name }

// CheckUTF8 returns an input error at the first byte that is not UTF-8,
// or nil.
func (s *Source) CheckUTF8() *inputerr.Error {
	if utf8.Valid(s.data) {
		return nil
	}
	off := 0
	for off < len(s.data) {
		r, size := utf8.DecodeRune(s.data[off:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		off += size
	}
	return s.ErrorAt(off, "expected UTF-8 text")
}

// ErrorAt returns an input error at byte offset off, with the source line
// and its column.
func (s *Source) ErrorAt(off int, format string, args ...any) *inputerr.Error {
	line, col := s.Position(off)
	return &inputerr.Error{File: s.name, Line: line, Column: col, Msg: fmt.Sprintf(format, args...), Source: s.LineText(line)}
}

// ErrorAtLine returns an input error at line and column (1-based; column
// 0 when not known), with the source line.
func (s *Source) ErrorAtLine(line, col int, format string, args ...any) *inputerr.Error {
	return &inputerr.Error{File: s.name, Line: line, Column: col, Msg: fmt.Sprintf(format, args...), Source: s.LineText(line)}
}

// Attach fills in the source line of an input error about this file that
// names a line but not its text, and returns e. Errors about other files,
// and nil, pass unchanged.
func (s *Source) Attach(e *inputerr.Error) *inputerr.Error {
	if e != nil && e.Source == "" && e.Line > 0 && e.File == s.name {
		e.Source = s.LineText(e.Line)
	}
	return e
}

// AttachAll is Attach for every input error err is, holds or wraps (an
// [inputerr.List] included): a reader that builds its errors from
// positions alone calls it once, where it returns. It returns err.
func (s *Source) AttachAll(err error) error {
	var list inputerr.List
	switch {
	case err == nil:
	case errors.As(err, &list):
		for _, e := range list {
			s.Attach(e)
		}
	default:
		if e, ok := inputerr.As(err); ok {
			s.Attach(e)
		}
	}
	return err
}

// JSONError is [JSONError] for this file: it also shows the source line.
func (s *Source) JSONError(err error, what string) *inputerr.Error {
	return s.Attach(JSONError(s.name, s.data, err, what))
}

// LineIndex maps byte offsets of a text to 1-based lines and columns
// (counted in characters, a byte that is not UTF-8 counting as one) and
// lines back to their text. Lines end at "\n"; a "\r" before it is not
// part of the line's text. The index is built on first use.
type LineIndex struct {
	data   []byte
	starts []int // byte offset where each line starts; built lazily
}

// NewLineIndex indexes data (kept, not copied).
func NewLineIndex(data []byte) LineIndex { return LineIndex{data: data} }

// Bytes is the indexed text.
func (x *LineIndex) Bytes() []byte { return x.data }

func (x *LineIndex) index() []int {
	if x.starts == nil {
		x.starts = make([]int, 1, bytes.Count(x.data, []byte("\n"))+1)
		for off := 0; ; {
			i := bytes.IndexByte(x.data[off:], '\n')
			if i < 0 {
				break
			}
			off += i + 1
			x.starts = append(x.starts, off)
		}
	}
	return x.starts
}

// NumLines is the number of lines: one more than the number of "\n" (a
// text that ends with "\n" has an empty last line).
func (x *LineIndex) NumLines() int { return len(x.index()) }

// Position returns the 1-based line and column of byte offset off; an
// offset outside the text is clamped to it.
func (x *LineIndex) Position(off int) (line, col int) {
	off = min(max(off, 0), len(x.data))
	starts := x.index()
	i := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
	return i + 1, utf8.RuneCount(x.data[starts[i]:off]) + 1
}

// Offset returns the byte offset of line and column (1-based), clamped to
// the line: the inverse of Position.
func (x *LineIndex) Offset(line, col int) int {
	starts := x.index()
	if line < 1 {
		return 0
	}
	if line > len(starts) {
		return len(x.data)
	}
	off := starts[line-1]
	for i := 1; i < col && off < len(x.data) && x.data[off] != '\n'; i++ {
		_, size := utf8.DecodeRune(x.data[off:])
		off += size
	}
	return off
}

// Line returns the text of line n (1-based) without its line end; nil
// when there is no such line.
func (x *LineIndex) Line(n int) []byte {
	starts := x.index()
	if n < 1 || n > len(starts) {
		return nil
	}
	end := len(x.data)
	if n < len(starts) {
		end = starts[n] - 1
	}
	return bytes.TrimSuffix(x.data[starts[n-1]:end:end], []byte("\r"))
}

// LineText is Line as a string; "" when there is no such line.
func (x *LineIndex) LineText(n int) string { return string(x.Line(n)) }
