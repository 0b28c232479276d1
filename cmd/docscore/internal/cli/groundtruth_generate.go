package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/harnessio"
	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/groundtruth"
	"github.com/docscore/docscore/scoring/judging"
	"github.com/docscore/docscore/scoring/param"
	"github.com/spf13/cobra"
)

// parseProvider builds a ground-truth provider from a --provider value:
// openai:MODEL, anthropic:MODEL or command:NAME=PROGRAM ARGS….
func parseProvider(env *Env, spec string, s judgeSettings) (groundtruth.GroundTruthProvider, error) {
	kind, rest, ok := strings.Cut(spec, ":")
	if !ok || strings.TrimSpace(rest) == "" {
		return groundtruth.GroundTruthProvider{}, usageError("--provider %q: expected openai:MODEL, anthropic:MODEL or command:NAME=PROGRAM", spec)
	}
	switch kind {
	case "openai", "anthropic":
		s.model = rest
		for _, p := range judgeProviders {
			if p.name == kind {
				a, err := p.build(env, s)
				if err != nil {
					return groundtruth.GroundTruthProvider{}, err
				}
				return groundtruth.GroundTruthProvider{Name: kind + "/" + rest, Adapter: a}, nil
			}
		}
	case "command":
		name, program, ok := strings.Cut(rest, "=")
		if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(program) == "" {
			return groundtruth.GroundTruthProvider{}, usageError("--provider %q: expected command:NAME=PROGRAM ARGS…", spec)
		}
		a, err := modeladapter.NewCommand(program, modeladapter.CommandOptions{Model: name, Policy: s.policy, Limiter: s.limiter})
		if err != nil {
			return groundtruth.GroundTruthProvider{}, usageError("--provider %q: %v", spec, err)
		}
		return groundtruth.GroundTruthProvider{Name: name, Adapter: a}, nil
	}
	return groundtruth.GroundTruthProvider{}, usageError("--provider %q: unknown kind %q (expected openai, anthropic or command)", spec, kind)
}

// commandDeriver converts a document to Markdown with a program: the
// document's bytes on stdin, Markdown on stdout.
func commandDeriver(command string) (groundtruth.MarkdownDeriver, error) {
	argv, err := modeladapter.SplitCommand(command)
	if err != nil || len(argv) == 0 {
		return nil, usageError("--markdown-command %q: expected a program", command)
	}
	return func(ctx context.Context, doc evalcase.ReferenceArtifact) (string, error) {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(doc.Content)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s: %v: %s", argv[0], err, strings.TrimSpace(errb.String()))
		}
		return out.String(), nil
	}, nil
}

func writeJSON(env *Env, flag, path string, v any) error {
	b, err := api.MarshalJSON(v)
	if err != nil {
		return err
	}
	return writeOutput(env, flag, path, b)
}

