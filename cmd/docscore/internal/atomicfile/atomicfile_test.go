//go:build linux

package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// setUmask sets the process umask for one test and restores it after.
func setUmask(t *testing.T, mask int) {
	t.Helper()
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// entries lists dir's names, to catch temporary files left behind.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileRegular(t *testing.T) {
	tests := []struct {
		name     string
		umask    int
		existing fs.FileMode // 0: no file before the write
		want     fs.FileMode
	}{
		{"new file, umask 022", 0o022, 0, 0o644},
		{"new file, umask 002", 0o002, 0, 0o664},
		{"new file, umask 077", 0o077, 0, 0o600},
		{"existing 0640 kept", 0o022, 0o640, 0o640},
		{"existing 0666 kept under umask 022", 0o022, 0o666, 0o666},
		{"existing 0600 kept", 0o002, 0o600, 0o600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			setUmask(t, tt.umask)
			dir := t.TempDir()
			p := filepath.Join(dir, "report.json")
			if tt.existing != 0 {
				if err := os.WriteFile(p, []byte("old, longer content"), 0); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, tt.existing); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFile(p, []byte("new")); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			if !fi.Mode().IsRegular() || fi.Mode().Perm() != tt.want {
				t.Errorf("mode %v, want a regular file %v", fi.Mode(), tt.want)
			}
			if b, _ := os.ReadFile(p); string(b) != "new" {
				t.Errorf("content %q", b)
			}
			if names := entries(t, dir); len(names) != 1 {
				t.Errorf("folder holds %v, want only report.json", names)
			}
		})
	}
}

// TestWriteFileDevNull: a character device like /dev/null stays one (the
// defect: as root /dev/null became a 0600 regular file). The device is a
// copy made with mknod in a test folder, so that a regression can never
// replace the machine's /dev/null.
func TestWriteFileDevNull(t *testing.T) {
	null := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Fatalf("mknod (the tests run as root, as CI does): %v", err)
	}
	before, err := os.Lstat(null)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(null, []byte("discarded\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(null)
	if err != nil || fi.Mode()&fs.ModeCharDevice == 0 || fi.Mode() != before.Mode() {
		t.Fatalf("%s is now %v (%v), want the character device %v", null, fi.Mode(), err, before.Mode())
	}
	if names := entries(t, filepath.Dir(null)); len(names) != 1 {
		t.Errorf("folder holds %v", names)
	}
}

// TestWriteFileFIFO: a FIFO gets the bytes and stays a FIFO.
func TestWriteFileFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	// The test holds a write end until the write is done, so the reader
	// cannot block forever whatever WriteFile does to p.
	hold, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		defer r.Close()
		b, _ := io.ReadAll(r)
		got <- b
	}()
	err = WriteFile(p, []byte("through the pipe"))
	hold.Close()
	b := <-got
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "through the pipe" {
		t.Errorf("reader got %q", b)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("%s is now %v, %v: want a FIFO", p, fi.Mode(), err)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("folder holds %v", names)
	}
}

// TestWriteFileSymlink: a link to a file stays a link, the target gets the
// content and keeps its mode; links to links and relative links too.
func TestWriteFileSymlink(t *testing.T) {
	setUmask(t, 0o022)
	dir := t.TempDir()
	sub := filepath.Join(dir, "reports")
	os.Mkdir(sub, 0o755)
	target := filepath.Join(sub, "r1.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(target, 0o640)
	link := filepath.Join(dir, "latest.json")
	if err := os.Symlink("reports/r1.json", link); err != nil {
		t.Fatal(err)
	}
	link2 := filepath.Join(dir, "current.json")
	if err := os.Symlink(link, link2); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{link, link2} {
		want := []string{"via latest", "via current"}[i]
		if err := WriteFile(name, []byte(want)); err != nil {
			t.Fatal(err)
		}
		li, err := os.Lstat(name)
		if err != nil || li.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s is now %v: want the link kept", name, li.Mode())
		}
		if b, _ := os.ReadFile(target); string(b) != want {
			t.Errorf("target holds %q, want %q", b, want)
		}
		if fi, _ := os.Lstat(target); !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o640 {
			t.Errorf("target mode %v, want 0640", fi.Mode())
		}
	}
	if names := entries(t, sub); len(names) != 1 {
		t.Errorf("reports/ holds %v", names)
	}
}

// TestWriteFileDanglingSymlink: a link to nothing is refused; nothing is
// created at either end.
func TestWriteFileDanglingSymlink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "latest.json")
	os.Symlink("missing.json", link)
	err := WriteFile(link, []byte("x"))
	var pe *fs.PathError
	if !errors.Is(err, ErrDanglingLink) || !errors.As(err, &pe) || pe.Path != link {
		t.Fatalf("error %v: want ErrDanglingLink naming %s", err, link)
	}
	if !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("error %q does not name the link's target", err)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("folder holds %v, want only the link", names)
	}
}

