//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// lockDir takes the folder's lock (flock on the folder itself): held
// while a temporary file is created and locked, and while stale ones are
// removed, so that a new temporary file is never taken for a stale one.
// A folder that cannot be opened or locked is not locked (unlock then
// does nothing).
func lockDir(dir string) (unlock func()) {
	d, err := os.Open(dir)
	if err != nil {
		return func() {}
	}
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		d.Close()
		return func() {}
	}
	return func() {
		_ = syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
		d.Close()
	}
}

// lockTemp locks a temporary file for as long as its writer lives: the
// lock goes with the process, however it ends (even SIGKILL).
func lockTemp(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// removeStale removes the temporary files of base in dir that no living
// writer holds: what a run killed by SIGKILL (or a crash, or a power
// cut) left behind. The caller holds the folder's lock.
func removeStale(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + ".tmp-"
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			// No writer holds it. Remove it if it is still the file
			// opened (not replaced meanwhile).
			if fi, err := f.Stat(); err == nil {
				if li, err := os.Lstat(p); err == nil && os.SameFile(fi, li) {
					os.Remove(p)
				}
			}
		}
		f.Close()
	}
}

// specialBits are the setuid, setgid and sticky bits of fi that its
// replacement may keep: setuid only when the file is the writer's own
// (replacing it keeps its owner), setgid only when its group is the
// writer's, so that a replacement never gains another user's or group's
// rights; sticky always.
func specialBits(fi fs.FileInfo) fs.FileMode {
	m := fi.Mode() & fs.ModeSticky
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return m
	}
	if fi.Mode()&fs.ModeSetuid != 0 && int(st.Uid) == os.Geteuid() {
		m |= fs.ModeSetuid
	}
	if fi.Mode()&fs.ModeSetgid != 0 && int(st.Gid) == os.Getegid() {
		m |= fs.ModeSetgid
	}
	return m
}
