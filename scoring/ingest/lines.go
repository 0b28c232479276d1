package ingest

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/inputerr"
)

// bom is the UTF-8 byte order mark.
const bom = "\xef\xbb\xbf"

// StripBOM returns data without a leading UTF-8 byte order mark.
func StripBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte(bom)) }

// StripBOMString returns s without a leading UTF-8 byte order mark.
func StripBOMString(s string) string {
	if len(s) >= len(bom) && s[:len(bom)] == bom {
		return s[len(bom):]
	}
	return s
}

// MaxLine bounds one line read from an io.Reader (256 MiB), so a file with
// no line ends cannot take all the memory.
const MaxLine = 256 << 20

// Line is one non-blank line of a JSON Lines input.
type Line struct {
	No     int    // 1-based line number
	Text   []byte // the line without surrounding whitespace, line end or BOM
	Indent int    // characters of whitespace left out before Text (after any BOM)
	// Unended is true for a last line the input ended inside: it has no
	// line end (a writer killed mid-line leaves one).
	Unended bool
}

// Source is the line's text as an error shows it: Text after Indent
// spaces (the whitespace it had, as spaces, so that columns line up).
func (l Line) Source() string { return strings.Repeat(" ", l.Indent) + string(l.Text) }

// Lines reads JSON Lines: one item per line, "\n" or "\r\n" ends, a UTF-8
// BOM before the first line, blank lines skipped and a last line with or
// without an end. A line that is not UTF-8 is a bad line: Next stops on it
// with Bad set, and the caller fails or skips it (see Skip).
//
//	ls := ingest.NewLines(name, data)
//	for ls.Next() {
//		if err := ls.BadLine(); err != nil { … }
//		use(ls.Line())
//	}
//	if err := ls.Err(); err != nil { … }
type Lines struct {
	name string
	data []byte    // the rest of a []byte input
	r    io.Reader // or an io.Reader input, read into chunk
	// chunk holds what was read of r: each line is handed out from where
	// it was read, and the bytes below len(chunk) are never written
	// again (a line begun at the end of a full chunk is carried over to
	// the start of the next: its one more copy).
	chunk []byte
	pos   int   // where the bytes not yet handed out start
	scan  int   // how far from pos no line end was found
	rerr  error // why r stopped (io.EOF at its end)
	empty int   // reads in a row that gave nothing

	line Line
	bad  *inputerr.Error
	err  error
	done bool

	// SkipBadLines makes Skip record bad lines and go on.
	SkipBadLines bool
	// LineLimit, when above 0 and below MaxLine, bounds one line read
	// from an io.Reader instead of MaxLine.
	LineLimit int
	// Skipped are the bad lines recorded by Skip, in file order.
	Skipped []*inputerr.Error
}

// NewLines iterates the lines of data (kept, not copied); name is the file
// name errors carry.
func NewLines(name string, data []byte) *Lines {
	return &Lines{name: name, data: data} // the first line loses its BOM in Next
}

// NewLinesAt iterates the lines of data, a part of a file that starts at
// line first (1-based) and holds whole lines: the numbers are those of
// the file, and a byte order mark is dropped only at the file's start. A
// host that splits a file into parts on line ends reads each part as
// NewLines reads the whole.
func NewLinesAt(name string, data []byte, first int) *Lines {
	if first <= 1 {
		return NewLines(name, data)
	}
	ls := &Lines{name: name, data: data}
	ls.line.No = first - 1
	return ls
}

// NewReaderLines iterates the lines read from r, each read once into
// memory of its own and handed out from there, never written again.
func NewReaderLines(name string, r io.Reader) *Lines {
	return &Lines{name: name, r: r}
}

// chunkSize is the memory a reader's lines are read into at a time; the
// first chunk is smaller (firstChunk), so that the first lines come
// after a short read.
const (
	chunkSize  = 1 << 20
	firstChunk = 64 << 10
)

// Name is the file name errors carry.
func (ls *Lines) Name() string { return ls.name }

// Next moves to the next non-blank line; false at the end of the input or
// after a read error (see Err).
func (ls *Lines) Next() bool {
	for !ls.done {
		raw, ended, ok := ls.read()
		if !ok {
			ls.done = true
			break
		}
		ls.line.Unended = !ended
		ls.line.No++
		if ls.line.No == 1 {
			raw = StripBOM(raw)
		}
		text := bytes.TrimLeftFunc(raw, unicode.IsSpace)
		ls.line.Indent = utf8.RuneCount(raw[:len(raw)-len(text)])
		text = bytes.TrimRightFunc(text, unicode.IsSpace)
		if len(text) == 0 {
			continue
		}
		ls.line.Text = text
		ls.bad = nil
		if !utf8.Valid(text) {
			ls.bad = &inputerr.Error{File: ls.name, Line: ls.line.No, Column: ls.line.Indent + firstInvalid(text) + 1, Msg: "expected UTF-8 text", Source: ls.line.Source()}
		}
		return true
	}
	return false
}

