package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/scoring/groundtruth"
)

func init() {
	register("groundtruth", "approve", func(env *Env) *cobra.Command {
		var review, output, record string
		c := &cobra.Command{
			Use:   "approve",
			Short: "Promote a signed review file to ground truth (a path/value table)",
			Long: `approve reads a review file that a person has decided and signed and writes
the approved reference: a path/value CSV with authority ground_truth, ready
for docscore eval --ground-truth. It refuses (exit 2, naming the line) a
file whose status is not "approved", that has no approved_by, or that
leaves a review item undecided. --record writes the reference's record:
approved_by, the SHA-256 of the review file and of the generated reference
it came from, and the sources.`,
			Example: `  docscore groundtruth approve --review review.json --output truth.csv --record truth.approval.json`,
			Args:    cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if review == "" {
					return usageError("give --review REVIEW.json")
				}
				if err := notOverInputs(env, []named{{"--output", output}, {"--record", record}}, flagged("--review", review)); err != nil {
					return err
				}
				data, err := readPath(env, "--review", review)
				if err != nil {
					return err
				}
				ref, err := groundtruth.ApprovedReferenceFromReview(data, review)
				if err != nil {
					return err
				}
				if record != "" {
					if err := writeJSON(env, "--record", record, ref); err != nil {
						return err
					}
				}
				if err := writeOutput(env, "--output", output, []byte(ref.Value.(string))); err != nil {
					return err
				}
				if output != "" && output != "-" {
					fmt.Fprintf(env.Stderr, "docscore: approved by %s: %s (sha256 %s)\n", ref.Metadata["approved_by"], output, ref.SHA256)
				}
				return nil
			},
		}
		c.Flags().StringVar(&review, "review", "", "the signed review file")
		c.Flags().StringVar(&output, "output", "", "write the approved path/value CSV here (default: standard output)")
		c.Flags().StringVar(&record, "record", "", "write the approved reference's record (JSON: authority, approved_by, hashes)")
		return c
	})
}
