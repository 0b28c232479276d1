package harnessio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/inputfile"
)

// TestDirLoaderConfined: a cases file reads only files in its folder
// unless outside paths are allowed; before, DirLoader read any path.
func TestDirLoaderConfined(t *testing.T) {
	root := t.TempDir()
	cases := filepath.Join(root, "cases")
	secret := filepath.Join(root, "secret.txt")
	for p, data := range map[string]string{
		filepath.Join(cases, "a.txt"):        "a",
		filepath.Join(cases, "sub", "b.txt"): "b",
		secret:                               "secret",
	} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
	}
	os.MkdirAll(filepath.Join(root, "elsewhere"), 0o755)
	os.WriteFile(filepath.Join(root, "elsewhere", "c.txt"), []byte("c"), 0o644)
	os.Symlink(secret, filepath.Join(cases, "link-out.txt"))
	os.Symlink("a.txt", filepath.Join(cases, "link-in.txt"))
	os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(cases, "dir-out"))

	tests := []struct {
		path string
		want string // the content, or "" when refused
		msg  string // in the refusal
	}{
		{"a.txt", "a", ""},
		{"sub/b.txt", "b", ""},
		{"sub/../a.txt", "a", ""},
		{"./a.txt", "a", ""},
		{"link-in.txt", "a", ""},
		{"../secret.txt", "", "leaves the cases file's folder"},
		{"../../../../../../../etc/passwd", "", "leaves the cases file's folder"},
		{"sub/../../secret.txt", "", "leaves the cases file's folder"},
		{secret, "", "an absolute path"},
		{filepath.Join(cases, "a.txt"), "", "an absolute path"},
		{"link-out.txt", "", "a symbolic link leads out of the cases file's folder " + cases + ", to " + secret},
		{"dir-out/c.txt", "", "a symbolic link leads out"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, err := DirLoader(cases, false, inputfile.Reader{})(tt.path)
			if tt.want != "" {
				if err != nil || string(got) != tt.want {
					t.Fatalf("read %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("read %q; want a refusal", got)
			}
			for _, w := range []string{tt.msg, "--allow-outside-paths"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("refusal %q does not contain %q", err, w)
				}
			}
			// The flag allows it (the files that exist).
			if _, err := os.Stat(filepath.Join(cases, tt.path)); err == nil || filepath.IsAbs(tt.path) {
				p := tt.path
				if b, err := DirLoader(cases, true, inputfile.Reader{})(p); err != nil || len(b) == 0 {
					t.Errorf("with outside paths allowed: %q, %v", b, err)
				}
			}
		})
	}
}
