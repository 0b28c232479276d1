package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/docscore/docscore/cmd/docscore/internal/cord"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
	"github.com/spf13/cobra"
)

// receiptsMetrics are the metric names --fail-under accepts for receipts,
// each read from the primary phase.
var receiptsMetrics = map[string]func(p *receiptsreport.Phase) *float64{
	"rougeL":  func(p *receiptsreport.Phase) *float64 { return p.RougeLF1Mean },
	"numeric": func(p *receiptsreport.Phase) *float64 { return p.NumericRecall },
}

type scoreReceiptsOptions struct {
	refs, run       string
	allowIncomplete bool
	readingOrder    bool
	skipBadLines    bool
	format, out     string
	failUnder       string
	bootstrap       int
	ciLevel         float64
	seed            uint64
	jobs            int
}

func init() {
	register("score", "receipts", func(env *Env) *cobra.Command {
		var o scoreReceiptsOptions
		c := &cobra.Command{
			Use:   "receipts --refs DIR|FILE --run RUN.jsonl",
			Short: "Score receipt OCR against CORD-v2 references (ROUGE-L, numeric-string recall)",
			Long: `Score a pilot run file against CORD-v2 references (SPEC section B).

References (--refs): a CORD annotation JSON file (the ground_truth object, or
an object with a ground_truth member as object or JSON string), a directory
of them, a JSONL of {"sample_id", "reference"}, or the Hugging Face
naver-clova-ix/cord-v2 parquet files (a file or a directory of them).

Only requests with status ok and finish reason stop contribute their text;
every other request is scored as an empty prediction. Warmups are never
scored; phases are reported separately, c1 being the primary observation.
A run whose planned phase/sample pairs are not each recorded exactly once is
refused (exit 2) unless --allow-incomplete is given.

--reading-order builds the reference text in reading order (rows by row_id,
rows top to bottom, words left to right) instead of annotation order: a
different protocol, whose scores are not comparable with the default's.

--fail-under takes rougeL (mean page F1) and numeric (pooled numeric
recall), checked on the primary phase c1 (on every phase when there is no c1).

Large runs: the run file is read as a stream and scored on --jobs cores
(default: the number of CPUs), with the same bytes out, in memory that
grows only by a few bytes per planned pair (and, with intervals, by the
48 bytes each page contributes to its phase's bootstrap). Progress goes to
standard error (a bar on a terminal, a line every 5 s otherwise). Ctrl-C
exits 130 and leaves no --out file (it is written under a temporary name
and renamed at the end). The page rows wait in a temporary file until the
summaries are known.`,
			Example: `  docscore score receipts --refs refs/ --run run.jsonl --format md
  docscore score receipts --refs test-00000-of-00001.parquet --run run.jsonl --out report.json
  docscore score receipts --refs refs.jsonl --run run.jsonl --allow-incomplete --fail-under rougeL=0.5,numeric=0.8`,
			Args: cobra.NoArgs,
			RunE: func(c *cobra.Command, args []string) error {
				return runScoreReceipts(env.Context, env, o)
			},
		}
		f := c.Flags()
		f.StringVar(&o.refs, "refs", "", "CORD references: a .json, .jsonl or .parquet file, or a directory of them (required)")
		f.StringVar(&o.run, "run", "", "the pilot run file (JSONL), or - for standard input (required)")
		bindOptions(f, receiptsapi.ScoreReceiptsOperation(), map[string]any{
			"allow_incomplete": &o.allowIncomplete, "reading_order": &o.readingOrder, "skip_bad_lines": &o.skipBadLines,
			"format": &o.format, "bootstrap": &o.bootstrap, "ci_level": &o.ciLevel, "seed": &o.seed,
		})
		f.StringVar(&o.out, "out", "", "write the report to this file instead of standard output")
		f.StringVar(&o.failUnder, "fail-under", "", "exit 3 when a primary-phase score is below its floor, e.g. rougeL=0.5,numeric=0.8")
		f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "records scored at once (default: the number of CPUs)")
		_ = c.MarkFlagRequired("refs")
		_ = c.MarkFlagRequired("run")
		return c
	})
}

