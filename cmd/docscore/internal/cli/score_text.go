package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/textapi"
	"github.com/docscore/docscore/scoring/pagetext"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/stats"
)

type scoreTextOptions struct {
	gt, ocr, runs    string
	model, phase     string
	level, normalize string
	format, out      string
	bootstrap        int
	ciLevel          float64
	seed             uint64
}

func init() {
	register("score", "text", func(env *Env) *cobra.Command {
		var o scoreTextOptions
		c := &cobra.Command{
			Use:   "text --gt FILE|DIR (--ocr FILE|DIR | --runs RUNS.jsonl)",
			Short: "Score OCR text against ground truth: CER, WER, bag of words, confusions (dinglehopper's definitions)",
			Long: `Score the text an OCR engine read against its ground truth (SPEC section G),
as OCR-D's dinglehopper defines it: characters are grapheme clusters, words
UAX #29 words, CER and WER Levenshtein distances over them.

Inputs are plain text (UTF-8), PAGE-XML, ALTO or hOCR, detected from the
content. --gt and --ocr each take a file (one page) or a folder, where a
page's id is its file name up to the first dot (0001.gt.txt pairs with
0001.tesseract.xml); pages without a partner are listed in the report and
on standard error. Or --runs gives a JSONL file of {"model", "phase", "run",
"page", "text"} records, read as a stream, so that many models and phases
are scored in one report.

Each model and phase is a cell: its micro CER and WER (Σ edits ÷ Σ
ground-truth units) with the macro mean of the pages' rates beside them,
bag-of-words precision, recall and F1, bootstrap intervals with the page as
the unit, and its 50 most frequent character and word confusions.
"docscore compare" compares two such reports page by page.

A page whose ground truth is empty has no CER or WER (null, with a warning)
unless its OCR is empty too; its edits still count in its cell.`,
			Example: `  docscore score text --gt gt/ --ocr tesseract/ --format md
  docscore score text --gt page.gt.xml --ocr page.alto.xml
  docscore score text --gt gt/ --runs runs.jsonl --out text-report.json`,
			Args: cobra.NoArgs,
			RunE: func(c *cobra.Command, args []string) error {
				return runScoreText(env.Context, env, o)
			},
		}
		f := c.Flags()
		f.StringVar(&o.gt, "gt", "", "ground truth: a page file or a folder of them (required)")
		f.StringVar(&o.ocr, "ocr", "", "OCR output: a page file or a folder of them")
		f.StringVar(&o.runs, "runs", "", `a JSONL file of {"model", "phase", "run", "page", "text"} records, or - for standard input`)
		bindOptions(f, textapi.ScoreTextOperation(), map[string]any{
			"model": &o.model, "phase": &o.phase, "level": &o.level, "normalize": &o.normalize, "format": &o.format,
			"bootstrap": &o.bootstrap, "ci_level": &o.ciLevel, "seed": &o.seed,
		})
		f.StringVar(&o.out, "out", "", "write the report to this file instead of standard output")
		_ = c.MarkFlagRequired("gt")
		return c
	})
}

func runScoreText(ctx context.Context, env *Env, o scoreTextOptions) error {
	op := textapi.ScoreTextOperation()
	if err := flagError(op.CheckFormat(o.format)); err != nil {
		return err
	}
	switch {
	case o.ocr == "" && o.runs == "":
		return usageError("expected --ocr (a page file or folder) or --runs (a JSONL file)")
	case o.ocr != "" && o.runs != "":
		return usageError("--ocr and --runs both given: expected one of them")
	}
	gt, err := readPages(env, "--gt", o.gt)
	if err != nil {
		return err
	}
	// Options at their defaults are left out, as a request to the API
	// leaves them out, so that the provenance is the same bytes.
	orDefault := func(v, def string) string {
		if v == def {
			return ""
		}
		return v
	}
	req := &textapi.TextRequest{GT: gt, Level: orDefault(o.level, "region"), Normalize: orDefault(o.normalize, "sbb"),
		Format: o.format, IntervalOptions: intervalOptions(o.bootstrap, o.ciLevel, o.seed)}
	if o.bootstrap == stats.DefaultReplicates {
		req.Bootstrap = nil
	}
	if o.ciLevel == stats.DefaultLevel {
		req.CILevel = nil
	}
	if o.seed == 0 {
		req.Seed = nil
	}
	if o.runs != "" {
		return streamScoreText(ctx, env, o, req)
	}
	req.Model, req.Phase = orDefault(o.model, "ocr"), orDefault(o.phase, "default")
	if req.OCR, err = readPages(env, "--ocr", o.ocr); err != nil {
		return err
	}
	rep, err := textapi.Report(ctx, req, nil)
	if err != nil {
		return interrupted(flagError(err))
	}
	warnText(env, rep)
	var b bytes.Buffer
	if err := textapi.Write(&b, rep, o.format); err != nil {
		return err
	}
	out := b.Bytes()
	if o.format == "json" {
		// The operation's provenance (SPEC F.8), as Run stamps it for
		// the other hosts.
		p, err := op.ProvenanceOf(req)
		if err != nil {
			return err
		}
		if out, err = provenance.Append(out, p); err != nil {
			return err
		}
	}
	return writeOutput(env, "--out", o.out, out)
}

