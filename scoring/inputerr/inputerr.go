// Package inputerr defines the error every docscore parser returns for bad
// input: it names the file, the line (and column or row where it helps) and
// what was expected, so that the command line, the browser and the Worker
// can all report it the same way.
package inputerr

import (
	"errors"
	"fmt"
)

// Error is a problem with something the user gave: a malformed file, an
// unknown field, a missing reference. Line and Column are 1-based; zero
// means unknown.
type Error struct {
	File   string // the file's name as the user gave it
	Line   int    // 1-based line, 0 when not known
	Column int    // 1-based column, 0 when not known
	Msg    string // what was wrong and what was expected
}

// Error formats the problem as "file:line:column: message", leaving out
// the parts that are not known.
func (e *Error) Error() string {
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
