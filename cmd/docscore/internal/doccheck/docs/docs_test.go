package docs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/cli"
	"github.com/docscore/docscore/cmd/docscore/internal/doccheck"
	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter"
	"github.com/spf13/cobra"
)

// repoRoot is the directory holding go.mod, above the test's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// docFiles are README.md and docs/*.md, relative to the repository root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md"}
	for _, f := range files {
		out = append(out, filepath.ToSlash(strings.TrimPrefix(f, root+string(filepath.Separator))))
	}
	sort.Strings(out[1:])
	return out
}

func readDoc(t *testing.T, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReadmeSize holds README.md to a newcomer's page: what docscore is,
// how to run it, one example per family and links; the rest lives in docs/.
func TestReadmeSize(t *testing.T) {
	const limit = 6656 // 6.5 KB
	info, err := os.Stat(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() >= limit {
		t.Errorf("README.md is %d bytes; keep it under %d (move detail into docs/)", info.Size(), limit)
	}
}

// TestLinks checks that every relative link and image of README.md and
// docs/*.md names a file or folder of the repository, and that its
// #anchor, when it has one, names a heading of the Markdown file it points
// to.
func TestLinks(t *testing.T) {
	root := repoRoot(t)
	for _, name := range docFiles(t, root) {
		text := readDoc(t, root, name)
		for _, l := range doccheck.Links(text) {
			target := l.Target
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := filepath.Join(root, name)
			if path != "" {
				file = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
				if rel, err := filepath.Rel(root, file); err != nil || strings.HasPrefix(rel, "..") {
					t.Errorf("%s:%d: link %q leaves the repository", name, l.Line, target)
					continue
				}
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s:%d: link %q: no such file", name, l.Line, target)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s:%d: link %q: %v", name, l.Line, target, err)
				continue
			}
			if !doccheck.Anchors(string(data))[anchor] {
				t.Errorf("%s:%d: link %q: no heading with anchor #%s", name, l.Line, target, anchor)
			}
		}
	}
}

// workDir is a fresh folder that mirrors the repository's tree: real
// folders, each file a symbolic link to the repository's. Examples read the
// repository's files by the paths the docs show (cd sample/tabular
// included) while whatever they write stays out of the repository. The
// files under examples/ are copied instead: a cases file may not read
// through a link that leads out of its folder.
func workDir(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	skip := map[string]bool{".git": true, "node_modules": true, "bin": true, "dist": true, "build": true, ".wrangler": true}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skip[d.Name()] && rel != "." {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if strings.HasPrefix(rel, "examples"+string(filepath.Separator)) {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
		}
		return os.Symlink(path, filepath.Join(dir, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// words splits a shown command as the shell would (judge.SplitCommand:
// quotes and backslashes), up to a # comment, a pipe or a redirection.
func words(cmd string) ([]string, error) {
	w, err := modeladapter.SplitCommand(cmd)
	if err != nil {
		return nil, err
	}
	for i, x := range w {
		if strings.HasPrefix(x, "#") || x == "|" || x == ">" || x == ">>" || x == "&&" || x == "||" || x == ";" {
			return w[:i], nil
		}
	}
	return w, nil
}

// runStep runs one shown command in the current directory and returns what
// a terminal would show and the exit code. lastCode is the previous
// command's exit code, for echo $?.
func runStep(s doccheck.Step, lastCode int) (string, int, error) {
	args, err := words(s.Command)
	if err != nil {
		return "", 0, err
	}
	switch {
	case len(args) == 0: // a comment
		return "", lastCode, nil
	case args[0] == "docscore":
		var out bytes.Buffer
		env := cli.Env{
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out,
			Getenv: func(string) string { return "" }, Context: context.Background(),
		}
		code := cli.Main(args[1:], env)
		return out.String(), code, nil
	case len(args) == 2 && args[0] == "echo" && args[1] == "$?":
		return fmt.Sprintln(lastCode), 0, nil
	case len(args) == 2 && args[0] == "cd":
		if filepath.IsAbs(args[1]) || strings.HasPrefix(filepath.Clean(args[1]), "..") {
			return "", 0, fmt.Errorf("%q: cd only into the repository's folders", s.Command)
		}
		return "", 0, os.Chdir(args[1])
	case len(args) == 2 && args[0] == "cat":
		data, err := os.ReadFile(args[1])
		if err != nil {
			return err.Error() + "\n", 1, nil
		}
		return string(data), 0, nil
	}
	return "", 0, fmt.Errorf("%q: a console block may show docscore …, echo $? or cat FILE; show other commands in a sh block", s.Command)
}

// TestConsoleExamples runs every ```console block of README.md and
// docs/*.md through the command line, in-process, from a folder that shows
// the repository's files, and compares each command's output with the
// lines shown under it (a "…" line stands for any number of lines). The
// blocks of one file share their folder, in order, so a later block may
// read what an earlier one wrote.
func TestConsoleExamples(t *testing.T) {
	root := repoRoot(t)
	ran := 0
	for _, name := range docFiles(t, root) {
		var dir string
		for _, b := range doccheck.Blocks(readDoc(t, root, name)) {
			if b.Info != "console" {
				continue
			}
			if dir == "" {
				dir = workDir(t, root)
			}
			t.Run(fmt.Sprintf("%s:%d", name, b.Line), func(t *testing.T) {
				steps, err := doccheck.ParseConsole(b)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				t.Chdir(dir)
				last := 0
				for _, s := range steps {
					got, code, err := runStep(s, last)
					if err != nil {
						t.Fatalf("%s:%d: %v", name, s.Line, err)
					}
					last = code
					ran++
					if ok, bad := doccheck.MatchOutput(s.Want, doccheck.Lines(got)); !ok {
						t.Errorf("%s:%d: $ %s\nthe output no longer matches the shown line %d (line %d of %s)\n--- shown\n%s\n--- printed (exit %d)\n%s",
							name, s.Line, s.Command, bad, s.Line+bad, name, strings.Join(s.Want, "\n"), code, got)
					}
				}
			})
		}
	}
	if ran == 0 {
		t.Error("no console example ran")
	}
	t.Logf("%d commands run", ran)
}

// commandLines returns the command lines of a block of shell text: a
// trailing backslash continues a line, a leading "$ " is dropped, and
// leading VAR=value assignments are dropped. Lines not starting with
// docscore are left out.
func commandLines(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i]), "$ "))
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, "\\") + " " + strings.TrimSpace(lines[i])
		}
		for {
			first, rest, _ := strings.Cut(line, " ")
			if k := strings.Index(first, "="); k <= 0 || strings.ContainsAny(first[:k], "-'\"") {
				break
			}
			line = strings.TrimSpace(rest)
		}
		if strings.HasPrefix(line, "docscore ") {
			out = append(out, line)
		}
	}
	return out
}

