//go:build linux

package cli

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// privateDevNull makes a character device like /dev/null (1, 3) in a
// test folder (mknod needs root; the tests run as root), so that a regression replaces that copy and
// never the machine's /dev/null.
func privateDevNull(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Fatalf("mknod (the tests run as root, as CI does): %v", err)
	}
	return p
}

// readFIFO starts a reader on the FIFO p and returns a function that
// returns everything written to it. The test holds a write end of its own
// until that function is called, so neither the reader nor the command
// under test can block forever, whatever the command does to p.
func readFIFO(t *testing.T, p string) func() string {
	t.Helper()
	hold, err := os.OpenFile(p, os.O_RDWR, 0) // Linux: opens without a peer
	if err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(p) // does not block: hold is a writer
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		defer r.Close()
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	return func() string {
		hold.Close()
		return <-got
	}
}

// scoreReceiptsTo runs 'score receipts' on the sample with --out out.
func scoreReceiptsTo(t *testing.T, out string) (int, string) {
	t.Helper()
	code, _, stderr := run(t, "score", "receipts", "--refs", sampleFile("refs"), "--run", sampleFile("run.jsonl"), "--out", out)
	return code, stderr
}

// TestOutputFlagKeepsSpecialFiles: --out writes through to what is not a
// regular file, follows links and keeps (or derives from the umask) the
// file's mode. Before the fix every target was replaced by a new 0600
// regular file, /dev/null included.
func TestOutputFlagKeepsSpecialFiles(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)

	t.Run("dev null", func(t *testing.T) {
		null := privateDevNull(t)
		if code, stderr := scoreReceiptsTo(t, null); code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if fi, err := os.Lstat(null); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("%s is now %v (%v), want a character device", null, fi.Mode(), err)
		}
	})
	t.Run("fifo", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "report.pipe")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
		got := readFIFO(t, p)
		code, stderr := scoreReceiptsTo(t, p)
		b := got()
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if !strings.Contains(b, `"rouge_l_f1_mean"`) {
			t.Errorf("the reader got %.80q, want the report", b)
		}
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("%s is now %v, want a FIFO", p, fi.Mode())
		}
	})
	t.Run("symlink", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "report-1.json")
		os.WriteFile(target, []byte("old"), 0o600)
		os.Chmod(target, 0o640)
		link := filepath.Join(dir, "latest.json")
		os.Symlink("report-1.json", link)
		if code, stderr := scoreReceiptsTo(t, link); code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if li, err := os.Lstat(link); err != nil || li.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is now %v, want the link kept", link, li.Mode())
		}
		fi, _ := os.Lstat(target)
		b, _ := os.ReadFile(target)
		if !strings.Contains(string(b), `"rouge_l_f1_mean"`) || fi.Mode().Perm() != 0o640 {
			t.Errorf("target: mode %v, %.40q: want the report, mode 0640", fi.Mode(), b)
		}
	})
	t.Run("new file under umask 022", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "report.json")
		if code, stderr := scoreReceiptsTo(t, p); code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("mode %v (%v), want 0644", fi.Mode(), err)
		}
	})
}

// TestOutputFlagBadPaths: an --out that cannot be written exits 2, names
// the path given (never a temporary file) and leaves nothing behind.
func TestOutputFlagBadPaths(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "reports")
	os.Mkdir(sub, 0o755)
	dangling := filepath.Join(dir, "latest.json")
	os.Symlink("missing.json", dangling)
	tests := []struct {
		name, out string
		want      []string
	}{
		{"existing directory", sub, []string{"--out " + sub + ": is a directory"}},
		{"missing folder", filepath.Join(dir, "nope", "r.json"), []string{"--out " + filepath.Join(dir, "nope", "r.json") + ":", "folder " + filepath.Join(dir, "nope") + " does not exist"}},
		{"dangling symlink", dangling, []string{"--out " + dangling + ":", "symbolic link", "missing.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stderr := scoreReceiptsTo(t, tt.out)
			if code != ExitInput {
				t.Errorf("exit %d, want %d: %s", code, ExitInput, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("message %q does not contain %q", stderr, w)
				}
			}
			if strings.Contains(stderr, ".tmp") {
				t.Errorf("message %q names a temporary file", stderr)
			}
			for _, d := range []string{dir, sub} {
				es, _ := os.ReadDir(d)
				for _, e := range es {
					if strings.Contains(e.Name(), ".tmp") {
						t.Errorf("left behind: %s", filepath.Join(d, e.Name()))
					}
				}
			}
		})
	}
}

// TestPilotRunOutFIFO: pilot run --out naming a FIFO exits 2 at once; it
// used to fail late with "seek …: illegal seek" (exit 1), and a run file
// must be read back to resume.
func TestPilotRunOutFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, "pilot", "run", "--dataset", fakeReceipts(t, "r1"), "--command", "echo {image}", "--out", p)
	if code != ExitInput || !strings.Contains(stderr, "--out "+p+": is a FIFO; a run file must be a regular file") {
		t.Errorf("exit %d, %s", code, stderr)
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s is now %v", p, fi.Mode())
	}
}

// TestPilotRunFileModeFollowsUmask: a new run file gets 0666 minus the
// umask, as a shell redirection would (it was 0644 whatever the umask).
func TestPilotRunFileModeFollowsUmask(t *testing.T) {
	old := syscall.Umask(0o002)
	defer syscall.Umask(old)
	p := filepath.Join(t.TempDir(), "run.jsonl")
	code, _, stderr := run(t, "pilot", "run", "--dataset", fakeReceipts(t, "r1"), "--command", "echo {image}", "--concurrency", "1", "--quiet", "--out", p)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o664 {
		t.Errorf("run file mode %v (%v), want 0664 under umask 002", fi.Mode(), err)
	}
}

// TestPilotRunOutDevNull: /dev/null is refused as a run file like any
// device (exit 2, before any work); it used to fail after the warmups
// with "sync /dev/null: invalid argument" (exit 1). pilot run opens in
// place and never renames, so this touches the real /dev/null safely.
func TestPilotRunOutDevNull(t *testing.T) {
	code, _, stderr := run(t, "pilot", "run", "--dataset", fakeReceipts(t, "r1"), "--command", "echo {image}", "--concurrency", "1", "--quiet", "--out", os.DevNull)
	if code != ExitInput || !strings.Contains(stderr, "--out /dev/null: is a device; a run file must be a regular file") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is now %v", os.DevNull, fi.Mode())
	}
}
