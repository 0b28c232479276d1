// Command gencorpus writes a generated tabular corpus for load tests and
// benchmarks (tabulartest.Large, fixed seed): gt_page_NN.csv files and
// runs.jsonl in a folder, the runs written as a stream.
//
//	go run ./cmd/docscore/internal/gencorpus -images 1000000 -pages 10 -out /tmp/million
//
// With -kind receipts it writes a receipts run instead (receiptstest,
// fixed seed): -samples CORD-style references into refs/ (the bundled
// sample's, repeated under new names: 1,000 by default, CORD-v2's size)
// and run.jsonl of -records records over them (records/samples phases),
// with failures and -bad-lines malformed lines.
//
//	go run ./cmd/docscore/internal/gencorpus -kind receipts -records 1000000 -out /tmp/million-receipts
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptstest"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

func main() {
	images := flag.Int("images", 100000, "images (runs lines) to write")
	pages := flag.Int("pages", 10, "ground-truth pages")
	out := flag.String("out", "", "folder to write into (created)")
	bad := flag.String("bad-lines", "", "comma-separated images (0-based) before which a malformed line is written")
	responses := flag.Bool("responses", true, "write one image in five as a raw model response")
	kind := flag.String("kind", "tabular", "what to write: tabular or receipts")
	records := flag.Int("records", 100000, "receipts: measured request records to write")
	samples := flag.Int("samples", 1000, "receipts: references (the bundled ones repeated under new names)")
	flag.Parse()
	if *kind == "receipts" {
		if err := runReceipts(*records, *samples, *out, *bad); err != nil {
			fmt.Fprintln(os.Stderr, "gencorpus:", err)
			os.Exit(1)
		}
		return
	}
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
	var err error
	if o.BadLines, err = badLines(bad); err != nil {
		return err
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
	lines, err := writeFile(filepath.Join(out, "runs.jsonl"), func(w io.Writer) (int, error) { return c.WriteRuns(w, o) })
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d lines (%d images), %d ground-truth pages in %s\n", filepath.Join(out, "runs.jsonl"), lines, images, pages, filepath.Join(out, "gt"))
	return nil
}

// badLines parses -bad-lines.
func badLines(bad string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(bad, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("-bad-lines: %q is not a number", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// writeFile writes a file through write, buffered.
func writeFile(path string, write func(io.Writer) (int, error)) (int, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	lines, err := write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return lines, err
}

// runReceipts writes samples references, the bundled ones in turn each
// under a new name (gen-00000.json, …: a file's stem is its sample id),
// into out/refs and a run of records over them into out/run.jsonl.
func runReceipts(records, samples int, out, bad string) error {
	if out == "" || records < 1 || samples < 1 {
		return fmt.Errorf("expected -out, -records ≥ 1 and -samples ≥ 1")
	}
	o := receiptstest.Options{Records: records, Seed: 1}
	var err error
	if o.BadLines, err = badLines(bad); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "refs"), 0o755); err != nil {
		return err
	}
	entries, err := fs.ReadDir(sample.Receipts, "receipts/refs")
	if err != nil {
		return err
	}
	var bundled [][]byte
	for _, e := range entries {
		data, err := fs.ReadFile(sample.Receipts, "receipts/refs/"+e.Name())
		if err != nil {
			return err
		}
		bundled = append(bundled, data)
	}
	var refs receiptsread.References
	for i := range samples {
		data := bundled[i%len(bundled)]
		path := filepath.Join(out, "refs", fmt.Sprintf("gen-%05d.json", i))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		r, err := receiptsread.ParseReferences(path, data, receiptsread.ParseOptions{})
		if err != nil {
			return err
		}
		refs = append(refs, r...)
	}
	runPath := filepath.Join(out, "run.jsonl")
	lines, err := writeFile(runPath, func(w io.Writer) (int, error) { return receiptstest.WriteRun(w, refs, o) })
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d lines (%d records over %d references, %d phases), references in %s\n", runPath, lines,
		receiptstest.Phases(records, len(refs))*len(refs), len(refs), receiptstest.Phases(records, len(refs)), filepath.Join(out, "refs"))
	return nil
}
