package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlantedFiles plants, one at a time, each kind of file a clone
// should not carry into a fresh repository, and each kind it may carry,
// and checks what check says of the index.
func TestPlantedFiles(t *testing.T) {
	big := bytes.Repeat([]byte("x"), MaxBytes+1)
	elf := append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 100)...)
	pe := make([]byte, 256)
	copy(pe, "MZ")
	binary.LittleEndian.PutUint32(pe[0x3c:], 0x80)
	copy(pe[0x80:], "PE\x00\x00")
	machO := append([]byte{0xcf, 0xfa, 0xed, 0xfe}, make([]byte, 60)...)
	tests := []struct {
		name string
		path string
		data []byte
		exec bool
		want string // a part of the one problem expected; "" for none
	}{
		{"a small text file", "README.md", []byte("# hi\n"), false, ""},
		{"a file of exactly 5 MB", "data/five.bin", big[:MaxBytes], false, ""},
		{"a file over 5 MB", "docscore.json", big, false, "docscore.json: 5242881 bytes, over the 5 MB"},
		{"a file over 5 MB in testdata", "pkg/testdata/big.jsonl", big, false, ""},
		{"a file over 5 MB beside testdata", "pkg/testdata.jsonl", big, false, "over the 5 MB"},
		{"an ELF binary, not executable", "docscore", elf, false, "docscore: a compiled ELF executable"},
		{"an ELF binary, executable", "bin/docscore", elf, true, "a compiled ELF executable"},
		{"an ELF binary in testdata", "x/testdata/tool", elf, true, "a compiled ELF executable"},
		{"a Windows binary", "docscore.exe", pe, false, "a compiled PE executable"},
		{"a macOS binary", "docscore-darwin", machO, false, "a compiled Mach-O executable"},
		{"an executable script", "scripts/run.sh", []byte("#!/bin/sh\necho hi\n"), true, ""},
		{"an executable text file", "notes.txt", []byte("not a script\n"), true, "notes.txt: executable but not a script"},
		{"text that starts with MZ", "MZ.md", append([]byte("MZ is a prefix"), bytes.Repeat([]byte(" "), 100)...), false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			gitIn(t, dir, "init", "-q")
			write(t, dir, "go.mod", []byte("module x\n"), false)
			write(t, dir, tt.path, tt.data, tt.exec)
			gitIn(t, dir, "add", "-A")
			if tt.exec {
				// Also where the file system keeps no executable bit.
				gitIn(t, dir, "update-index", "--chmod=+x", tt.path)
			}
			problems, n, err := check(dir)
			if err != nil {
				t.Fatal(err)
			}
			if n != 2 {
				t.Errorf("read %d files, want 2", n)
			}
			switch {
			case tt.want == "" && len(problems) != 0:
				t.Errorf("problems %q, want none", problems)
			case tt.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], tt.want)):
				t.Errorf("problems %q, want one containing %q", problems, tt.want)
			}
		})
	}
}

// TestReadsTheIndex: a file removed from the index (git rm --cached, as
// when a binary is untracked) is no longer a problem, though it stays on
// disk.
func TestReadsTheIndex(t *testing.T) {
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	write(t, dir, "docscore", append([]byte("\x7fELF"), make([]byte, 10)...), true)
	gitIn(t, dir, "add", "-A")
	if p, _, err := check(dir); err != nil || len(p) != 1 {
		t.Fatalf("tracked binary: %q %v, want one problem", p, err)
	}
	gitIn(t, dir, "rm", "-q", "--cached", "docscore")
	if p, n, err := check(dir); err != nil || len(p) != 0 || n != 0 {
		t.Fatalf("untracked binary: %q %d %v, want no problem and no file", p, n, err)
	}
}

// TestThisRepository: the repository itself passes (make vet runs this).
func TestThisRepository(t *testing.T) {
	problems, n, err := check(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 0 || n < 100 {
		t.Fatalf("%d files, problems %q", n, problems)
	}
}

// TestNotARepository: outside git, check fails with git's reason.
func TestNotARepository(t *testing.T) {
	if _, _, err := check(t.TempDir()); err == nil || !strings.Contains(err.Error(), "ls-files") {
		t.Fatalf("err %v, want git ls-files' failure", err)
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func write(t *testing.T, dir, name string, data []byte, exec bool) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	mode := os.FileMode(0o644)
	if exec {
		mode = 0o755
	}
	if err := os.WriteFile(p, data, mode); err != nil {
		t.Fatal(err)
	}
}