// streamScoreText scores --runs as it reads it (textapi.StreamText) and
// writes the report as it goes, the JSON's rows spooled to a temporary
// file until its cells are known: memory does not grow with the runs
// file's lines, and Ctrl-C stops it in any phase (exit 130, no file).
func streamScoreText(ctx context.Context, env *Env, o scoreTextOptions, req *textapi.TextRequest) error {
	r, size, closeRuns, err := openInput(env, "--runs", o.runs)
	if err != nil {
		return err
	}
	defer closeRuns()
	// The runs stream through the scorer; their hash and size for the
	// provenance are taken on the way.
	hash := sha256.New()
	var runBytes int64
	runs := io.TeeReader(r, writerFunc(func(p []byte) (int, error) {
		runBytes += int64(len(p))
		return hash.Write(p)
	}))
	runsFile := &api.File{Name: runsName(o.runs)}
	req.Runs = runsFile
	var so pagetext.StreamOptions
	if o.format == "json" {
		// The operation's provenance (SPEC F.8), as Run stamps it for the
		// other hosts, written once the runs are read: the streamed runs
		// file is described by what went through the scorer.
		so.Tail = func(*pagetext.Report) ([]byte, error) {
			req.Runs = nil
			p, err := textapi.ScoreTextOperation().ProvenanceOf(req)
			req.Runs = runsFile
			if err != nil {
				return nil, err
			}
			p.Inputs = append(p.Inputs, provenance.Input{Role: "runs", Name: provenance.Name(runsFile.Name),
				Bytes: runBytes, SHA256: hex.EncodeToString(hash.Sum(nil))})
			return provenance.Tail(p)
		}
	}
	var rep *pagetext.Report
	err = streamReport(env, runs, size, o.out, "lines", func(runs io.Reader, out io.Writer, s streamParts) error {
		so.Progress, so.Spool = s.progress, s.spool
		var err error
		rep, err = textapi.StreamText(ctx, req, runs, out, so)
		return err
	})
	if err != nil {
		return interrupted(flagError(err))
	}
	warnText(env, rep)
	return nil
}

// warnText tells about the unpaired pages and the report's warnings.
func warnText(env *Env, rep *pagetext.Report) {
	for _, id := range rep.Unpaired.GTOnly {
		fmt.Fprintf(env.Stderr, "docscore: warning: ground-truth page %q has no OCR\n", id)
	}
	for _, id := range rep.Unpaired.OCROnly {
		fmt.Fprintf(env.Stderr, "docscore: warning: OCR page %q has no ground truth\n", id)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(env.Stderr, "docscore: warning: %s\n", w)
	}
}

// writerFunc is a function as an io.Writer.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// readPages reads the pages a flag names: a file, standard input ("-"),
// or every regular file of a folder whose name does not start with a dot,
// in name order.
func readPages(env *Env, flag, path string) ([]api.File, error) {
	st, err := os.Stat(path)
	if path == "-" || err != nil || !st.IsDir() {
		f, err := readInput(env, flag, path)
		if err != nil {
			return nil, err
		}
		return []api.File{{Name: f.Name, Text: string(f.Data)}}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s: %v", flag, path, unwrapPathErr(err))}
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := os.Stat(filepath.Join(path, e.Name())); err == nil && info.Mode().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s: no page files in the folder", flag, path)}
	}
	files := make([]api.File, 0, len(names))
	for _, n := range names {
		f, err := readInput(env, flag, filepath.Join(path, n))
		if err != nil {
			return nil, err
		}
		files = append(files, api.File{Name: f.Name, Text: string(f.Data)})
	}
	return files, nil
}
