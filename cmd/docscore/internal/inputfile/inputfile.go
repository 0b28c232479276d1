// Package inputfile reads what docscore's commands take as input from the
// operating system: files named on the command line, files a cases file
// or a dataset names, and standard input.
//
// Every read is bounded and can be stopped:
//
//   - a whole-file read (ReadFile, ReadAll) stops at a size limit
//     (DefaultLimit unless the Reader says otherwise) with an error that
//     matches ErrTooLarge, before the memory it would take is allocated:
//     a regular file larger than the limit is refused from its size,
//     and a stream (/dev/zero, a pipe) once the limit is read;
//   - the Reader's context stops a read in progress, including a read
//     that waits for bytes that never come (a FIFO with no writer, a
//     terminal) and the open of a FIFO that no one writes to: the error
//     is then the context's (context.Canceled);
//   - Open refuses a directory with ErrIsDir, and Regular tells a
//     regular file from a FIFO, a device or a socket for inputs that
//     must be files.
//
// Errors other than the context's are *fs.PathError naming the path the
// caller gave.
package inputfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// DefaultLimit is the size limit of a whole-file read when the Reader
// gives none: 256 MiB.
const DefaultLimit int64 = 256 << 20

// MiB is a mebibyte, the unit of the limits a user gives.
const MiB int64 = 1 << 20

// ErrTooLarge matches the error of a read past the size limit (a
// *TooLargeError).
var ErrTooLarge = errors.New("input larger than the size limit")

// ErrIsDir is the error (inside an *fs.PathError) of a directory given
// where a file is expected.
var ErrIsDir = errors.New("is a directory: expected a file")

// TooLargeError is the error of a read past its size limit.
type TooLargeError struct {
	Limit int64 // the limit in bytes
	Size  int64 // the file's size when known from it, else 0
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("%s is larger than the %s input limit", size(e.Size), size(e.Limit))
	}
	return fmt.Sprintf("larger than the %s input limit", size(e.Limit))
}

// Is makes a *TooLargeError match ErrTooLarge.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// size writes n bytes in MiB when it is a whole number of them.
func size(n int64) string {
	if n%MiB == 0 {
		return fmt.Sprintf("%d MiB", n/MiB)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Reader reads inputs under a size limit and a context. The zero value
// reads with DefaultLimit and is never cancelled.
type Reader struct {
	// Context stops a read in progress when it is cancelled; nil means
	// never.
	Context context.Context
	// Limit is the most bytes a whole-file read takes: 0 means
	// DefaultLimit, a negative value no limit.
	Limit int64
}

func (r Reader) ctx() context.Context {
	if r.Context == nil {
		return context.Background()
	}
	return r.Context
}

func (r Reader) limit() int64 {
	switch {
	case r.Limit == 0:
		return DefaultLimit
	case r.Limit < 0:
		return -1
	}
	return r.Limit
}

// ReadFile reads the whole file name as the package comment describes.
func (r Reader) ReadFile(name string) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var known int64 = -1
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		known = fi.Size()
		if lim := r.limit(); lim >= 0 && known > lim {
			return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: lim, Size: known}}
		}
	}
	b, err := r.read(f, known)
	if err != nil {
		return nil, pathError(name, err)
	}
	return b, nil
}

// ReadAll reads src to its end as the package comment describes; name is
// how errors name it (for example "<stdin>").
func (r Reader) ReadAll(name string, src io.Reader) ([]byte, error) {
	b, err := r.read(src, -1)
	if err != nil {
		return nil, pathError(name, err)
	}
	return b, nil
}

func pathError(name string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: "read", Path: name, Err: err}
}

// Open opens name for reading. A directory is refused (ErrIsDir); the
// open of a FIFO, which waits for a writer, stops when the context is
// cancelled.
func (r Reader) Open(name string) (*os.File, error) {
	ctx := r.ctx()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrIsDir}
	}
	if fi.Mode()&fs.ModeNamedPipe == 0 {
		return os.Open(name)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		// The open still waits for a writer; whoever comes gets the
		// file closed at once.
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// Regular returns an error (an *fs.PathError naming name) unless name is
// a regular file or a link to one: a FIFO, a device or a socket would
// wait for bytes, or never end.
func Regular(name string) error {
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	if fi.Mode().IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch m := fi.Mode(); {
	case m.IsDir():
		return &fs.PathError{Op: "open", Path: name, Err: ErrIsDir}
	case m&fs.ModeNamedPipe != 0:
		what = "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("is %s: expected a regular file", what)}
}

// chunk is how much one read asks for.
const chunk = 1 << 20

// read reads src to its end under the limit and the context. known is
// its size when it is a regular file, else -1. A read that blocks is
// released when the context ends: an *os.File gets a past read deadline
// (when it supports one), and otherwise the read goes on in the
// background while read returns.
func (r Reader) read(src io.Reader, known int64) ([]byte, error) {
	ctx := r.ctx()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lim := r.limit()
	if f, ok := src.(*os.File); ok && known < 0 {
		stop := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Unix(1, 0)) })
		defer stop()
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := readLimited(ctx, src, lim, known)
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		if res.err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return res.b, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readLimited reads src to its end, checking ctx between reads, and
// fails with a *TooLargeError past lim bytes (lim < 0: no limit).
func readLimited(ctx context.Context, src io.Reader, lim, known int64) ([]byte, error) {
	n := int64(512)
	if known >= 0 {
		n = known + 1 // one more, to see the end at once
	}
	if lim >= 0 && n > lim+1 {
		n = lim + 1
	}
	b := make([]byte, 0, n)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			grow := max(cap(b), 4096)
			if lim >= 0 && int64(cap(b)+grow) > lim+1 {
				grow = int(lim + 1 - int64(cap(b)))
			}
			if grow <= 0 {
				return nil, &TooLargeError{Limit: lim}
			}
			b = append(b, make([]byte, grow)...)[:len(b)]
		}
		want := min(cap(b)-len(b), chunk)
		m, err := src.Read(b[len(b) : len(b)+want])
		b = b[:len(b)+m]
		if lim >= 0 && int64(len(b)) > lim {
			return nil, &TooLargeError{Limit: lim}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Stream returns src as a reader that the context stops: a Read after
// the context ends returns its error, and one that waits for bytes (an
// *os.File that supports deadlines: a pipe, a FIFO, a terminal) is
// released at once. A stream has no size limit: who reads it bounds
// what it keeps. stop releases the context's hold on src.
func (r Reader) Stream(src io.Reader) (_ io.Reader, stop func()) {
	ctx := r.ctx()
	stop = func() {}
	if f, ok := src.(*os.File); ok {
		s := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Unix(1, 0)) })
		stop = func() { s() }
	}
	return &stream{ctx: ctx, src: src}, stop
}

type stream struct {
	ctx context.Context
	src io.Reader
}

func (s *stream) Read(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := s.src.Read(p)
	if err != nil && err != io.EOF && s.ctx.Err() != nil {
		return n, s.ctx.Err()
	}
	return n, err
}
