package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// adversarialCase is one testdata/adversarial/*.case file: a command line
// tried as a hostile user would, and what docscore must answer. The
// file is lines of "key: value" (# starts a comment):
//
//	args:    the arguments, split on spaces, run in a fresh folder
//	setup:   a sh command run there first (repeatable); $SAMPLE is the
//	         repository's sample/ folder, $EXAMPLES its examples/,
//	         $DOCSCORE the command, $ADVERSARIAL the cases' folder
//	stdin:   a file (in the folder, or /dev/zero) for standard input;
//	         "open" keeps a pipe open that never ends
//	signal:  NAME SECONDS: send the signal that long after the start
//	exit:    the exit code expected
//	stderr:  a fragment standard error must hold (repeatable)
//	within:  SECONDS the command must end in after its start (or after
//	         the signal); default 60
//	check:   a sh command run after, which must succeed (repeatable)
type adversarialCase struct {
	args, setup, stderr, check []string
	stdin, signal              string
	exit                       int
	within                     time.Duration
}

func readAdversarial(path string) (*adversarialCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &adversarialCase{exit: -1, within: 60 * time.Second}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: expected key: value", path, n)
		}
		val = strings.TrimSpace(val)
		switch key {
		case "args":
			c.args = strings.Fields(val)
		case "setup":
			c.setup = append(c.setup, val)
		case "stdin":
			c.stdin = val
		case "signal":
			c.signal = val
		case "exit":
			if c.exit, err = strconv.Atoi(val); err != nil {
				return nil, fmt.Errorf("%s:%d: exit: %v", path, n, err)
			}
		case "stderr":
			c.stderr = append(c.stderr, val)
		case "within":
			s, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: within: %v", path, n, err)
			}
			c.within = time.Duration(s * float64(time.Second))
		case "check":
			c.check = append(c.check, val)
		default:
			return nil, fmt.Errorf("%s:%d: unknown key %q", path, n, key)
		}
	}
	if c.args == nil || c.exit < 0 {
		return nil, fmt.Errorf("%s: expected args: and exit:", path)
	}
	return c, sc.Err()
}

// TestAdversarial runs every testdata/adversarial/*.case against the
// command itself (this test binary started as docscore). DOCSCORE_BIN
// runs them against another build instead, such as an older one, to
// count what it fails.
func TestAdversarial(t *testing.T) {
	files, err := filepath.Glob("testdata/adversarial/*.case")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	root, _ := filepath.Abs("../..")
	bin, env := os.Args[0], append(os.Environ(), "DOCSCORE_RUN_MAIN=1")
	if b := os.Getenv("DOCSCORE_BIN"); b != "" {
		bin = b
	}
	env = append(env, "SAMPLE="+filepath.Join(root, "sample"), "EXAMPLES="+filepath.Join(root, "examples"), "DOCSCORE="+bin,
		"ADVERSARIAL="+filepath.Join(root, "cmd", "docscore", "testdata", "adversarial"))
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".case")
		t.Run(name, func(t *testing.T) {
			c, err := readAdversarial(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			sh := func(script string) error {
				cmd := exec.Command("sh", "-ec", script)
				cmd.Dir, cmd.Env = dir, env
				if out, err := cmd.CombinedOutput(); err != nil {
					return fmt.Errorf("%s: %v\n%s", script, err, out)
				}
				return nil
			}
			for _, s := range c.setup {
				if err := sh(s); err != nil {
					t.Fatalf("setup: %v", err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), c.within+30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, c.args...)
			cmd.Dir, cmd.Env = dir, env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			switch c.stdin {
			case "":
			case "open":
				pr, pw, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer pw.Close()
				defer pr.Close()
				cmd.Stdin = pr
			default:
				p := c.stdin
				if !filepath.IsAbs(p) {
					p = filepath.Join(dir, p)
				}
				f, err := os.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				cmd.Stdin = f
			}
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			from := start
			if c.signal != "" {
				sig, after, err := parseSignal(c.signal)
				if err != nil {
					t.Fatal(err)
				}
				time.Sleep(after)
				cmd.Process.Signal(sig)
				from = time.Now()
			}
			err = cmd.Wait()
			took := time.Since(from)
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if ctx.Err() != nil {
				t.Fatalf("still running %v after the start: killed", time.Since(start))
			}
			if code != c.exit {
				t.Errorf("exit %d; want %d\nstderr: %.600s", code, c.exit, stderr.String())
			}
			if took > c.within {
				t.Errorf("took %v; want within %v", took, c.within)
			}
			for _, want := range c.stderr {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%.600s", want, stderr.String())
				}
			}
			for _, s := range c.check {
				if err := sh(s); err != nil {
					t.Errorf("check: %v", err)
				}
			}
		})
	}
}

func parseSignal(s string) (syscall.Signal, time.Duration, error) {
	name, after, _ := strings.Cut(s, " ")
	secs, err := strconv.ParseFloat(strings.TrimSpace(after), 64)
	if err != nil {
		return 0, 0, fmt.Errorf("signal %q: expected NAME SECONDS", s)
	}
	sig, ok := map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM, "SIGHUP": syscall.SIGHUP}[name]
	if !ok {
		return 0, 0, fmt.Errorf("signal %q: expected SIGINT, SIGTERM or SIGHUP", s)
	}
	return sig, time.Duration(secs * float64(time.Second)), nil
}