// firstInvalid returns the column offset (in characters) of the first
// byte of text that is not UTF-8.
func firstInvalid(text []byte) int {
	n := 0
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		if r == utf8.RuneError && size == 1 {
			return n
		}
		text = text[size:]
		n++
	}
	return n
}

// read returns the next raw line without its "\n", and whether it had
// one.
func (ls *Lines) read() (line []byte, ended, ok bool) {
	if ls.r == nil {
		if len(ls.data) == 0 {
			return nil, false, false
		}
		i := bytes.IndexByte(ls.data, '\n')
		if i < 0 {
			line := ls.data
			ls.data = nil
			return line, false, true
		}
		line := ls.data[:i:i]
		ls.data = ls.data[i+1:]
		return line, true, true
	}
	for {
		if i := bytes.IndexByte(ls.chunk[ls.scan:], '\n'); i >= 0 {
			end := ls.scan + i
			line := ls.chunk[ls.pos:end:end]
			ls.pos, ls.scan = end+1, end+1
			if len(line) > ls.limit() {
				return nil, false, ls.tooLong()
			}
			return line, true, true
		}
		ls.scan = len(ls.chunk)
		if len(ls.chunk)-ls.pos > ls.limit() {
			return nil, false, ls.tooLong()
		}
		switch {
		case ls.rerr == io.EOF:
			line := ls.chunk[ls.pos:len(ls.chunk):len(ls.chunk)]
			ls.pos = len(ls.chunk)
			return line, false, len(line) > 0
		case ls.rerr != nil:
			ls.err = fmt.Errorf("%s: %w", ls.name, ls.rerr)
			return nil, false, false
		}
		ls.fill()
	}
}

// fill reads more of the input after the bytes held, into a new chunk
// when the one held is full.
func (ls *Lines) fill() {
	if len(ls.chunk) == cap(ls.chunk) {
		part := ls.chunk[ls.pos:]
		size := chunkSize
		if ls.chunk == nil {
			size = firstChunk
		}
		next := make([]byte, len(part), max(size, min(2*len(part), ls.limit()+chunkSize)))
		copy(next, part)
		ls.chunk, ls.scan, ls.pos = next, ls.scan-ls.pos, 0
	}
	n, err := ls.r.Read(ls.chunk[len(ls.chunk):cap(ls.chunk)])
	ls.chunk = ls.chunk[:len(ls.chunk)+n]
	switch {
	case err != nil:
		ls.rerr = err
	case n > 0:
		ls.empty = 0
	default:
		if ls.empty++; ls.empty == 100 {
			ls.rerr = io.ErrNoProgress
		}
	}
}

// tooLong stops the iteration at a line longer than the limit.
func (ls *Lines) tooLong() bool {
	limit := ls.limit()
	size := strconv.Itoa(limit>>20) + " MiB"
	if limit < 1<<20 {
		size = strconv.Itoa(limit) + " bytes"
	}
	ls.err = inputerr.New(ls.name, ls.line.No+1, "line longer than %s: expected one JSON value per line", size)
	return false
}

// Line is the current line. Lines never writes its Text again.
func (ls *Lines) Line() Line { return ls.line }

// BadLine is the current line's problem found by Lines itself (it is not
// UTF-8), or nil.
func (ls *Lines) BadLine() *inputerr.Error { return ls.bad }

// Err is the error that stopped the iteration early: a read error, or a
// line too long. Nil at a clean end.
func (ls *Lines) Err() error { return ls.err }

// Skip handles a bad line: with SkipBadLines it records e in Skipped and
// returns nil, so the caller goes on with the next line; otherwise it
// returns e, for the caller to stop with.
func (ls *Lines) Skip(e *inputerr.Error) error {
	if !ls.SkipBadLines {
		return e
	}
	ls.Skipped = append(ls.Skipped, e)
	return nil
}

// Errorf returns an input error at the current line, showing it.
func (ls *Lines) Errorf(format string, args ...any) *inputerr.Error {
	e := inputerr.New(ls.name, ls.line.No, format, args...)
	e.Source = ls.line.Source()
	return e
}

// CheckUTF8 returns an input error at the first byte of a whole document
// that is not UTF-8, or nil.
func CheckUTF8(file string, data []byte) *inputerr.Error {
	return OpenBytes(file, data).CheckUTF8()
}

// limit is the most bytes one line read from an io.Reader may hold.
func (ls *Lines) limit() int {
	if ls.LineLimit > 0 && ls.LineLimit < MaxLine {
		return ls.LineLimit
	}
	return MaxLine
}
