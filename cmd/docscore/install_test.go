package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBuildsFromACleanTree is what "go install
// github.com/docscore/docscore/cmd/docscore@latest" gets: the files a
// commit holds (the module zip is made of them), without "make site"
// having filled cmd/docscore/internal/webui/built. The copy compiles,
// scores the bundled sample, and "serve" explains that the site is not in
// this binary and where to get one that has it.
func TestBuildsFromACleanTree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	root := moduleRoot(t)
	tree := filepath.Join(t.TempDir(), "docscore")
	copyCommittable(t, root, tree)
	if entries, err := os.ReadDir(filepath.Join(tree, "cmd", "docscore", "internal", "webui", "built")); err != nil || len(entries) != 1 || entries[0].Name() != "README.md" {
		t.Fatalf("the clean tree's webui/built should hold only README.md: %v %v", entries, err)
	}
	bin := filepath.Join(t.TempDir(), "docscore")
	// -trimpath, as the release builds: the build cache then serves the
	// packages compiled for the working tree.
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, "./cmd/docscore")
	build.Dir = tree
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in a clean tree: %v\n%s", err, out)
	}

	run := func(args ...string) (int, string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = t.TempDir()
		cmd.Stdin = strings.NewReader("")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatalf("docscore %s: %v", strings.Join(args, " "), err)
			}
		}
		return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
	}

	code, stdout, stderr := run("score", "tabular", "--sample")
	var report struct {
		Kind  string           `json:"kind"`
		Cells []map[string]any `json:"cells"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &report) != nil || report.Kind != "tabular" || len(report.Cells) == 0 {
		t.Fatalf("docscore score tabular --sample: exit %d, %d bytes of stdout (kind %q, %d cells), stderr %q", code, len(stdout), report.Kind, len(report.Cells), stderr)
	}
	code, stdout, stderr = run("serve", "--help")
	if code != 0 || !strings.Contains(stdout, "docscore serve [--addr") || !strings.Contains(stdout, "--api") {
		t.Fatalf("docscore serve --help: exit %d, %q %q", code, stdout, stderr)
	}
	code, stdout, stderr = run("version")
	if code != 0 || !strings.HasPrefix(stdout, "docscore dev (commit ") {
		t.Fatalf("docscore version: exit %d, %q %q", code, stdout, stderr)
	}
	// Without the site, serve fails at once (exit 1) and says how to get it.
	code, stdout, stderr = run("serve", "--addr", "127.0.0.1:0")
	for _, want := range []string{"built without the site", "go install", "release archive", "make build", "--dir", "--api"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("docscore serve without a site: stderr %q lacks %q", stderr, want)
		}
	}
	if code != 1 || stdout != "" {
		t.Errorf("docscore serve without a site: exit %d, stdout %q, want 1 and nothing", code, stdout)
	}
}

// moduleRoot is the repository's root, the folder of go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Fatalf("go env GOMOD: %v %q", err, out)
	}
	return filepath.Dir(string(bytes.TrimSpace(out)))
}

// copyCommittable copies into dst the files of root that a commit would
// hold: those git tracks and those it would add (not ignored). Built
// output, such as a site that "make site" copied into webui/built, stays
// behind, as it does in a clone.
func copyCommittable(t *testing.T, root, dst string) {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files in %s (the test needs git and a checkout): %v", root, err)
	}
	n := 0
	for name := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, filepath.FromSlash(name))
		info, err := os.Lstat(src)
		if os.IsNotExist(err) {
			continue // deleted in the working tree, not committed yet
		}
		if err != nil {
			t.Fatal(err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		target := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		copyFile(t, src, target)
		n++
	}
	if n < 100 {
		t.Fatalf("git ls-files listed %d files in %s: not the repository", n, root)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
