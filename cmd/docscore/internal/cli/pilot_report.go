package cli

import (
	"bytes"
	"fmt"

	"github.com/docscore/docscore/cmd/docscore/internal/cord"
	"github.com/docscore/docscore/scoring/pilotreport"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/runfile"
	"github.com/spf13/cobra"
)

type pilotReportOptions struct {
	refs         string
	readingOrder bool
	skipBadLines bool
	format, out  string
}

func init() {
	register("pilot", "report", func(env *Env) *cobra.Command {
		var o pilotReportOptions
		c := &cobra.Command{
			Use:   "report RUN.jsonl",
			Short: "Report a pilot run: throughput, latency percentiles, token usage, statuses and receipt scores",
			Long: `Report a pilot run file (SPEC B.4): per phase the throughput (requests per
second over the time requests were in flight), latency p50/p90/p99/max, token
usage and status counts, beside the receipt scores of 'docscore score
receipts' (ROUGE-L, numeric-string recall; warmups never scored).

References: --refs as for 'docscore score receipts'; without it, the original
labels the run header carries (CORD annotations or plain-text references of
the dataset). Without either, the report has no scores and says why.

An incomplete run (interrupted, killed) is reported and labelled incomplete
with its unattempted phase/sample pairs; it is scored as with
--allow-incomplete. A last line cut short by the kill (no newline, not JSON)
is left out with a warning naming the file and line, and the report is
labelled incomplete; a malformed line elsewhere is an error unless
--skip-bad-lines.`,
			Example: `  docscore pilot report run.jsonl --format md
  docscore pilot report run.jsonl --refs cord-v2/test-00000-of-00001.parquet --out report.json`,
			Args: cobra.ExactArgs(1),
			RunE: func(c *cobra.Command, args []string) error {
				return runPilotReport(env, args[0], o)
			},
		}
		f := c.Flags()
		f.StringVar(&o.refs, "refs", "", "CORD references (.json, .jsonl, .parquet or a directory); default: the labels in the run header")
		f.BoolVar(&o.readingOrder, "reading-order", false, "reference text in reading order instead of annotation order (a different protocol)")
		f.BoolVar(&o.skipBadLines, "skip-bad-lines", false, "report and skip malformed run lines instead of failing")
		f.StringVar(&o.format, "format", "json", "output format: json or md")
		f.StringVar(&o.out, "out", "", "write the report to this file instead of standard output")
		return c
	})
}

func runPilotReport(env *Env, path string, o pilotReportOptions) error {
	if err := checkFormat(o.format, "json", "md"); err != nil {
		return err
	}
	popts := receiptsread.ParseOptions{}
	if o.readingOrder {
		popts.Order = receiptsread.ReadingOrder
	}
	opts := pilotreport.Options{Order: popts.Order}
	if err := notOverInputs(env, flagged("--out", o.out), []named{{"RUN", path}, {"--refs", o.refs}}); err != nil {
		return err
	}
	if o.refs != "" {
		refs, err := cord.LoadWith(env.inputs(), o.refs, popts)
		if err != nil {
			return interrupted(err)
		}
		opts.References, opts.ReferencesFrom = refs, o.refs
	}
	// A killed run may end in half a line: report it as cut, not as a
	// malformed file.
	run, err := readRun(env, path, runfile.ReadOptions{SkipBadLines: o.skipBadLines, AllowCutLastLine: true})
	if err != nil {
		return err
	}
	warnSkipped(env, run.Skipped)
	if run.Cut != nil {
		fmt.Fprintf(env.Stderr, "docscore: warning: %s\n", run.Cut)
	}
	rep, err := pilotreport.Build(run, opts)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if o.format == "md" {
		err = rep.WriteMarkdown(&buf)
	} else {
		err = rep.WriteJSON(&buf)
	}
	if err != nil {
		return err
	}
	if err := writeOutput(env, "--out", o.out, buf.Bytes()); err != nil {
		return err
	}
	if rep.Incomplete {
		detail := fmt.Sprintf("%d of %d planned pairs recorded, %d unattempted", rep.Recorded, rep.Planned, rep.UnattemptedCount)
		if rep.CutLine != "" && rep.UnattemptedCount == 0 && len(rep.Duplicated) == 0 {
			detail = "every planned pair recorded, but its last line was cut"
		}
		fmt.Fprintf(env.Stderr, "docscore: warning: run %q is incomplete (%s); the report is labelled incomplete\n", rep.RunID, detail)
	}
	if rep.Scores == nil && rep.ScoresNote != "" {
		fmt.Fprintf(env.Stderr, "docscore: note: %s\n", rep.ScoresNote)
	}
	return nil
}
