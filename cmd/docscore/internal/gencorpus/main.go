// Command gencorpus writes a generated tabular corpus for load tests and
// benchmarks (tabulartest.Large, fixed seed): gt_page_NN.csv files and
// runs.jsonl in a folder, the runs written as a stream.
//
//	go run ./cmd/docscore/internal/gencorpus -images 1000000 -pages 10 -out /tmp/million
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

func main() {
	images := flag.Int("images", 100000, "images (runs lines) to write")
	pages := flag.Int("pages", 10, "ground-truth pages")
	out := flag.String("out", "", "folder to write into (created)")
	bad := flag.String("bad-lines", "", "comma-separated images (0-based) before which a malformed line is written")
	responses := flag.Bool("responses", true, "write one image in five as a raw model response")
	flag.Parse()
	if err := run(*images, *pages, *out, *bad, *responses); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}

func run(images, pages int, out, bad string, responses bool) error {
	if out == "" || images < 1 || pages < 1 {
		return fmt.Errorf("expected -out, -images ≥ 1 and -pages ≥ 1")
	}
	o := tabulartest.RunsOptions{Images: images, Responses: responses}
	for _, s := range strings.Split(bad, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("-bad-lines: %q is not a number", s)
		}
		o.BadLines = append(o.BadLines, n)
	}
	if err := os.MkdirAll(filepath.Join(out, "gt"), 0o755); err != nil {
		return err
	}
	c := tabulartest.New(tabulartest.Large(images, pages))
	for _, f := range c.GT {
		if err := os.WriteFile(filepath.Join(out, "gt", f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	f, err := os.Create(filepath.Join(out, "runs.jsonl"))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	lines, err := c.WriteRuns(w, o)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d lines (%d images), %d ground-truth pages in %s\n", filepath.Join(out, "runs.jsonl"), lines, images, pages, filepath.Join(out, "gt"))
	return nil
}
