package cli

import (
	"fmt"
	"os"
	"path/filepath"
)

// named is a file a command line names, and the flag that names it
// ("--out", "BASE.json").
type named struct{ flag, path string }

// notOverInputs refuses (exit 2) a command line where an output is the
// same file as an input, or as another output: writing the report would
// replace the data it is computed from (score tabular --runs r.jsonl
// --out r.jsonl), or one report the other. Files are compared by device
// and inode (os.SameFile), so a hard link or a symbolic link to an input
// is caught as well as the same name. An output that does not exist yet,
// or is not a regular file (/dev/null, a FIFO: written through, never
// replaced), is never the same file; an input "-" is standard input, a
// file when the shell redirected one; an input directory stands for the
// files in it.
func notOverInputs(env *Env, outputs, inputs []named) error {
	type seen struct {
		named
		fi os.FileInfo
	}
	var ins []seen
	for _, in := range inputs {
		if in.path == "" {
			continue
		}
		if in.path == "-" {
			if f, ok := env.Stdin.(*os.File); ok {
				if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
					ins = append(ins, seen{named{in.flag, "- (standard input)"}, fi})
				}
			}
			continue
		}
		fi, err := os.Stat(in.path)
		if err != nil {
			continue // the read names the problem
		}
		if !fi.IsDir() {
			ins = append(ins, seen{in, fi})
			continue
		}
		entries, err := os.ReadDir(in.path)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := filepath.Join(in.path, e.Name())
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				ins = append(ins, seen{named{in.flag, p}, fi})
			}
		}
	}
	var outs []seen
	for _, out := range outputs {
		if out.path == "" || out.path == "-" {
			continue
		}
		fi, err := os.Stat(out.path)
		if err != nil {
			// Not there yet: two outputs of one name are still one file.
			for _, o := range outs {
				if o.fi == nil && sameName(o.path, out.path) {
					return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s is the same file as %s %s: give each output its own file",
						out.flag, out.path, o.flag, o.path)}
				}
			}
			outs = append(outs, seen{out, nil})
			continue
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		for _, in := range ins {
			if os.SameFile(fi, in.fi) {
				return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s is the same file as the input %s %s: not replacing an input; write the output elsewhere",
					out.flag, out.path, in.flag, in.path)}
			}
		}
		for _, o := range outs {
			if o.fi != nil && os.SameFile(fi, o.fi) {
				return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s is the same file as %s %s: give each output its own file",
					out.flag, out.path, o.flag, o.path)}
			}
		}
		outs = append(outs, seen{out, fi})
	}
	return nil
}

// flagged names each path with one flag.
func flagged(flag string, paths ...string) []named {
	var n []named
	for _, p := range paths {
		n = append(n, named{flag, p})
	}
	return n
}

// sameName reports whether a and b name one path once made absolute.
func sameName(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
