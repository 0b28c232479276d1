package cli

import (
	"bytes"
	"encoding/json"

	"github.com/docscore/docscore/scoring/groundtruth"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/spf13/cobra"
)

// readGeneration reads a generation report written by groundtruth
// generate.
func readGeneration(env *Env, path string) (*groundtruth.GroundTruthReport, error) {
	data, err := readPath(env, "--report", path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var rep groundtruth.GroundTruthReport
	if err := dec.Decode(&rep); err != nil {
		return nil, inputerr.New(path, 0, "expected a generation report (docscore groundtruth generate --output): %v", err)
	}
	if rep.Kind != groundtruth.GroundTruthReportKind {
		return nil, inputerr.New(path, 0, "kind %q: expected %q (a report of docscore groundtruth generate)", rep.Kind, groundtruth.GroundTruthReportKind)
	}
	return &rep, nil
}

func init() {
	register("groundtruth", "review-file", func(env *Env) *cobra.Command {
		var report, output string
		c := &cobra.Command{
			Use:   "review-file",
			Short: "Write the review file of a generation report, for a person to decide and sign",
			Long: `review-file turns a generation report (docscore groundtruth generate
--output) into a review file: the agreed claims, which the reviewer may
correct or delete, and one review item per disagreement, which the reviewer
decides with "decision": "set" and a "value", or "decision": "omit". The
reviewer then signs with "status": "approved" and "approved_by". Load it
with docscore groundtruth approve. (groundtruth generate --review-file
writes the same file directly.)`,
			Example: `  docscore groundtruth review-file --report generation.json --output review.json`,
			Args:    cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if report == "" {
					return usageError("give --report GENERATION.json")
				}
				if err := notOverInputs(env, flagged("--output", output), flagged("--report", report)); err != nil {
					return err
				}
				rep, err := readGeneration(env, report)
				if err != nil {
					return err
				}
				data, err := groundtruth.WriteGroundTruthReview(rep)
				if err != nil {
					return err
				}
				return writeOutput(env, "--output", output, data)
			},
		}
		c.Flags().StringVar(&report, "report", "", "the generation report (JSON) of docscore groundtruth generate")
		c.Flags().StringVar(&output, "output", "", "write the review file here (default: standard output)")
		return c
	})
}
