// Package atomicfile writes the files docscore's commands produce: reports,
// review files, references, records and checkpoints.
//
// What a write does depends on what the name is:
//
//   - a regular file, or a name that does not exist yet: the bytes go to a
//     temporary file beside it (".NAME.tmp-*"), which is synced and renamed
//     over the name, so a failed or killed run never leaves half a file. An
//     existing file keeps its permission bits; a new one gets 0666 minus the
//     umask, as a shell redirection would give it. (As with any
//     replacement by rename, its owner becomes the user who writes, and
//     other hard links to it keep the old content.) The setuid and setgid
//     bits are kept only when the file's owner (group) is the writer's, so
//     that the replacement gains no one else's rights; otherwise they are
//     dropped. A temporary file is locked (flock) while its writer lives:
//     the temporary files of the same name that a killed run (SIGKILL, a
//     crash) left are removed by the next write of that name.
//   - a regular file with no write permission at all (0444): refused with
//     ErrReadOnly (it matches fs.ErrPermission), as a shell's ">" refuses
//     it, even for root: a read-only report is one somebody meant to keep.
//   - a symbolic link: it is followed to the file it points at, which is
//     replaced as above; the link itself stays a link.
//   - a dangling symbolic link (one whose target does not exist): refused
//     with ErrDanglingLink. Creating a file wherever a stray link points is
//     how links in shared folders are abused, and GNU cp refuses it too;
//     remove the link, or create its target first.
//   - anything else that is not a directory (a character device such as
//     /dev/null, a FIFO, a terminal), and /dev/stdout, /dev/stderr and the
//     /dev/fd/N and /proc/PID/fd/N names even when the descriptor is a
//     regular file (the shell opened it, perhaps to append): opened for
//     writing and written straight through. Nothing is created, renamed or
//     truncated: the bytes are appended.
//   - a directory: refused with ErrIsDir.
//
// A failed write removes its temporary file, and every error is an
// *fs.PathError naming the path the caller gave, never the temporary file.
// A name in a folder that does not exist fails with an error that matches
// fs.ErrNotExist and names the folder.
//
// Output adds the command-line convention that "-" (or no name at all)
// means standard output.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrIsDir is the error (inside an *fs.PathError) for a name that is a
// directory.
var ErrIsDir = errors.New("is a directory; expected a file name")

// missingFolder is the error of a name whose folder does not exist; it
// matches fs.ErrNotExist.
type missingFolder struct{ dir string }

func (e missingFolder) Error() string        { return "the folder " + e.dir + " does not exist" }
func (e missingFolder) Is(target error) bool { return target == fs.ErrNotExist }

// ErrDanglingLink is the error (inside an *fs.PathError) for a symbolic
// link whose target does not exist.
var ErrDanglingLink = errors.New("is a symbolic link to a file that does not exist; not creating a file through it")

// ErrReadOnly is the error (inside an *fs.PathError) for an existing file
// that no one may write to (no w bit): it is not replaced. It matches
// fs.ErrPermission.
var ErrReadOnly error = readOnly{}

type readOnly struct{}

func (readOnly) Error() string {
	return "is read-only (no write permission); not replacing it (chmod u+w it first, or write elsewhere)"
}
func (readOnly) Is(target error) bool { return target == fs.ErrPermission }

// Options adjust a write. The zero value is the ordinary write.
type Options struct {
	// BeforeRename, when set, runs after the temporary file is written
	// and synced and before it is renamed into place. An error it returns
	// ends the write with that error and leaves the temporary file where
	// it is, as a crash at that moment would: it exists for crash tests.
	BeforeRename func(tmp string) error
}

// WriteFile writes data to name as the package comment describes.
func WriteFile(name string, data []byte) error {
	return Options{}.WriteFile(name, data)
}

// Output writes data to stdout when name is "" or "-", and to the file
// name otherwise (see WriteFile).
func Output(stdout io.Writer, name string, data []byte) error {
	if name == "" || name == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return WriteFile(name, data)
}

