// Command benchreference times docscore against the reference scorer of
// scripts/reference/venice_eval.py (the Python, standard-library scorer
// written from seed 000's description, as its users run theirs) on the
// same corpus, whole process each, in turn: "make bench-reference" runs
//
//	go run ./scripts/benchreference -docscore bin/docscore -gt DIR/gt \
//	    -runs DIR/runs.jsonl -rules sample/tabular/EQUIVALENCES.md [-n 3]
//
// docscore scores with --jobs 1 --bootstrap 0 (one core, no intervals:
// the reference computes none); each round runs the reference, then
// docscore. It first checks that both give the same numbers (every cell's
// counts exactly, its scores within 1e-9), then prints each one's median
// wall and CPU time and the ratio. Issue 34's target is 100×. docscore's
// JSON lists every image's pairs, which the reference does not print, so
// docscore --format md (the cells table, checked to name every cell) is
// timed in the same rounds for a like-for-like ratio beside. With
// -before OLD, an earlier docscore build runs in the same rounds with the
// same arguments, and its figures are printed beside.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"sort"
	"time"
)

func main() {
	ds := flag.String("docscore", "bin/docscore", "the docscore binary")
	py := flag.String("python", "python3", "the Python interpreter")
	script := flag.String("script", "scripts/reference/venice_eval.py", "the reference scorer")
	gt := flag.String("gt", "", "ground-truth folder")
	runs := flag.String("runs", "", "runs file")
	rules := flag.String("rules", "", "rule file (optional)")
	n := flag.Int("n", 3, "rounds")
	before := flag.String("before", "", "an earlier docscore build, run in the same rounds")
	flag.Parse()
	if *gt == "" || *runs == "" || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: benchreference -gt DIR -runs FILE [-rules FILE] [-docscore BIN] [-n 3]")
		os.Exit(2)
	}
	ref := []string{*py, *script, "--gt", *gt, "--runs", *runs}
	cmd := []string{*ds, "score", "tabular", "--jobs", "1", "--bootstrap", "0", "--gt", *gt, "--runs", *runs}
	if *rules != "" {
		ref = append(ref, "--rules", *rules)
		cmd = append(cmd, "--rules", *rules)
	}
	// The reference prints the cells only; docscore's JSON lists every
	// image's pairs too (8 MB on the 450-image corpus). Its Markdown
	// report is the cells table: timed as well, for a like-for-like
	// figure beside the target's.
	summary := append(slices.Clone(cmd), "--format", "md")
	var refT, dsT, mdT, oldT []timing
	for i := 0; i < *n; i++ {
		if *before != "" {
			old, err := timed(append([]string{*before}, cmd[1:]...))
			if err != nil {
				fail(err)
			}
			oldT = append(oldT, old)
		}
		a, err := timed(ref)
		if err != nil {
			fail(err)
		}
		// The two docscore runs take turns at running first after the
		// reference (whose 5 to 10 s leave the caches cold).
		var b, c timing
		for k := range 2 {
			var err error
			if (i+k)%2 == 0 {
				b, err = timed(cmd)
			} else {
				c, err = timed(summary)
			}
			if err != nil {
				fail(err)
			}
		}
		if i == 0 {
			if err := SameCells(a.out, b.out, 1e-9); err != nil {
				fail(fmt.Errorf("the reference and docscore disagree: %w", err))
			}
			if err := SummaryNamesCells(c.out, b.out); err != nil {
				fail(fmt.Errorf("docscore's Markdown report: %w", err))
			}
			fmt.Println("same numbers: every cell's counts equal, its scores within 1e-9")
		}
		refT, dsT, mdT = append(refT, a), append(dsT, b), append(mdT, c)
	}
	fmt.Print(report(refT, dsT))
	fmt.Printf("cells only, as the reference prints them (docscore --format md): %s\n", beside(refT, mdT))
	if len(oldT) > 0 {
		fmt.Printf("before: %s %s (same rounds)\n", *before, beside(refT, oldT))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchreference:", err)
	os.Exit(1)
}

// timing is one run: its wall and CPU time (user + system) and output.
type timing struct {
	wall, cpu time.Duration
	out       []byte
}

