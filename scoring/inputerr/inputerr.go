// Package inputerr defines the error every docscore parser returns for bad
// input: it names the file, the line (and column or row where it helps) and
// what was expected, so that the command line, the browser and the Worker
// can all report it the same way. When the reader knows the text of the
// line, the error shows it with a caret under the column:
//
//	runs.jsonl:3:9: invalid JSON: invalid character 'x' looking for beginning of value
//	    3 | {"id": x}
//	      |        ^
package inputerr

import (
	"errors"
	"fmt"
	"strings"
)

// Error is a problem with something the user gave: a malformed file, an
// unknown field, a missing reference. Line and Column are 1-based; zero
// means unknown.
type Error struct {
	File   string // the file's name as the user gave it
	Line   int    // 1-based line, 0 when not known
	Column int    // 1-based column, 0 when not known
	Msg    string // what was wrong and what was expected
	// Source is the text of line Line without its line end, "" when not
	// known; Error shows it under the head with a caret under Column.
	Source string
}

// Error formats the problem as "file:line:column: message", leaving out
// the parts that are not known, followed by the source line and a caret
// when Source is known (see [Render]). [Error.Head] is the first line
// alone.
func (e *Error) Error() string {
	if e.Source == "" || e.Line == 0 {
		return e.Head()
	}
	return e.Head() + "\n" + Render(e.Source, e.Line, e.Column)
}

// Head formats the problem on one line, "file:line:column: message",
// leaving out the parts that are not known: for places that show one
// line per problem.
func (e *Error) Head() string {
	switch {
	case e.File == "" && e.Line == 0:
		return e.Msg
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Column == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	default:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
}

// At returns an input error for file at line and column (1-based, 0 when
// not known) whose source line is source, with a formatted message.
func At(file string, line, column int, source string, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Column: column, Msg: fmt.Sprintf(format, args...), Source: source}
}

// New returns an input error for file at line with a formatted message.
func New(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// As reports whether err is or wraps an input error, and returns it.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// List collects several input errors; it is itself an error whose message
// holds one problem per line.
type List []*Error

// Error joins the problems, one per line.
func (l List) Error() string {
	s := ""
	for i, e := range l {
		if i > 0 {
			s += "\n"
		}
		s += e.Error()
	}
	return s
}

// Unwrap exposes the individual errors to errors.As and errors.Is.
func (l List) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Head is the first line of err's message: an input error's [Error.Head]
// (without its source line and caret), and any other error's message up
// to its first newline. Nil has an empty head.
func Head(err error) string {
	if err == nil {
		return ""
	}
	h, _, _ := strings.Cut(err.Error(), "\n")
	return h
}
