package cli

import (
	"github.com/spf13/cobra"

	"github.com/docscore/docscore/scoring/api/compareapi"
)

func init() {
	register("", "plan", func(env *Env) *cobra.Command {
		var out string
		c := &cobra.Command{
			Use:   "plan REPORT.json [--effect 0.01]",
			Short: "Say how much a report's sample can tell: minimum detectable effects, pages to label",
			Long: `Plan as SPEC section F.7 defines (see docs/plan.md).

For every two cells of a score report that share a phase (models) or a model
(phases), or the --pairs given, and every statistic: how many paired pages
(samples) differ, the floor of the randomization test's p-value (2^(1−n)),
whether the comparison can be significant at all once Holm adjusts for the
report's comparisons, and the minimum detectable effect at 80% power. With
--effect, the paired pages a difference that large needs, and how many more
than the report has: "label 140 more pages" is an answer.

The numbers are those "docscore compare --within REPORT.json --effect E"
writes in each comparison; plan draws nothing, so it is instant.`,
			Example: `  docscore plan report.json --effect 0.01
  docscore plan report.json --effect 0.02 --alpha 0.01 --format md`,
			Args: func(c *cobra.Command, args []string) error {
				if len(args) != 1 {
					return usageError("plan takes one report, REPORT.json (got %d arguments)", len(args))
				}
				return nil
			},
			RunE: func(c *cobra.Command, args []string) error {
				req := &compareapi.PlanRequest{}
				if err := applyOptions(c.Flags(), compareapi.PlanOperation(), req); err != nil {
					return err
				}
				if err := oneStdin("REPORT.json", args[0]); err != nil {
					return err
				}
				f, err := readInput(env, "REPORT.json", args[0])
				if err != nil {
					return err
				}
				req.Report = apiFile(f)
				res, err := compareapi.PlanOperation().Run(env.Context, req)
				if err != nil {
					return flagError(err)
				}
				return writeOutput(env, "--out", out, res.Bytes)
			},
		}
		f := c.Flags()
		optionFlags(f, compareapi.PlanOperation(), nil)
		f.StringVar(&out, "out", "", "write the plan to this file instead of standard output")
		return c
	})
}