// timed runs argv with its standard output in a temporary file, as a
// report is written (docscore ... > report.json), and reads it back once
// the process has ended: a pipe read into memory would time the reading
// too (8 MB of JSON through a pipe into a growing buffer: 15–25 ms more
// wall than to a file, against a few kilobytes for the reference).
func timed(argv []string) (timing, error) {
	f, err := os.CreateTemp("", "benchreference-*")
	if err != nil {
		return timing{}, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	c := exec.Command(argv[0], argv[1:]...)
	var errb bytes.Buffer
	c.Stdout, c.Stderr = f, &errb
	start := time.Now()
	err = c.Run()
	t := timing{wall: time.Since(start)}
	if err != nil {
		return t, fmt.Errorf("%v: %w\n%s", argv, err, errb.Bytes())
	}
	t.cpu = c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	t.out, err = os.ReadFile(f.Name())
	return t, err
}

func medianOf(ts []timing, f func(timing) time.Duration) time.Duration {
	ds := make([]time.Duration, len(ts))
	for i, t := range ts {
		ds[i] = f(t)
	}
	slices.Sort(ds)
	if len(ds)%2 == 1 {
		return ds[len(ds)/2]
	}
	return (ds[len(ds)/2-1] + ds[len(ds)/2]) / 2
}

func wallOf(t timing) time.Duration { return t.wall }
func cpuOf(t timing) time.Duration  { return t.cpu }

func report(ref, ds []timing) string {
	rw, rc, dw, dc := medianOf(ref, wallOf), medianOf(ref, cpuOf), medianOf(ds, wallOf), medianOf(ds, cpuOf)
	s := func(d time.Duration) float64 { return d.Seconds() }
	return fmt.Sprintf("reference (Python)  median %8.3f s wall %8.3f s CPU (%d runs)\n"+
		"docscore --jobs 1   median %8.3f s wall %8.3f s CPU (%d runs, interleaved)\n"+
		"ratio %.1f× wall, %.1f× CPU (target ≥ 100×)\n",
		s(rw), s(rc), len(ref), s(dw), s(dc), len(ds), s(rw)/s(dw), s(rc)/s(dc))
}

// beside is another series' medians and its ratio to the reference's,
// on one line.
func beside(ref, ds []timing) string {
	rw, rc, dw, dc := medianOf(ref, wallOf), medianOf(ref, cpuOf), medianOf(ds, wallOf), medianOf(ds, cpuOf)
	return fmt.Sprintf("median %.3f s wall %.3f s CPU: ratio %.1f× wall, %.1f× CPU", dw.Seconds(), dc.Seconds(), rw.Seconds()/dw.Seconds(), rc.Seconds()/dc.Seconds())
}

// SummaryNamesCells checks that a Markdown report (md) has a row for
// every cell of the JSON report (js): a table row starting with the
// cell's model and phase.
func SummaryNamesCells(md, js []byte) error {
	var r struct{ Cells []cell }
	if err := json.Unmarshal(js, &r); err != nil {
		return err
	}
	if len(r.Cells) == 0 {
		return errors.New("the JSON report has no cells")
	}
	for _, c := range r.Cells {
		if !bytes.Contains(md, []byte("| "+c.Model+" | "+c.Phase+" |")) {
			return fmt.Errorf("no row for model %q, phase %q", c.Model, c.Phase)
		}
	}
	return nil
}

// cell is what the two reports share of a cell.
type cell struct {
	Model, Phase                   string
	ImagesOK                       int `json:"images_ok"`
	ImagesFailed                   int `json:"images_failed"`
	Matched                        int
	NModel                         int `json:"n_model"`
	NGT                            int `json:"n_gt"`
	Precision, Recall, F1, NameCER float64
	NameCEREdits                   int `json:"name_cer_edits"`
	NameRefChars                   int `json:"name_ref_chars"`
	Fields                         map[string]struct {
		Scored int
		Sum    float64
	}
}

// SameCells compares the cells of two tabular reports (JSON): the same
// cells, the same counts, scores within tol.
func SameCells(a, b []byte, tol float64) error {
	var ra, rb struct{ Cells []cell }
	if err := json.Unmarshal(a, &ra); err != nil {
		return fmt.Errorf("the first report: %w", err)
	}
	if err := json.Unmarshal(b, &rb); err != nil {
		return fmt.Errorf("the second report: %w", err)
	}
	if len(ra.Cells) == 0 {
		return errors.New("no cells")
	}
	if len(ra.Cells) != len(rb.Cells) {
		return fmt.Errorf("%d cells against %d", len(ra.Cells), len(rb.Cells))
	}
	var errs []error
	for i, x := range ra.Cells {
		y := rb.Cells[i]
		id := x.Model + "/" + x.Phase
		if x.Model != y.Model || x.Phase != y.Phase {
			return fmt.Errorf("cell %d: %s against %s/%s", i, id, y.Model, y.Phase)
		}
		ints := [][3]any{{"images_ok", x.ImagesOK, y.ImagesOK}, {"images_failed", x.ImagesFailed, y.ImagesFailed},
			{"matched", x.Matched, y.Matched}, {"n_model", x.NModel, y.NModel}, {"n_gt", x.NGT, y.NGT},
			{"name_cer_edits", x.NameCEREdits, y.NameCEREdits}, {"name_ref_chars", x.NameRefChars, y.NameRefChars}}
		for _, c := range ints {
			if c[1] != c[2] {
				errs = append(errs, fmt.Errorf("%s %s: %v against %v", id, c[0], c[1], c[2]))
			}
		}
		for _, c := range [][3]any{{"precision", x.Precision, y.Precision}, {"recall", x.Recall, y.Recall}, {"f1", x.F1, y.F1}, {"name_cer", x.NameCER, y.NameCER}} {
			if math.Abs(c[1].(float64)-c[2].(float64)) > tol {
				errs = append(errs, fmt.Errorf("%s %s: %v against %v", id, c[0], c[1], c[2]))
			}
		}
		names := make([]string, 0, len(x.Fields))
		for f := range x.Fields {
			names = append(names, f)
		}
		sort.Strings(names)
		if len(x.Fields) != len(y.Fields) {
			errs = append(errs, fmt.Errorf("%s: %d fields against %d", id, len(x.Fields), len(y.Fields)))
		}
		for _, f := range names {
			fx, fy := x.Fields[f], y.Fields[f]
			if fx.Scored != fy.Scored || math.Abs(fx.Sum-fy.Sum) > tol {
				errs = append(errs, fmt.Errorf("%s %s: %d scored, sum %v against %d, %v", id, f, fx.Scored, fx.Sum, fy.Scored, fy.Sum))
			}
		}
	}
	return errors.Join(errs...)
}