func runScoreReceipts(ctx context.Context, env *Env, o scoreReceiptsOptions) error {
	op := receiptsapi.ScoreReceiptsOperation()
	if err := flagError(op.CheckFormat(o.format)); err != nil {
		return err
	}
	thresholds, err := parseThresholds(o.failUnder)
	if err != nil {
		return err
	}
	for _, name := range thresholds.Names() {
		if receiptsMetrics[name] == nil {
			return usageError("--fail-under: unknown metric %q: expected rougeL or numeric", name)
		}
	}
	if err := notOverInputs(env, flagged("--out", o.out), []named{{"--refs", o.refs}, {"--run", o.run}}); err != nil {
		return err
	}
	opts := receiptsread.ParseOptions{}
	if o.readingOrder {
		opts.Order = receiptsread.ReadingOrder
	}
	// The references are read here (folders and parquet files need the
	// file system); the operation parses the run and scores.
	refs, refInputs, err := cord.LoadDescribed(env.inputs(), o.refs, opts, min(max(o.jobs, 1), maxJobs))
	if err != nil {
		return interrupted(err)
	}
	if err := checkJobs(o.jobs); err != nil {
		return err
	}
	// Streamed: the run file is read as it is scored.
	run, size, closeRun, err := openInput(env, "--run", o.run)
	if err != nil {
		return err
	}
	defer closeRun()
	req := &receiptsapi.ReceiptsRequest{References: refs, ReferenceInputs: refInputs, Run: api.File{Name: runsName(o.run)}, AllowIncomplete: o.allowIncomplete,
		ReadingOrder: o.readingOrder, SkipBadLines: o.skipBadLines, Format: o.format,
		IntervalOptions: intervalOptions(o.bootstrap, o.ciLevel, o.seed)}
	var rep *receiptsapi.Report
	err = streamReport(env, run, size, o.out, "lines", func(run io.Reader, out io.Writer, s streamParts) error {
		var err error
		rep, err = receiptsapi.StreamReceipts(ctx, req, run, out, receipts.StreamOptions{Jobs: o.jobs, Progress: s.progress, Spool: s.spool})
		return err
	})
	var incomplete *receiptsapi.IncompleteError
	if errors.As(err, &incomplete) {
		warnSkipped(env, incomplete.Skipped)
		return &ExitError{Code: ExitInput, Err: incomplete.Allowing("--allow-incomplete").Cause}
	}
	if err != nil {
		return interrupted(flagError(err))
	}
	warnSkipped(env, rep.Skipped)
	if rep.Incomplete {
		fmt.Fprintf(env.Stderr, "docscore: warning: run %q is incomplete (%d missing, %d duplicated pairs); the report is labelled incomplete\n",
			rep.RunID, rep.MissingCount, len(rep.Duplicated))
	}
	return checkReceiptsThresholds(rep.Report, thresholds)
}

// warnSkipped tells about the run lines --skip-bad-lines left out.
func warnSkipped(env *Env, skipped []*inputerr.Error) {
	for _, s := range skipped {
		fmt.Fprintf(env.Stderr, "docscore: warning: skipped %s\n", s)
	}
}

// readRun reads and parses the run file, or standard input for "-".
func readRun(env *Env, path string, opts runfile.ReadOptions) (*runfile.Run, error) {
	f, err := readInput(env, "--run", path)
	if err != nil {
		return nil, err
	}
	return runfile.Read(bytes.NewReader(f.Data), f.Name, opts)
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkReceiptsThresholds applies --fail-under to the primary phase, or to
// every phase when the run has no primary phase.
func checkReceiptsThresholds(rep *receiptsreport.Report, t Thresholds) error {
	if len(t) == 0 {
		return nil
	}
	var phases []*receiptsreport.Phase
	for i := range rep.Phases {
		if rep.Phases[i].Primary {
			phases = append(phases, &rep.Phases[i])
		}
	}
	if len(phases) == 0 {
		for i := range rep.Phases {
			phases = append(phases, &rep.Phases[i])
		}
	}
	var failures []string
	for _, p := range phases {
		for _, name := range t.Names() {
			v := receiptsMetrics[name](p)
			switch {
			case v == nil:
				failures = append(failures, fmt.Sprintf("%s %s: no value (no page to score) < %g", p.Phase, name, t[name]))
			case *v < t[name]:
				failures = append(failures, fmt.Sprintf("%s %s = %.4f < %g", p.Phase, name, *v, t[name]))
			}
		}
	}
	if len(failures) > 0 {
		return thresholdFailure(failures)
	}
	return nil
}