// WriteFile writes data to name as the package comment describes, with
// the options o.
func (o Options) WriteFile(name string, data []byte) error {
	f, err := o.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// File is a write in progress (Create): its bytes go to a temporary file
// beside the name, or straight to a device or descriptor, until Commit
// renames the temporary file into place or Abort removes it.
type File struct {
	o       Options
	name    string      // the path the caller gave, for errors
	target  string      // the file replaced; "" when written through
	special fs.FileMode // setuid/setgid/sticky bits set again at Commit
	f       *os.File
	err     error // the first write error
	aborted bool
}

// Create starts a write of name as the package comment describes: what
// is written to the File appears at name only when Commit returns nil.
// A command that streams a long report writes it piece by piece, and an
// interrupted one calls Abort, leaving no file behind.
func Create(name string) (*File, error) { return Options{}.Create(name) }

// Create is the package's Create with the options o.
func (o Options) Create(name string) (*File, error) {
	if isStream(name) {
		return o.through(name)
	}
	fi, err := os.Stat(name) // follows links
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if li, lerr := os.Lstat(name); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(name)
			return nil, &fs.PathError{Op: "write", Path: name, Err: fmt.Errorf("%w (it points at %s)", ErrDanglingLink, target)}
		}
		return o.temp(name, name, 0o666, false)
	case err != nil:
		return nil, &fs.PathError{Op: "write", Path: name, Err: unwrap(err)}
	case fi.IsDir():
		return nil, &fs.PathError{Op: "write", Path: name, Err: ErrIsDir}
	case !fi.Mode().IsRegular():
		return o.through(name)
	}
	if fi.Mode().Perm()&0o222 == 0 {
		return nil, &fs.PathError{Op: "write", Path: name, Err: ErrReadOnly}
	}
	target, err := filepath.EvalSymlinks(name)
	if err != nil {
		return nil, &fs.PathError{Op: "write", Path: name, Err: unwrap(err)}
	}
	f, err := o.temp(name, target, fi.Mode().Perm(), true)
	if err == nil {
		f.special = specialBits(fi)
	}
	return f, err
}

// temp creates the temporary file beside target that Commit renames over
// it. When keep is set the temporary file gets perm exactly; otherwise
// perm minus the umask.
func (o Options) temp(name, target string, perm fs.FileMode, keep bool) (*File, error) {
	dir := filepath.Dir(target)
	if di, err := os.Stat(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &fs.PathError{Op: "write", Path: name, Err: missingFolder{dir}}
		}
		return nil, &fs.PathError{Op: "write", Path: name, Err: unwrap(err)}
	} else if !di.IsDir() {
		return nil, &fs.PathError{Op: "write", Path: name, Err: fmt.Errorf("%s is not a folder: %w", dir, syscall.ENOTDIR)}
	}
	unlock := lockDir(dir)
	removeStale(dir, filepath.Base(target))
	tmp, err := createTemp(dir, filepath.Base(target), perm)
	if err == nil {
		lockTemp(tmp)
	}
	unlock()
	if err != nil {
		return nil, &fs.PathError{Op: "write", Path: name, Err: unwrap(err)}
	}
	f := &File{o: o, name: name, target: target, f: tmp}
	if keep {
		// The umask applied at creation; the existing file's bits win.
		if err := tmp.Chmod(perm); err != nil {
			f.Abort()
			return nil, &fs.PathError{Op: "write", Path: name, Err: unwrap(err)}
		}
	}
	return f, nil
}

// through opens an existing file that is not a regular one (a device, a
// FIFO, a terminal) or a descriptor path: nothing is created or
// truncated, and the bytes are appended, so that a descriptor the shell
// opened to a file ("> f" or ">> f") gets them after whatever the process
// already wrote there.
func (o Options) through(name string) (*File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "write", Path: name, Err: unwrap(err)}
	}
	return &File{o: o, name: name, f: f}, nil
}

// Write writes to the temporary file (or straight through). An error
// names the caller's path.
func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.f.Write(p)
	return n, f.failed(err)
}

