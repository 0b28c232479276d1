package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/scoring/api/compareapi"
	"github.com/docscore/docscore/scoring/stats"
)

// compareOptions are the flags compare reads itself; the others go to
// the request as the registry declares them (applyOptions).
type compareOptions struct {
	within, preview  bool
	out              string
	failOnRegression bool
}

func init() {
	register("", "compare", func(env *Env) *cobra.Command {
		var o compareOptions
		c := &cobra.Command{
			Use:   "compare BASE.json NEW.json | compare --within REPORT.json | compare --preview SETTLED.json PREVIEW.json",
			Short: "Compare two score reports (or the cells of one) with paired intervals and p-values",
			Long: `Compare score reports as SPEC section F.5 and F.6 define (see docs/compare.md).

docscore compare BASE.json NEW.json compares two JSON reports of one family
(both written by "docscore score tabular", or both by "docscore score
receipts") cell by cell: every cell (model and phase; receipts: phase) that
both reports have, base as A, new as B. No ground truth is needed: the
reports' per-image (tabular) and per-page (receipts) rows carry what each
page or sample contributes.

docscore compare --within REPORT.json compares the cells of one report:
every two that share a phase (models) and every two that share a model
(phases), the first in report order as A; --pairs names the comparisons
instead: "A:B,…", each side model/phase (tabular) or a phase (receipts).

docscore compare --preview SETTLED.json PREVIEW.json compares a draft-rule
preview: two tabular reports of the same runs and ground truth, one scored
with the settled rules, the other with OPEN rows switched on (score tabular
--preview), cell by cell, settled as A, with ids prefixed settled: and
preview:. Both must have the same fields, cells and pages. It is the
"comparison" member of the preview that score tabular --preview writes.

For each statistic: A and B on the pages (samples) both cells have, the
difference B − A with its bootstrap interval, an approximate-randomization
p-value, Holm-adjusted over the report's comparisons of that statistic, and
whether it is significant at --alpha; and which pages' own F1 rose or fell.
The same files and options give the same bytes on every host.

--fail-on-regression exits 3, naming each one, when any statistic is
significantly worse on the B side.`,
			Example: `  docscore compare base.json new.json --format md
  docscore compare base.json new.json --fail-on-regression --format junit --out compare.xml
  docscore compare --within report.json
  docscore compare --within report.json --pairs gpt-4o/G:claude/G --permutations 20000 --seed 7
  docscore compare --preview settled.json preview.json --format md`,
			Args: func(c *cobra.Command, args []string) error {
				switch {
				case o.within && o.preview:
					return usageError("--within and --preview: compare one report within itself, or a settled scoring with its preview")
				case o.preview && len(args) != 2:
					return usageError("compare --preview takes two tabular reports, SETTLED.json PREVIEW.json (got %d arguments)", len(args))
				case o.within && len(args) != 1:
					return usageError("compare --within takes one report, REPORT.json (got %d arguments)", len(args))
				case !o.within && len(args) != 2:
					return usageError("compare takes two reports, BASE.json NEW.json, or --within REPORT.json (got %d arguments)", len(args))
				}
				return nil
			},
			RunE: func(c *cobra.Command, args []string) error {
				return runCompare(env.Context, env, c, o, args)
			},
		}
		f := c.Flags()
		optionFlags(f, compareapi.CompareOperation(), map[string]any{"within": &o.within, "preview": &o.preview})
		f.StringVar(&o.out, "out", "", "write the report to this file instead of standard output")
		f.BoolVar(&o.failOnRegression, "fail-on-regression", false, "exit 3 when any statistic is significantly worse on the B (new) side")
		return c
	})
}

func runCompare(ctx context.Context, env *Env, c *cobra.Command, o compareOptions, args []string) error {
	req := &compareapi.CompareRequest{}
	if err := applyOptions(c.Flags(), compareapi.CompareOperation(), req); err != nil {
		return err
	}
	names := []string{"BASE.json", "NEW.json"}
	switch {
	case o.within:
		names[0] = "REPORT.json"
	case o.preview:
		names = []string{"SETTLED.json", "PREVIEW.json"}
	}
	var stdin []string
	for i, path := range args {
		stdin = append(stdin, names[i], path)
	}
	if err := oneStdin(stdin...); err != nil {
		return err
	}
	var inputs []named
	for i, path := range args {
		inputs = append(inputs, named{names[i], path})
	}
	if err := notOverInputs(env, flagged("--out", o.out), inputs); err != nil {
		return err
	}
	for i, path := range args {
		f, err := readInput(env, names[i], path)
		if err != nil {
			return err
		}
		*req.InputFiles()[i] = apiFile(f)
	}
	res, rep, err := compareapi.CompareReport(ctx, req)
	if err != nil {
		return interrupted(flagError(err))
	}
	if err := writeOutput(env, "--out", o.out, res.Bytes); err != nil {
		return err
	}
	for _, only := range []struct {
		cells []string
		path  string
	}{{rep.OnlyBase, args[0]}, {rep.OnlyNew, args[len(args)-1]}} {
		for _, c := range only.cells {
			fmt.Fprintf(env.Stderr, "docscore: warning: %s: only %s has it, not compared\n", c, only.path)
		}
	}
	if o.failOnRegression && rep.Regressed() {
		return regressionFailure(rep.Report)
	}
	return nil
}

// regressionFailure names every statistic significantly worse on the B
// side: exit 3.
func regressionFailure(r *stats.Report) error {
	var lines []string
	for _, c := range r.Comparisons {
		for i := range c.Stats {
			s := &c.Stats[i]
			if s.Better == nil || *s.Better != "a" {
				continue
			}
			line := fmt.Sprintf("%s → %s: %s %.4f → %.4f (delta %+.4f", c.A.ID, c.B.ID, s.Path(), *s.A, *s.B, *s.Delta)
			if s.CI != nil {
				line += fmt.Sprintf(" [%+.4f, %+.4f]", s.CI[0], s.CI[1])
			}
			lines = append(lines, line+fmt.Sprintf(", p_holm %.4f)", *s.PHolm))
		}
	}
	return &ExitError{Code: ExitThreshold, Err: fmt.Errorf("significantly worse (--fail-on-regression):\n  %s", strings.Join(lines, "\n  "))}
}
