//go:build unix

package inputfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), n), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name  string
		path  string
		limit int64
		want  int   // bytes read
		err   error // matched with errors.Is
		text  string
	}{
		{name: "small", path: write("small", 10), want: 10},
		{name: "empty", path: write("empty", 0), want: 0},
		{name: "at the limit", path: write("at", 1000), limit: 1000, want: 1000},
		{name: "one past the limit", path: write("past", 1001), limit: 1000, err: ErrTooLarge, text: "1001 bytes is larger than the 1000 bytes input limit"},
		{name: "MiB limit", path: write("mib", int(MiB)+1), limit: MiB, err: ErrTooLarge, text: "larger than the 1 MiB input limit"},
		{name: "no limit", path: write("big", 3*chunk+7), limit: -1, want: 3*chunk + 7},
		{name: "endless stream", path: "/dev/zero", limit: 3 * MiB, err: ErrTooLarge, text: "/dev/zero: larger than the 3 MiB input limit"},
		{name: "empty device", path: "/dev/null", want: 0},
		{name: "directory", path: dir, err: ErrIsDir},
		{name: "missing", path: filepath.Join(dir, "nope"), err: fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Reader{Limit: tc.limit}.ReadFile(tc.path)
			if tc.err != nil {
				if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.text) || !strings.Contains(err.Error(), tc.path) {
					t.Fatalf("got %d bytes, error %v; want %v naming %s (%q)", len(b), err, tc.err, tc.path, tc.text)
				}
				return
			}
			if err != nil || len(b) != tc.want {
				t.Fatalf("got %d bytes, error %v; want %d", len(b), err, tc.want)
			}
		})
	}
}

// TestDefaultLimit: the zero Reader stops /dev/zero at 256 MiB.
func TestDefaultLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 256 MiB")
	}
	_, err := Reader{}.ReadFile("/dev/zero")
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != DefaultLimit {
		t.Fatalf("got %v; want the 256 MiB limit", err)
	}
}

// TestCancelBlockedOpen: the open of a FIFO with no writer waits; the
// context ends it.
func TestCancelBlockedOpen(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal("a FIFO for the test:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Reader{Context: ctx}.ReadFile(fifo)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("got %v after %v; want the context's error at once", err, time.Since(start))
	}
}

// TestCancelBlockedRead: a read that waits for bytes (a pipe whose writer
// stays) ends with the context.
func TestCancelBlockedRead(t *testing.T) {
	for _, name := range []string{"file", "reader"} {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		defer pw.Close()
		pw.Write([]byte("some bytes, then nothing"))
		var src io.Reader = pr
		if name == "reader" {
			src = struct{ io.Reader }{pr} // not an *os.File: no deadline
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, err = Reader{Context: ctx}.ReadAll("<stdin>", src)
		if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
			t.Fatalf("%s: got %v after %v; want context.Canceled at once", name, err, time.Since(start))
		}
	}
}

// TestCancelEndlessRead: /dev/zero without a limit is still stopped by
// the context.
func TestCancelEndlessRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := Reader{Context: ctx, Limit: 1 << 40}.ReadFile("/dev/zero")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v; want context.Canceled", err)
	}
}

func TestRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal("a FIFO for the test:", err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(fifo, link)
	for _, tc := range []struct{ path, want string }{
		{file, ""},
		{fifo, "is a FIFO (named pipe): expected a regular file"},
		{link, "is a FIFO (named pipe)"},
		{"/dev/null", "is a device"},
		{dir, "is a directory"},
	} {
		err := Regular(tc.path)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Regular(%s) = %v; want %q", tc.path, err, tc.want)
		}
	}
}