// ReadFrom writes what r gives through the file's own ReadFrom, which
// copies from another file within the kernel. An error names the
// caller's path.
func (f *File) ReadFrom(r io.Reader) (int64, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.f.ReadFrom(r)
	return n, f.failed(err)
}

// failed keeps a write's error, naming the caller's path, and returns
// the first one kept.
func (f *File) failed(err error) error {
	if err != nil && f.err == nil {
		f.err = &fs.PathError{Op: "write", Path: f.name, Err: unwrap(err)}
	}
	return f.err
}

// Abort ends the write and removes the temporary file: name is as it
// was. It may be called after Commit (it then does nothing) and more than
// once.
func (f *File) Abort() {
	if f.aborted || f.f == nil {
		return
	}
	f.aborted = true
	f.f.Close()
	if f.target != "" {
		os.Remove(f.f.Name())
	}
	f.f = nil
}

// Commit syncs the temporary file and renames it over the name (a file
// written through is closed). On an error the temporary file is removed.
func (f *File) Commit() error {
	if f.f == nil {
		return &fs.PathError{Op: "write", Path: f.name, Err: os.ErrClosed}
	}
	if f.err != nil {
		f.Abort()
		return f.err
	}
	tmp := f.f
	f.f = nil
	if f.target == "" {
		if err := tmp.Close(); err != nil {
			return &fs.PathError{Op: "write", Path: f.name, Err: unwrap(err)}
		}
		return nil
	}
	tmpName := tmp.Name()
	if f.special != 0 {
		// After the last write: a write clears setuid and setgid.
		if err := tmp.Chmod(f.special | perm(tmp)); err != nil {
			tmp.Close()
			os.Remove(tmpName)
			return &fs.PathError{Op: "write", Path: f.name, Err: unwrap(err)}
		}
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmpName)
		return &fs.PathError{Op: "write", Path: f.name, Err: unwrap(err)}
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmpName)
		return &fs.PathError{Op: "write", Path: f.name, Err: unwrap(err)}
	}
	if f.o.BeforeRename != nil {
		if err := f.o.BeforeRename(tmpName); err != nil {
			return err
		}
	}
	if err := os.Rename(tmpName, f.target); err != nil {
		os.Remove(tmpName)
		return &fs.PathError{Op: "write", Path: f.name, Err: unwrap(err)}
	}
	// Make the rename durable; a folder that cannot be synced (some
	// network file systems) still holds the new file.
	if d, err := os.Open(filepath.Dir(f.target)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// createTemp creates a new file ".BASE.tmp-RANDOM" in dir with perm (minus
// the umask). os.CreateTemp would always give 0600.
func createTemp(dir, base string, perm fs.FileMode) (*os.File, error) {
	var b [6]byte
	for i := 0; ; i++ {
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		p := filepath.Join(dir, "."+base+".tmp-"+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		return f, err
	}
}

// isStream reports whether name is, or links through, one of the
// process's own descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N):
// those are written straight through even when the descriptor is a
// regular file, which the caller's shell opened (perhaps to append).
func isStream(name string) bool {
	p := name
	for i := 0; i < 40; i++ {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if isDescriptorPath(p) {
			return true
		}
		li, err := os.Lstat(p)
		if err != nil || li.Mode()&fs.ModeSymlink == 0 {
			return false
		}
		t, err := os.Readlink(p)
		if err != nil {
			return false
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = t
	}
	return false
}

func isDescriptorPath(p string) bool {
	switch p {
	case "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	}
	if strings.HasPrefix(p, "/dev/fd/") {
		return true
	}
	if rest, ok := strings.CutPrefix(p, "/proc/"); ok {
		_, fd, ok := strings.Cut(rest, "/")
		return ok && strings.HasPrefix(fd, "fd/")
	}
	return false
}

// unwrap drops an inner *fs.PathError so that the outer one names the
// caller's path once.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// perm is f's permission bits (0600 when it cannot be read).
func perm(f *os.File) fs.FileMode {
	if fi, err := f.Stat(); err == nil {
		return fi.Mode().Perm()
	}
	return 0o600
}
