// Command checktracked fails when git tracks what a clone should not
// carry: a file over 5 MB outside a testdata/ folder, or an executable
// that is not a script (a compiled binary, whatever its mode). It reads
// the index (what the next commit holds), not the working tree, and is
// part of "make vet":
//
//	go run ./scripts/checktracked [DIR]
//
// It prints one line per offending file and exits 1 when there is one,
// 2 when git cannot be read.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"strconv"
	"strings"
)

// MaxBytes is the largest file tracked outside testdata/.
const MaxBytes = 5 << 20

// headBytes is how much of each file binaryKind sees.
const headBytes = 4096

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	problems, n, err := check(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "checktracked:", err)
		os.Exit(2)
	}
	for _, p := range problems {
		fmt.Println("checktracked:", p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
	fmt.Printf("checktracked: %d tracked files, none over %d MB outside testdata/, no binaries\n", n, MaxBytes>>20)
}

// entry is one file of the index.
type entry struct {
	mode, object, path string
}

// check lists the problems of the files git tracks in dir, and how many
// files it read.
func check(dir string) (problems []string, n int, err error) {
	out, err := git(dir, "ls-files", "-s", "-z")
	if err != nil {
		return nil, 0, err
	}
	var files []entry
	var objects bytes.Buffer
	for _, rec := range strings.Split(string(out), "\x00") {
		if rec == "" {
			continue
		}
		// "<mode> <object> <stage>\t<path>"
		meta, p, ok := strings.Cut(rec, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 {
			return nil, 0, fmt.Errorf("git ls-files -s: unexpected record %q", rec)
		}
		if fields[0] != "100644" && fields[0] != "100755" {
			continue // symbolic links and submodules hold no content here
		}
		files = append(files, entry{fields[0], fields[1], p})
		objects.WriteString(fields[1] + "\n")
	}
	// One git process streams every blob: its header, then its bytes.
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = dir
	cmd.Stdin = &objects
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, 0, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, 0, err
	}
	r := bufio.NewReaderSize(stdout, 1<<16)
	for _, f := range files {
		size, head, err := readBlob(r, f.object)
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, 0, fmt.Errorf("git cat-file %s (%s): %v %s", f.object, f.path, err, stderr.String())
		}
		problems = append(problems, judge(f, size, head)...)
	}
	if err := cmd.Wait(); err != nil {
		return nil, 0, fmt.Errorf("git cat-file: %v %s", err, stderr.String())
	}
	return problems, len(files), nil
}

// readBlob reads one answer of git cat-file --batch: the blob's size and
// its first bytes.
func readBlob(r *bufio.Reader, object string) (int64, []byte, error) {
	header, err := r.ReadString('\n')
	if err != nil {
		return 0, nil, err
	}
	fields := strings.Fields(header)
	if len(fields) != 3 || fields[0] != object || fields[1] != "blob" {
		return 0, nil, fmt.Errorf("unexpected header %q", header)
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil {
		return 0, nil, fmt.Errorf("unexpected header %q", header)
	}
	head := make([]byte, min(size, headBytes))
	if _, err := io.ReadFull(r, head); err != nil {
		return 0, nil, err
	}
	if _, err := r.Discard(int(size - int64(len(head)) + 1)); err != nil { // the rest and the newline
		return 0, nil, err
	}
	return size, head, nil
}

// judge says what is wrong with one tracked file of the given size whose
// content starts with head.
func judge(f entry, size int64, head []byte) []string {
	var out []string
	if size > MaxBytes && !inTestdata(f.path) {
		out = append(out, fmt.Sprintf("%s: %d bytes, over the %d MB a file outside testdata/ may have (build outputs belong in .gitignore)", f.path, size, MaxBytes>>20))
	}
	if kind := binaryKind(head); kind != "" {
		out = append(out, fmt.Sprintf("%s: a compiled %s executable; build outputs never enter git", f.path, kind))
	} else if f.mode == "100755" && !bytes.HasPrefix(head, []byte("#!")) {
		out = append(out, fmt.Sprintf("%s: executable but not a script (no #! line); run: git update-index --chmod=-x %s", f.path, f.path))
	}
	return out
}

// inTestdata reports whether p lies under a folder named testdata.
func inTestdata(p string) bool {
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if path.Base(d) == "testdata" {
			return true
		}
	}
	return false
}

// binaryKind names the executable format head starts with: ELF, Mach-O
// or PE; "" for anything else.
func binaryKind(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF"
	case bytes.HasPrefix(head, []byte{0xcf, 0xfa, 0xed, 0xfe}), bytes.HasPrefix(head, []byte{0xce, 0xfa, 0xed, 0xfe}),
		bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xcf}), bytes.HasPrefix(head, []byte{0xfe, 0xed, 0xfa, 0xce}):
		return "Mach-O"
	case len(head) >= 0x40 && bytes.HasPrefix(head, []byte("MZ")):
		// The PE signature's offset is at 0x3c.
		at := int(binary.LittleEndian.Uint32(head[0x3c:]))
		if at >= 0x40 && at+4 <= len(head) && string(head[at:at+4]) == "PE\x00\x00" {
			return "PE"
		}
	}
	return ""
}

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v %s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}
