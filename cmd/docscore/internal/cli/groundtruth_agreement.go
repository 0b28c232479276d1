package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/scoring/groundtruth"
)

func init() {
	register("groundtruth", "agreement", func(env *Env) *cobra.Command {
		var reports, reviews []string
		var output, markdown string
		c := &cobra.Command{
			Use:   "agreement",
			Short: "Cohen's κ of each ground-truth provider against the people who reviewed its readings",
			Long: `agreement compares every provider of a ground-truth panel with the people
who decided the review files: per provider, Cohen's κ between its first
reading and the approved reference, with the confusion matrix (provider ×
reviewer) and the number of fields.

Give every generation report (--report, from groundtruth generate --output)
and every review file (--review), each as often as needed; a review is
paired with the report it was written from by case id and the generated
reference's SHA-256. A unit is one field of one reviewed case; a rating is the field
with its value ($.amount=num:1250.5) or with "absent" (the provider did not
read it; the reviewer deleted or omitted it). A provider whose answer was
unusable gives no rating (skipped). Reviews not yet signed are listed and
not counted; with none signed the "human" member is absent and
"human_reason" says why. κ is undefined (null, with the reason) when a
provider and the reviewers used one and the same category.`,
			Example: `  docscore groundtruth agreement --report generation.json --review review.json --output agreement.json --markdown agreement.md`,
			Args:    cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if len(reports) == 0 || len(reviews) == 0 {
					return usageError("give at least one --report GENERATION.json and one --review REVIEW.json")
				}
				if err := notOverInputs(env, []named{{"--output", output}, {"--markdown", markdown}},
					append(flagged("--report", reports...), flagged("--review", reviews...)...)); err != nil {
					return err
				}
				var reps []groundtruth.NamedReport
				for _, p := range reports {
					r, err := readGeneration(env, p)
					if err != nil {
						return err
					}
					reps = append(reps, groundtruth.NamedReport{Name: p, Report: r})
				}
				var files []groundtruth.NamedFile
				for _, p := range reviews {
					data, err := readPath(env, "--review", p)
					if err != nil {
						return err
					}
					files = append(files, groundtruth.NamedFile{Name: p, Data: data})
				}
				rep, err := groundtruth.JudgeHumanAgreement(reps, files)
				if err != nil {
					return err
				}
				if markdown != "" {
					if err := writeOutput(env, "--markdown", markdown, []byte(rep.Markdown())); err != nil {
						return err
					}
				}
				data, err := rep.JSON()
				if err != nil {
					return err
				}
				if err := writeOutput(env, "--output", output, data); err != nil {
					return err
				}
				fmt.Fprintln(env.Stderr, "docscore: "+humanSummary(rep))
				return nil
			},
		}
		c.Flags().StringArrayVar(&reports, "report", nil, "a generation report (JSON) of docscore groundtruth generate; repeat for several")
		c.Flags().StringArrayVar(&reviews, "review", nil, "a review file decided by a person; repeat for several")
		c.Flags().StringVar(&output, "output", "", "write the JSON report here (default: standard output)")
		c.Flags().StringVar(&markdown, "markdown", "", "write the Markdown report here")
		return c
	})
}

// humanSummary is the one-line summary on standard error.
func humanSummary(rep *groundtruth.HumanAgreementReport) string {
	used := 0
	for _, u := range rep.Reviews {
		if u.Used {
			used++
		}
	}
	if rep.Agreement.Human == nil {
		return fmt.Sprintf("0 of %d review(s) signed: %s", len(rep.Reviews), rep.Agreement.HumanReason)
	}
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(rep.Agreement.Human)) {
		k := rep.Agreement.Human[n]
		v := "undefined"
		if k.Kappa != nil {
			v = fmt.Sprintf("%.4f", *k.Kappa)
		}
		parts = append(parts, fmt.Sprintf("%s κ %s over %d field(s)", n, v, k.N))
	}
	return fmt.Sprintf("%d of %d review(s) signed; %s", used, len(rep.Reviews), strings.Join(parts, "; "))
}
