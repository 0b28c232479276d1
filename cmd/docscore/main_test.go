package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// TestMain runs the command itself when the test binary is started with
// DOCSCORE_RUN_MAIN=1: the tests below signal a real process.
func TestMain(m *testing.M) {
	if os.Getenv("DOCSCORE_RUN_MAIN") == "1" {
		os.Args = append([]string{"docscore"}, os.Args[1:]...)
		os.Exit(run())
	}
	os.Exit(m.Run())
}

// TestInterruptLeavesNoReport sends SIGINT (Ctrl-C) to a docscore
// scoring a runs file that is still arriving on its standard input:
// it exits 130, and neither its --out file nor a temporary file is left
// in the folder.
func TestInterruptLeavesNoReport(t *testing.T) {
	dir := t.TempDir()
	c := tabulartest.New(tabulartest.Large(100000, 3))
	var gtArgs []string
	for _, f := range c.GT {
		p := filepath.Join(dir, f.Name)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		gtArgs = append(gtArgs, "--gt", p)
	}
	for _, format := range []string{"json", "csv"} {
		out := filepath.Join(dir, "report."+format)
		cmd := exec.Command(os.Args[0], append([]string{"score", "tabular", "--runs", "-", "--format", format, "--jobs", "2", "--out", out}, gtArgs...)...)
		cmd.Env = append(os.Environ(), "DOCSCORE_RUN_MAIN=1")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Some thousands of images, then the pipe stays open: mid-run.
		pr, pw := io.Pipe()
		go func() {
			_, err := c.WriteRuns(pw, tabulartest.RunsOptions{Images: 3000})
			pw.CloseWithError(err)
		}()
		if _, err := io.Copy(stdin, pr); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		var werr error
		select {
		case werr = <-waited:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%s: still running 20 s after SIGINT", format)
		}
		stdin.Close()
		var ee *exec.ExitError
		if !errors.As(werr, &ee) || ee.ExitCode() != 130 {
			t.Errorf("%s: after SIGINT: %v, stderr %q; want exit status 130", format, werr, stderr.String())
		}
		if !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("%s: stderr %q; want the interruption said", format, stderr.String())
		}
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if got := fmt.Sprint(names); strings.Contains(got, "report") {
			t.Errorf("%s: the folder holds %s after SIGINT; want no report nor temporary file", format, got)
		}
	}
}
