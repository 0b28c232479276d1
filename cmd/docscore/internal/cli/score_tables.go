package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/tablesapi"
	"github.com/docscore/docscore/scoring/tables"
)

type scoreTablesOptions struct {
	gt, pred, runs string
	model, phase   string
	thAsTD         bool
	format, out    string
	bootstrap      int
	ciLevel        float64
	seed           uint64
	jobs           int
}

func init() {
	register("score", "tables", func(env *Env) *cobra.Command {
		var o scoreTablesOptions
		c := &cobra.Command{
			Use:   "tables --gt G (--pred P | --runs RUNS.jsonl)",
			Short: "Score extracted tables: PubTabNet's TEDS and TEDS-S, table-transformer's GriTS",
			Long: `Score predicted tables against their ground truth (SPEC section H).

A table is HTML (.html, .htm), a Markdown pipe table (.md) or CSV (.csv);
a file may hold several tables, numbered #1, #2, … in order. --gt and
--pred are each a file or a folder; in a folder a file's id is its name up
to the first dot (0001.gt.html pairs with 0001.model.html), and its tables
are 0001#1, 0001#2, …. Or --runs gives a JSONL of {"model", "phase",
"run", "table", "html" | "markdown" | "csv"} for many models and phases.

Each table gets TEDS and TEDS-S exactly as PubTabNet's metric.py computes
them and GriTS-Top and GriTS-Con as table-transformer's grits_from_html;
a ground-truth table without a prediction scores 0 (status missing). A
cell (model, phase) reports the means with bootstrap intervals, the table
being the unit, and lists its worst tables first. --th-as-td reads th as a
td cell (docling-eval's reading); PubTabNet keeps th structural.
docs/tables.md lists every deliberate deviation.`,
			Example: `  docscore score tables --gt gt.html --pred pred.html
  docscore score tables --gt gt/ --pred model-a/ --model model-a --format md
  docscore score tables --gt gt/ --runs runs.jsonl --out report.json`,
			Args: cobra.NoArgs,
			RunE: func(c *cobra.Command, args []string) error {
				return runScoreTables(env.Context, env, o)
			},
		}
		f := c.Flags()
		f.StringVar(&o.gt, "gt", "", "ground-truth tables: a file or a folder (required)")
		f.StringVar(&o.pred, "pred", "", "predicted tables: a file or a folder, paired with --gt by id")
		f.StringVar(&o.runs, "runs", "", "a runs JSONL of {model, phase, run, table, html|markdown|csv}")
		bindOptions(f, tablesapi.ScoreTablesOperation(), map[string]any{
			"model": &o.model, "phase": &o.phase, "th_as_td": &o.thAsTD, "format": &o.format,
			"bootstrap": &o.bootstrap, "ci_level": &o.ciLevel, "seed": &o.seed,
		})
		f.StringVar(&o.out, "out", "", "write the report to this file instead of standard output")
		f.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "tables scored at once (default: the number of CPUs)")
		_ = c.MarkFlagRequired("gt")
		return c
	})
}

// tableFiles reads a file, or the table files of a folder in name order.
func tableFiles(env *Env, flag, path string) ([]api.File, error) {
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
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
		if _, ok := tables.FormatOf(e.Name()); ok && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s: no .html, .md or .csv table files", flag, path)}
	}
	files := make([]api.File, 0, len(names))
	for _, n := range names {
		p := filepath.Join(path, n)
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s: %v", flag, p, unwrapPathErr(err))}
		}
		files = append(files, api.File{Name: p, Text: string(b)})
	}
	return files, nil
}

func runScoreTables(ctx context.Context, env *Env, o scoreTablesOptions) error {
	op := tablesapi.ScoreTablesOperation()
	if err := flagError(op.CheckFormat(o.format)); err != nil {
		return err
	}
	if (o.pred == "") == (o.runs == "") {
		return usageError("give --pred (files paired by id) or --runs (a runs JSONL), one of them")
	}
	if err := checkJobs(o.jobs); err != nil {
		return err
	}
	if err := oneStdin("--gt", o.gt, "--pred", o.pred, "--runs", o.runs); err != nil {
		return err
	}
	gt, err := tableFiles(env, "--gt", o.gt)
	if err != nil {
		return err
	}
	req := &tablesapi.TablesRequest{GT: gt, Model: o.model, Phase: o.phase, THAsTD: o.thAsTD, Format: o.format,
		Jobs: o.jobs, IntervalOptions: intervalOptions(o.bootstrap, o.ciLevel, o.seed)}
	if o.pred != "" {
		if req.Pred, err = tableFiles(env, "--pred", o.pred); err != nil {
			return err
		}
		if st, err := os.Stat(o.gt); err == nil && st.IsDir() {
			// Folders pair by id even when each holds one file.
			req.ByID = true
		}
	} else {
		f, err := readInput(env, "--runs", o.runs)
		if err != nil {
			return err
		}
		req.Runs = api.File{Name: runsName(o.runs), Text: string(f.Data)}
	}
	res, rep, err := tablesapi.ScoreTablesReport(ctx, req)
	if err != nil {
		return interrupted(flagError(err))
	}
	for _, u := range rep.Unmatched {
		fmt.Fprintf(env.Stderr, "docscore: warning: predicted table %s (model %q, phase %q, run %q) has no ground truth\n", u.Table, u.Model, u.Phase, u.Run)
	}
	return writeOutput(env, "--out", o.out, res.Bytes)
}