// checkCommandLine parses a docscore command line against a fresh command
// tree without running it: the command must exist and not be a group, its
// flags must exist and take the values given, and its arguments must be
// accepted. It returns the command's path.
func checkCommandLine(line string) (string, error) {
	args, err := words(line)
	if err != nil {
		return "", err
	}
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	root := cli.NewRoot(&env)
	c, rest, err := root.Find(args[1:])
	if err != nil {
		return "", err
	}
	if c.HasSubCommands() || c == root {
		return "", fmt.Errorf("%q names no command", c.CommandPath())
	}
	if err := c.ParseFlags(rest); err != nil {
		return "", fmt.Errorf("%s: %v", c.CommandPath(), err)
	}
	if err := c.ValidateArgs(c.Flags().Args()); err != nil {
		return "", fmt.Errorf("%s: %v", c.CommandPath(), err)
	}
	return c.CommandPath(), nil
}

// TestShExamples parses every docscore command shown in a ```sh block of
// README.md and docs/*.md (commands that are shown but not run: they need
// a network, a model or a build) against the command tree.
func TestShExamples(t *testing.T) {
	root := repoRoot(t)
	for _, name := range docFiles(t, root) {
		for _, b := range doccheck.Blocks(readDoc(t, root, name)) {
			if b.Info != "sh" {
				continue
			}
			for _, line := range commandLines(b.Lines) {
				if _, err := checkCommandLine(line); err != nil {
					t.Errorf("%s:%d: %s\n%v", name, b.Line, line, err)
				}
			}
		}
	}
}

// TestHelpExamples parses every docscore line of every command's Example
// (what --help shows) against the command tree: the example must name that
// command, with flags it has.
func TestHelpExamples(t *testing.T) {
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	checked := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, line := range commandLines(strings.Split(c.Example, "\n")) {
			path, err := checkCommandLine(line)
			switch {
			case err != nil:
				t.Errorf("%s --help, Example: %s\n%v", c.CommandPath(), line, err)
			case path != c.CommandPath():
				t.Errorf("%s --help, Example: %s\nruns %s instead", c.CommandPath(), line, path)
			}
			checked++
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cli.NewRoot(&env))
	if checked == 0 {
		t.Error("no Example line found")
	}
	t.Logf("%d Example lines parsed", checked)
}
