// Command benchstart measures how long the docscore binary takes to start
// against a hello-world Go binary built beside it, process spawn
// included: both are run in turn (interleaved, so that a change in the
// machine's load falls on both), and the medians and their ratio are
// printed. "make bench-start" runs it on bin/docscore --version:
//
//	go run ./scripts/benchstart [-n 21] [-max-ratio 0] [-before OLD] BINARY [ARGS...]
//
// The target of issue 34 is a ratio of at most 2. With -max-ratio R it
// exits 1 when the ratio is over R. With -before OLD, an earlier build
// runs in the same rounds with the same arguments, and its median and
// ratio are printed beside.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"
)

func main() {
	n := flag.Int("n", 21, "runs of each binary")
	maxRatio := flag.Float64("max-ratio", 0, "exit 1 when docscore's median is over this many times hello-world's (0: never)")
	before := flag.String("before", "", "an earlier build of the binary, run in the same rounds for a side-by-side figure")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: benchstart [-n 21] [-max-ratio R] BINARY [ARGS...]")
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "benchstart-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchstart:", err)
		os.Exit(2)
	}
	defer os.RemoveAll(dir)
	hello, err := buildHello(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchstart:", err)
		os.Exit(2)
	}
	subjects := [][]string{flag.Args()}
	if *before != "" {
		subjects = append(subjects, append([]string{*before}, flag.Args()[1:]...))
	}
	rs, err := measure(*n, []string{hello}, subjects...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchstart:", err)
		os.Exit(2)
	}
	r := rs[0]
	fmt.Print(r)
	if len(rs) > 1 {
		fmt.Printf("before: %s median %.2f ms, ratio %.2f× (same rounds)\n", *before, float64(median(rs[1].Subject))/float64(time.Millisecond), rs[1].Ratio())
	}
	if *maxRatio > 0 && r.Ratio() > *maxRatio {
		fmt.Printf("over the target: %.2f× > %.2f×\n", r.Ratio(), *maxRatio)
		os.Exit(1)
	}
}

// helloSource is the baseline: the smallest Go program that writes a line.
const helloSource = `package main

import "os"

func main() { os.Stdout.WriteString("hello\n") }
`

// buildHello writes and builds the hello-world program in dir, with the
// go command on PATH and the flags of make build.
func buildHello(dir string) (string, error) {
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(helloSource), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644); err != nil {
		return "", err
	}
	out := filepath.Join(dir, "hello")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building hello-world: %v\n%s", err, b)
	}
	return out, nil
}

// Result holds the wall times of each run.
type Result struct {
	Base, Subject []time.Duration
}

// measure runs base and each subject n times, in turn (one round: base,
// then every subject), and returns one Result per subject, each with
// the base's times.
func measure(n int, base []string, subjects ...[]string) ([]Result, error) {
	if n < 1 {
		return nil, errors.New("-n must be at least 1")
	}
	var baseTimes []time.Duration
	subj := make([][]time.Duration, len(subjects))
	for i := 0; i < n; i++ {
		d, err := runOnce(base)
		if err != nil {
			return nil, err
		}
		baseTimes = append(baseTimes, d)
		for j, s := range subjects {
			if d, err = runOnce(s); err != nil {
				return nil, err
			}
			subj[j] = append(subj[j], d)
		}
	}
	out := make([]Result, len(subjects))
	for j := range subjects {
		out[j] = Result{Base: baseTimes, Subject: subj[j]}
	}
	return out, nil
}

// runOnce is one run's wall time, from the spawn to the wait's return,
// its output discarded.
func runOnce(argv []string) (time.Duration, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%v: %w", argv, err)
	}
	return d, nil
}

// median is the middle of ds (the mean of the two middles when even).
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Ratio is the subject's median over the baseline's.
func (r Result) Ratio() float64 {
	b := median(r.Base)
	if b == 0 {
		return 0
	}
	return float64(median(r.Subject)) / float64(b)
}

func (r Result) String() string {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return fmt.Sprintf("hello-world     median %6.2f ms (%d runs)\n%-15s median %6.2f ms (%d runs, interleaved)\nratio %.2f× (target ≤ 2×)\n",
		ms(median(r.Base)), len(r.Base), "docscore", ms(median(r.Subject)), len(r.Subject), r.Ratio())
}
