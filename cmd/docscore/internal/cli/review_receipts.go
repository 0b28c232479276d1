package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/cord"
	"github.com/docscore/docscore/cmd/docscore/internal/harnessio"
	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
	"github.com/spf13/cobra"
)

func init() { register("review", "receipts", newReviewReceipts) }

func newReviewReceipts(env *Env) *cobra.Command {
	var (
		refsPath, runPath, imagesDir, outPath, judge, phase string
		checkpointDir                                       string
		lowest                                              int
		allowIncomplete, readingOrder                       bool
		jf                                                  judgeFlags
	)
	c := &cobra.Command{
		Use:   "receipts --run RUN.jsonl --refs DIR|FILE --judge openai|anthropic|command [flags]",
		Short: "Send the lowest-overlap receipt pages to a model judge, as advisory diagnostics (SPEC B.5)",
		Long: `Model-assisted review of a receipt run (SPEC B.5).

The run is scored exactly as 'docscore score receipts' scores it; the N pages
with the lowest ROUGE-L F1 (then numeric recall) are sent to a model judge
with a review rubric, one request per page: the raw output, the reference
text, the missing numbers and, with --images, the receipt image. The
prompts, the answers and their probabilities are written to their own file
(--out) as advisory diagnostics. They never change the deterministic
scores, which this command does not write at all.

Judges: --judge openai or anthropic (keys from OPENAI_API_KEY or
ANTHROPIC_API_KEY, the model from --model), or command with --judge-command
(a local program reading the judge request JSON on stdin and writing the
answer JSON on stdout). auto picks OpenAI, then Anthropic, by which key is
set; a review needs a judge, so none is an error. With --checkpoint-dir
each answer is kept, and a rerun asks nothing twice.

` + costHelp() + ` A page not judged has verdict uncertain and
not_judged with the reason.

` + batchHelp,
		Example: `  docscore review receipts --run run.jsonl --refs refs/ --lowest 3 --judge openai --model gpt-5 --out review.json
  docscore review receipts --run run.jsonl --refs refs/ --images images/ --judge command --judge-command 'go run ./examples/judges/localjudge'`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if refsPath == "" || runPath == "" {
				return usageError("expected --refs and --run")
			}
			if lowest < 1 {
				return usageError("--lowest %d: expected at least 1 page", lowest)
			}
			accepted := strings.Join(reviewJudgeNames(), ", ")
			if judge == "none" {
				return usageError("--judge none: a review needs a model judge, and none means no judge (only 'docscore eval' accepts it); expected one of %s", accepted)
			}
			settings, err := jf.settings(env)
			if err != nil {
				return err
			}
			adapter, _, err := resolveJudge(env, judge, settings)
			if err != nil {
				return err
			}
			if adapter == nil {
				return usageError("--judge auto found no judge: neither %s nor %s is set; set one, or give --judge openai, anthropic or command", envOpenAIKey, envAnthropicKey)
			}
			if err := notOverInputs(env, flagged("--out", outPath), []named{{"--refs", refsPath}, {"--run", runPath}}); err != nil {
				return err
			}
			opts := receiptsread.ParseOptions{}
			if readingOrder {
				opts.Order = receiptsread.ReadingOrder
			}
			refs, err := cord.LoadWith(env.inputs(), refsPath, opts)
			if err != nil {
				return interrupted(err)
			}
			run, err := readRun(env, runPath, runfile.ReadOptions{})
			if err != nil {
				return err
			}
			rep, err := receipts.ScoreContext(env.Context, refs, run, receipts.Options{AllowIncomplete: allowIncomplete, Order: opts.Order})
			if err != nil {
				if inc, ok := err.(*receipts.IncompleteError); ok {
					inc.Allow = "--allow-incomplete"
					return &ExitError{Code: ExitInput, Err: inc}
				}
				return err
			}
			pages, err := advisoryPages(rep, run, refs, phase, imagesDir)
			if err != nil {
				return err
			}
			chosen := judging.LowestOverlapPages(pages, lowest)
			store, err := openStore(checkpointDir)
			if err != nil {
				return err
			}
			var plan *modeladapter.Plan
			if _, ok := adapter.(modeladapter.Estimator); ok {
				// The estimate: the same review through an adapter that
				// records each request and sends none (answers in the
				// checkpoint directory cost nothing).
				if plan, err = settings.newPlan(store); err != nil {
					return err
				}
				var called judging.ModelAdapter = plan.Wrap(adapter)
				if store != nil {
					called = &judging.CachedAdapter{Adapter: called, Store: readOnlyStore{store}}
				}
				if _, err := judging.ReviewPages(env.Context, &judging.ModelJudge{Adapter: called}, chosen, ""); err != nil {
					return err
				}
				if err := reportEstimate(env, settings, plan); err != nil {
					return err
				}
			}
			var review *judging.AdvisoryReport
			var usage []any
			// One pass, or (--batch) as many as the batch needs.
			sc, err := settings.runJudged(env, store, func(sc *batchScope) error {
				a, err := sc.wrap(adapter)
				if err != nil {
					return err
				}
				usage = append([]any{adapter}, sc.usage()...)
				review, err = judging.ReviewPages(env.Context, &judging.ModelJudge{Adapter: sc.cached(a, nil)}, chosen, "")
				return err
			})
			if err != nil {
				return err
			}
			if plan != nil {
				review.Usage = judging.SummarizeUsage(usageOf(usage...))
				decorateUsage(review.Usage, settings, plan)
			}
			if err := writeJSON(env, "--out", outPath, review); err != nil {
				return err
			}
			if err := sc.commit(); err != nil {
				return err
			}
			if review.Incomplete {
				n := 0
				for _, p := range review.Pages {
					if p.NotJudged != "" {
						n++
					}
				}
				return incomplete(settings, n)
			}
			if outPath != "" && outPath != "-" {
				fmt.Fprintf(env.Stderr, "docscore: %d page(s) reviewed; advisory diagnostics in %s (deterministic scores unchanged)\n", len(review.Pages), outPath)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&refsPath, "refs", "", "CORD references: a .json, .jsonl or .parquet file, or a directory of them")
	fl.StringVar(&runPath, "run", "", "the pilot run file (JSONL), or - for standard input")
	fl.IntVar(&lowest, "lowest", 3, "how many of the lowest-overlap pages to review")
	fl.StringVar(&phase, "phase", "c1", `the phase whose pages are reviewed ("" for all)`)
	fl.StringVar(&imagesDir, "images", "", "a directory of receipt images named by sample id (.png, .jpg), sent to the judge as evidence")
	fl.StringVar(&outPath, "out", "", "write the advisory diagnostics here instead of standard output")
	fl.BoolVar(&allowIncomplete, "allow-incomplete", false, "review an incomplete run")
	fl.BoolVar(&readingOrder, "reading-order", false, "reference text in reading order (a different protocol)")
	fl.StringVar(&checkpointDir, "checkpoint-dir", "", "keep every judge answer here; a rerun asks nothing twice (needed by --batch)")
	fl.StringVar(&judge, "judge", "auto", "model judge: "+strings.Join(reviewJudgeNames(), ", ")+" (auto: OpenAI, then Anthropic, by which key is set)")
	addJudgeFlags(c, &jf, true)
	return c
}

// advisoryPages turns the scored pages of one phase ("" for all) into
// review candidates with their raw output, reference text and, when the
// images directory holds one, the receipt image.
func advisoryPages(rep *receiptsreport.Report, run *runfile.Run, refs receiptsread.References, phase, imagesDir string) ([]judging.AdvisoryPage, error) {
	outputs := map[int]string{}
	for _, r := range run.Requests {
		outputs[r.Line] = r.OutputString()
	}
	refText := map[string]string{}
	for _, r := range refs {
		refText[r.SampleID] = r.Text
	}
	var pages []judging.AdvisoryPage
	for _, p := range rep.Pages {
		if phase != "" && p.Phase != phase {
			continue
		}
		ap := judging.AdvisoryPage{
			SampleID: p.SampleID, Phase: p.Phase, F1: p.F1, NumericRecall: p.NumericRecall,
			MissingNumbers: p.MissingNumbers, Output: outputs[p.Line], Reference: refText[p.SampleID],
		}
		if imagesDir != "" {
			for _, ext := range []string{".png", ".jpg", ".jpeg", ".webp"} {
				path := filepath.Join(imagesDir, p.SampleID+ext)
				if _, err := os.Stat(path); err != nil {
					continue
				}
				img, err := harnessio.ArtifactFromPath(path, evalcase.ArtifactOptions{ArtifactID: "receipt_image", Authority: evalcase.AuthorityEvidence})
				if err != nil {
					return nil, inputError(path, err)
				}
				ap.Image = &img
				break
			}
		}
		pages = append(pages, ap)
	}
	if len(pages) == 0 {
		return nil, usageError("no scored pages in phase %q to review (phases: %s)", phase, phaseNames(rep))
	}
	return pages, nil
}

// reviewJudgeNames lists the --judge values a review accepts: every judge
// but none.
func reviewJudgeNames() []string {
	var names []string
	for _, n := range judgeNames() {
		if n != "none" {
			names = append(names, n)
		}
	}
	return names
}

func phaseNames(rep *receiptsreport.Report) string {
	var names []string
	for _, p := range rep.Phases {
		names = append(names, p.Phase)
	}
	return strings.Join(names, ", ")
}