func init() {
	register("groundtruth", "generate", func(env *Env) *cobra.Command {
		var (
			caseID, instruction, output, reviewFile, reference, checkpointDir, docMode, mdCommand string
			sources, fields, providers                                                            []string
			minimum, adjMinimum                                                                   float64
			adjudicate, union                                                                     bool
			jf                                                                                    judgeFlags
		)
		c := &cobra.Command{
			Use:   "generate",
			Short: "Generate a provisional reference from page images with a panel of model providers",
			Long: `generate reads the sources (page images) with two or more independent
providers and reconciles their claims field by field.

Each provider sees only the sources and the extraction instruction: never a
prediction and never another provider's answer. A field whose top value is
read by at least --minimum-agreement of the providers (1 by default: all of
them) becomes a consensus row; a conflict, an omission, or an expected field
nobody read is a review item. The consensus rows form one reference with
authority "generated": scoring against it measures agreement with a
provisional AI reference, not accuracy. It becomes ground truth only through
signed approval (docscore groundtruth review-file, then approve).

--adjudicate asks the providers again, blind, about the disputed fields only
(never showing first-pass values); --union accepts values that only some
providers read when none conflicts. Both keep authority "generated".

Inputs are routed as a whole: all images go to the panel; all PDF/ODF
documents are preserved as evidence (no panel), with a Markdown derivative
per document under --document-mode markdown --markdown-command PROGRAM; a
mixture is an error.

Providers: --provider openai:MODEL, anthropic:MODEL, or
command:NAME=PROGRAM ARGS… (the request JSON on stdin, the answer JSON on
stdout).

` + costHelp() + ` A provider call the ceiling refuses ends the command
with exit 1 and nothing written; the answers received stay in
--checkpoint-dir, so a rerun with a higher ceiling pays only for the rest
(with --adjudicate the estimate covers the first reading only: the second
depends on its answers, and the ceiling can stop it).

` + batchHelp + `

` + judgeEnvHelp,
			Example: `  docscore groundtruth generate --case-id statement-001 \
    --source examples/judges/pages/page-001.png --source examples/judges/pages/page-002.png \
    --instruction "Extract currency, amount and account name." \
    --field '$.currency' --field '$.amount' --field '$.account_name' \
    --provider 'command:reader-a=go run ./examples/judges/localjudge' \
    --provider 'command:reader-b=go run ./examples/judges/localjudge -misread $.amount=1,250.50' \
    --output generation.json --review-file review.json`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if strings.TrimSpace(caseID) == "" || len(sources) == 0 {
					return usageError("give --case-id and at least one --source")
				}
				if err := checkFormat(docMode, "preserve", "markdown"); err != nil {
					return usageError("--document-mode %q: expected preserve or markdown", docMode)
				}
				if err := param.Float("--minimum-agreement", minimum, param.Unit); err != nil {
					return err
				}
				if err := param.Float("--adjudication-minimum", adjMinimum, param.Unit); err != nil {
					return err
				}
				settings, err := jf.settings(env)
				if err != nil {
					return err
				}
				var refs []evalcase.ReferenceArtifact
				seen := map[string]string{}
				for _, p := range sources {
					a, err := harnessio.ReadArtifact(env.inputs(), p, evalcase.ArtifactOptions{Authority: evalcase.AuthorityEvidence})
					if err != nil {
						if os.IsNotExist(err) {
							return usageError("--source: %v", err)
						}
						return err
					}
					if prev, dup := seen[a.ArtifactID]; dup {
						return usageError("--source %s: a source named %q was already given (%s)", p, a.ArtifactID, prev)
					}
					seen[a.ArtifactID] = p
					refs = append(refs, a)
				}
				router := &groundtruth.GroundTruthRouter{DocumentMode: groundtruth.DocumentMode(docMode)}
				if mdCommand != "" {
					if router.Markdown, err = commandDeriver(mdCommand); err != nil {
						return err
					}
				}
				store, err := openStore(checkpointDir)
				if err != nil {
					return err
				}
				var raw []groundtruth.GroundTruthProvider
				for _, spec := range providers {
					p, err := parseProvider(env, spec, settings)
					if err != nil {
						return err
					}
					raw = append(raw, p)
				}
				images := true
				for _, r := range refs {
					images = images && groundtruth.IsImage(r)
				}
				panel := func(ps []groundtruth.GroundTruthProvider) *groundtruth.GroundTruthPanel {
					return &groundtruth.GroundTruthPanel{Providers: ps, ExtractionInstruction: instruction, ExpectedFields: fields, MinimumAgreement: minimum}
				}
				if images {
					if strings.TrimSpace(instruction) == "" {
						return usageError("--instruction: the panel needs an extraction instruction")
					}
					if err := panel(raw).Validate(); err != nil {
						return usageError("%v (give two or more --provider)", err)
					}
				}
				var plan *modeladapter.Plan
				for _, p := range raw {
					if _, ok := p.Adapter.(modeladapter.Estimator); ok && plan == nil {
						if plan, err = settings.newPlan(store); err != nil {
							return err
						}
					}
				}
				if plan != nil && images {
					// The estimate: the panel's first reading through
					// adapters that record each request and send none
					// (--adjudicate's second reading depends on the answers
					// and is not in it; the ceiling still holds there).
					dry := *router
					var dps []groundtruth.GroundTruthProvider
					for _, p := range raw {
						var a judging.ModelAdapter = plan.Wrap(p.Adapter)
						if store != nil {
							a = &judging.CachedAdapter{Adapter: a, Store: readOnlyStore{store}}
						}
						dps = append(dps, groundtruth.GroundTruthProvider{Name: p.Name, Adapter: a})
					}
					dry.ImagePanel = panel(dps)
					var nj *judging.NotJudgedError
					if _, err := dry.Prepare(env.Context, caseID, refs); err != nil && !errors.As(err, &nj) {
						return err
					}
					if err := reportEstimate(env, settings, plan); err != nil {
						return err
					}
				}
				var (
					prep  *groundtruth.Prepared
					rep   *groundtruth.GroundTruthReport
					usage []any
				)
				// One pass, or (--batch) as many as the batches need: the
				// adjudication asks only once the first reading is in.
				sc, err := settings.runJudged(env, store, func(sc *batchScope) error {
					var ps []groundtruth.GroundTruthProvider
					usage = sc.usage()
					for _, p := range raw {
						usage = append(usage, p.Adapter)
						a, err := sc.wrap(p.Adapter)
						if err != nil {
							return err
						}
						p.Adapter = sc.cached(a, nil)
						ps = append(ps, p)
					}
					router.ImagePanel = nil
					if images {
						router.ImagePanel = panel(ps)
					}
					var err error
					if prep, err = router.Prepare(env.Context, caseID, refs); err != nil {
						return err
					}
					rep = prep.ImageReport
					if rep == nil || (sc.pass != nil && !sc.pass.Final()) {
						return nil
					}
					if adjudicate && len(rep.Disputed) > 0 {
						adj := &groundtruth.GroundTruthAdjudicator{Providers: ps, MinimumAgreement: adjMinimum}
						if rep, err = adj.Adjudicate(env.Context, rep, refs); err != nil {
							return err
						}
					}
					return nil
				})
				if nj := (*judging.NotJudgedError)(nil); errors.As(err, &nj) {
					return incompleteNothingWritten(settings, 1)
				}
				if err != nil {
					return err
				}
				if prep.ImageReport == nil {
					if reviewFile != "" || reference != "" || adjudicate || union {
						return usageError("route %s: the sources are preserved as evidence and no reference is generated, so --review-file, --reference, --adjudicate and --union do not apply", prep.Route)
					}
					if err := writeJSON(env, "--output", output, prep); err != nil {
						return err
					}
					return sc.commit()
				}
				if union {
					if rep, err = groundtruth.ResolveGroundTruthUnion(rep); err != nil {
						return err
					}
				}
				if reviewFile != "" {
					data, err := groundtruth.WriteGroundTruthReview(rep)
					if err != nil {
						return err
					}
					if err := writeOutput(env, "--review-file", reviewFile, data); err != nil {
						return err
					}
				}
				if reference != "" {
					if err := writeOutput(env, "--reference", reference, []byte(rep.ProvisionalReference.Value.(string))); err != nil {
						return err
					}
				}
				summary := judging.SummarizeUsage(usageOf(usage...))
				if plan != nil {
					decorateUsage(summary, settings, plan)
				}
				fmt.Fprintf(env.Stderr, "docscore: %d field(s) agreed, %d disputed (%d read by no provider); requires human review: %v; %d call(s) made, %d reused\n",
					len(rep.Agreed), len(rep.Disputed), len(rep.OmittedFields), rep.RequiresHumanReview, summary.Calls, summary.CachedCalls)
				if err := writeJSON(env, "--output", output, struct {
					*groundtruth.GroundTruthReport
					Usage *judging.UsageSummary `json:"usage"`
				}{rep, summary}); err != nil {
					return err
				}
				return sc.commit()
			},
		}
		fl := c.Flags()
		fl.StringVar(&caseID, "case-id", "", "the case the sources belong to")
		fl.StringArrayVar(&sources, "source", nil, "a source file: a page image, a PDF or an OpenDocument file; repeat for several")
		fl.StringVar(&instruction, "instruction", "", "the extraction instruction every provider receives")
		fl.StringArrayVar(&fields, "field", nil, "an expected field path such as $.amount; repeat for several (none: providers choose)")
		fl.StringArrayVar(&providers, "provider", nil, "openai:MODEL, anthropic:MODEL or command:NAME=PROGRAM ARGS…; repeat (two or more)")
		fl.Float64Var(&minimum, "minimum-agreement", 1, "share of providers that must read the same value for a consensus row")
		fl.BoolVar(&adjudicate, "adjudicate", false, "ask the providers again, blind, about the disputed fields only")
		fl.Float64Var(&adjMinimum, "adjudication-minimum", 1, "share of providers that must agree in the second reading")
		fl.BoolVar(&union, "union", false, "accept fields that only some providers read when no value conflicts")
		fl.StringVar(&output, "output", "", "write the generation report (JSON) here (default: standard output)")
		fl.StringVar(&reviewFile, "review-file", "", "write the review file for a person to decide and sign")
		fl.StringVar(&reference, "reference", "", "write the provisional reference (path/value CSV, authority generated)")
		fl.StringVar(&checkpointDir, "checkpoint-dir", "", "keep every provider answer here; a rerun asks nothing twice")
		fl.StringVar(&docMode, "document-mode", "preserve", "documents: preserve, or markdown (add a local Markdown derivative)")
		fl.StringVar(&mdCommand, "markdown-command", "", "with --document-mode markdown: a program that reads a document on stdin and writes Markdown")
		addJudgeFlags(c, &jf, false)
		return c
	})
}