// TestWriteFileErrorsNameThePath: a directory or a missing folder fails,
// names the caller's path (not a temporary file) and leaves nothing behind.
func TestWriteFileErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "out")
	os.Mkdir(sub, 0o755)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	tests := []struct {
		name, path string
		is         error
		msg        string
	}{
		{"directory", sub, ErrIsDir, "is a directory"},
		{"missing folder", filepath.Join(dir, "missing", "r.json"), fs.ErrNotExist, "folder " + filepath.Join(dir, "missing") + " does not exist"},
		{"under a file", filepath.Join(file, "r.json"), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := WriteFile(tt.path, []byte("x"))
			var pe *fs.PathError
			if err == nil || !errors.As(err, &pe) || pe.Path != tt.path {
				t.Fatalf("error %v: want a PathError naming %s", err, tt.path)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.msg) || strings.Contains(err.Error(), ".tmp") {
				t.Errorf("error %q: want %q and no temporary name", err, tt.msg)
			}
			if names := entries(t, dir); len(names) != 2 {
				t.Errorf("folder holds %v: a temporary file was left", names)
			}
			if names := entries(t, sub); len(names) != 0 {
				t.Errorf("out/ holds %v", names)
			}
		})
	}
}

// TestWriteFileDescriptorPaths: /dev/stdout and /proc/self/fd/N are written
// straight through, even when the descriptor is a regular file opened for
// appending, which a rename would have replaced.
func TestWriteFileDescriptorPaths(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	os.WriteFile(p, []byte("first\n"), 0o644)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fdPath := "/proc/self/fd/" + itoa(int(f.Fd()))
	if _, err := os.Stat(fdPath); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(fdPath, []byte("second\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "first\nsecond\n" {
		t.Errorf("file holds %q, want the write appended", b)
	}
	for _, name := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/2", "/proc/123/fd/4"} {
		if !isStream(name) {
			t.Errorf("isStream(%s) = false", name)
		}
	}
	for _, name := range []string{p, "/proc/self/status", "/dev/null", "fd/1"} {
		if isStream(name) {
			t.Errorf("isStream(%s) = true", name)
		}
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			return string(b)
		}
	}
}

// TestBeforeRenameLeavesTheTemporaryFile: the crash hook stops the write
// with the old file in place and the finished temporary file beside it.
func TestBeforeRenameLeavesTheTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.json")
	os.WriteFile(p, []byte("old"), 0o644)
	crash := errors.New("killed")
	var tmp string
	err := Options{BeforeRename: func(name string) error { tmp = name; return crash }}.WriteFile(p, []byte("new"))
	if !errors.Is(err, crash) {
		t.Fatalf("error %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("file holds %q", b)
	}
	if b, _ := os.ReadFile(tmp); !bytes.Equal(b, []byte("new")) || !strings.HasPrefix(filepath.Base(tmp), ".c.json.tmp-") {
		t.Errorf("temporary file %s holds %q", tmp, b)
	}
}

func TestOutputDash(t *testing.T) {
	for _, name := range []string{"", "-"} {
		var b bytes.Buffer
		if err := Output(&b, name, []byte("x")); err != nil || b.String() != "x" {
			t.Errorf("Output(%q): %v, %q", name, err, b.String())
		}
	}
}

// TestStaleTempRemovedLiveKept: a temporary file no writer holds (what
// a SIGKILL'ed run left) is removed by the next write of the same name;
// a live writer's is not, and that writer still commits.
func TestStaleTempRemovedLiveKept(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.json")
	stale := filepath.Join(dir, ".out.json.tmp-000000000000")
	other := filepath.Join(dir, ".other.json.tmp-000000000000")
	for _, p := range []string{stale, other} {
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	live, err := Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stale temporary file: %v; want it removed", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another name's temporary file: %v; want it kept", err)
	}
	second, err := Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Abort()
	if _, err := live.Write([]byte("live")); err != nil {
		t.Fatal(err)
	}
	if err := live.Commit(); err != nil {
		t.Fatalf("the live writer's commit: %v (its temporary file was taken for stale)", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "live" {
		t.Fatalf("got %q", b)
	}
}

// TestReadOnlyRefused: a file with no write bit is not replaced.
func TestReadOnlyRefused(t *testing.T) {
	name := filepath.Join(t.TempDir(), "keep.json")
	if err := os.WriteFile(name, []byte("keep"), 0o444); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(name, []byte("new"))
	if !errors.Is(err, ErrReadOnly) || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("got %v; want ErrReadOnly", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "keep" {
		t.Fatalf("replaced: %q", b)
	}
}
