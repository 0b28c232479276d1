package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/harnessio"
	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/judging"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/spf13/cobra"
)

// judgeProvider builds a model adapter for "docscore eval --judge NAME".
// The provider adapters (OpenAI, Anthropic, a local command) register
// here from judges.go, in --judge auto's order of preference.
type judgeProvider struct {
	name string
	// available reports whether the provider can run in env (for --judge
	// auto: its API key is set).
	available func(env *Env) bool
	build     func(env *Env, s judgeSettings) (judging.ModelAdapter, error)
}

// judgeProviders lists the registered providers in --judge auto's order of
// preference.
var judgeProviders []judgeProvider

// judgeNames lists the values --judge accepts.
func judgeNames() []string {
	names := []string{"auto", "none"}
	for _, p := range judgeProviders {
		names = append(names, p.name)
	}
	return names
}

// resolveJudge turns a --judge value into a model adapter (nil for none)
// and the name reports record ("provider/model", or "none").
func resolveJudge(env *Env, name string, s judgeSettings) (judging.ModelAdapter, string, error) {
	build := func(p judgeProvider) (judging.ModelAdapter, string, error) {
		a, err := p.build(env, s)
		if err != nil {
			return nil, "", err
		}
		return a, a.Info().Label(), nil
	}
	switch name {
	case "none":
		return nil, "none", nil
	case "auto":
		for _, p := range judgeProviders {
			if p.available(env) {
				return build(p)
			}
		}
		return nil, "none", nil
	}
	for _, p := range judgeProviders {
		if p.name == name {
			return build(p)
		}
	}
	return nil, "", usageError("--judge %q: expected one of %s", name, strings.Join(judgeNames(), ", "))
}

func init() {
	register("", "eval", func(env *Env) *cobra.Command {
		var (
			casesFile, prediction, caseID, operation, rubric string
			evidence, groundTruth, ctxPairs                  []string
			output, markdown, checkpointDir, judge, failOn   string
			humanFile                                        string
			jf                                               judgeFlags
			allowOutside, shuffleRefs                        bool
			judgeSamples                                     int
		)
		c := &cobra.Command{
			Use:   "eval",
			Short: "Evaluate a multi-stage document pipeline (cases file) or one prediction against references",
			Long: `eval runs the evaluation harness.

With --cases it reads a JSON or JSONL cases file (docs/schema/cases.schema.json):
cases and pipelines of stages, each with its prediction, input and references,
and the metrics to select by stage id, operation or default. Reference paths
are read relative to the cases file, and may not leave its folder (no
absolute paths, no "..", no symbolic link out of it) unless
--allow-outside-paths is given: a cases file cannot read, hash and send to
a judge any file on the machine.

With --prediction it evaluates one prediction (a JSON file) against the
--evidence and --ground-truth files given (repeat the flags for several).

Each stage gets a verdict (pass, fail, uncertain, not_applicable), the
verdicts of its upstream stages and a failure context (current_stage,
upstream, upstream_or_combined, indeterminate). The JSON report goes to
--output (standard output by default), the Markdown summary to --markdown.

--judge picks the model judge that decides what deterministic metrics
cannot (images, PDFs, semantic references, rubrics): openai (Responses
API), anthropic (Messages API) or command (a local program: the request
JSON on stdin, the answer JSON on stdout, for Ollama, vLLM or a script).
--judge auto uses OpenAI when OPENAI_API_KEY is set, else Anthropic when
ANTHROPIC_API_KEY is set, else (like --judge none) deterministic metrics
only. Judge calls are retried on HTTP 429 and 5xx, honouring retry-after,
bounded per provider, and with --checkpoint-dir each answer is kept so a
rerun never pays for the same judgment twice.

--judge-samples K asks the judge K times about each stage (the first answer
decides) and reports, per judge model, the share of stages whose verdict
changed; --shuffle-references asks once more with the references in a
second order, seeded by "docscore-shuffle-references/1|CASE_ID|STAGE_ID"
(FNV-1a, SplitMix64), and reports the verdicts that flip. Changed and
flipped stages go to the review queue. The report's "agreement" member also
gives Krippendorff's alpha over the judges of a stage and each panel judge's
dissent rate. --human-verdicts FILE (kind "docscore-human-verdicts": a
person's pass, fail or not_applicable per case, stage and metric) adds
agreement.human: per judge, Cohen's kappa against the person and the
confusion matrix (judge verdict x human verdict).
` + costHelp() + `

` + batchHelp + `

` + judgeEnvHelp,
			Example: `  docscore eval --cases examples/harness/pipeline/cases.json --markdown report.md --output report.json
  docscore eval --prediction output.json --ground-truth truth.csv --evidence source.pdf --judge none
  docscore eval --cases cases.jsonl --checkpoint-dir runs/ckpt --checkpoint-context prompt=v3 --fail-on fail
  OPENAI_API_KEY=… docscore eval --cases cases.json --judge openai --model gpt-5-mini --reasoning-effort low
  OPENAI_API_KEY=… docscore eval --cases cases.json --judge openai --model gpt-5-mini --max-cost 2.50 --prices my-prices.toml
  docscore eval --cases examples/judges/cases.json --judge command --judge-command 'go run ./examples/judges/localjudge' --model localjudge`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if (casesFile == "") == (prediction == "") {
					return usageError("give either --cases FILE or --prediction FILE")
				}
				if casesFile != "" && (len(evidence) > 0 || len(groundTruth) > 0 || caseID != "" || operation != "" || rubric != "") {
					return usageError("--evidence, --ground-truth, --case-id, --operation and --rubric go with --prediction, not --cases")
				}
				if allowOutside && casesFile == "" {
					return usageError("--allow-outside-paths goes with --cases")
				}
				if err := checkFormat(failOn, "none", "fail", "uncertain"); err != nil {
					return usageError("--fail-on %q: expected none, fail or uncertain", failOn)
				}
				if markdown == "-" && output == "-" {
					return usageError("--output and --markdown cannot both go to standard output")
				}
				ctxMap := map[string]string{}
				for _, kv := range ctxPairs {
					k, v, ok := strings.Cut(kv, "=")
					if !ok || strings.TrimSpace(k) == "" {
						return usageError("--checkpoint-context %q: expected KEY=VALUE", kv)
					}
					ctxMap[strings.TrimSpace(k)] = v
				}
				userCtx := sortedContext(ctxMap)
				settings, err := jf.settings(env)
				if err != nil {
					return err
				}
				adapter, judgeName, err := resolveJudge(env, judge, settings)
				if err != nil {
					return err
				}
				ctxMap["docscore.judge"] = judgeName
				if judgeSamples < 1 || judgeSamples > maxJudgeSamples {
					return usageError("--judge-samples %d: expected 1 to %d", judgeSamples, maxJudgeSamples)
				}
				if adapter == nil && (judgeSamples > 1 || shuffleRefs) {
					return usageError("--judge-samples and --shuffle-references ask a model judge again: give --judge openai, anthropic or command (the judge is %s)", judgeName)
				}
				if adapter != nil {
					settings.context(ctxMap, adapter)
				}
				var people *harness.HumanVerdicts
				var hostInputs []provenance.Input
				if humanFile != "" {
					data, err := readPath(env, "--human-verdicts", humanFile)
					if err != nil {
						return err
					}
					if people, err = harness.ReadHumanVerdicts(data, humanFile); err != nil {
						return err
					}
					hostInputs = append(hostInputs, provenance.NewInput("human_verdicts", humanFile, data))
				}

				// Both forms run through the evaluate operation, the code the
				// page and the HTTP API run, with what only the command line
				// gives: the loader that keeps reference paths in the cases
				// file's folder, the model judge, checkpoints and usage.
				req := evalapi.EvalRequest{Evaluator: harness.EvaluatorOptions{
					JudgeName: judgeName, CheckpointContext: sortedContext(ctxMap),
					JudgeProbes: judging.JudgeProbes{Samples: judgeSamples, ShuffleReferences: shuffleRefs},
				}}
				if err := notOverInputs(env, []named{{"--output", output}, {"--markdown", markdown}},
					append(append([]named{{"--cases", casesFile}, {"--prediction", prediction}, {"--human-verdicts", humanFile}},
						flagged("--evidence", evidence...)...), flagged("--ground-truth", groundTruth...)...)); err != nil {
					return err
				}
				if casesFile != "" {
					if req.Cases, req.Loader, err = readCasesFile(env, casesFile, allowOutside); err != nil {
						return err
					}
				} else {
					// The direct form has no cases file to read: its one case
					// is built from the flags (directCase), and the operation
					// evaluates that CaseFile.
					var read []provenance.Input
					if req.CaseFile, read, err = directCase(env, prediction, caseID, operation, rubric, evidence, groundTruth); err != nil {
						return err
					}
					hostInputs = append(read, hostInputs...)
					req.HostOptions = []provenance.Option{api.Option("case_id", caseID), api.Option("operation", operation), api.Option("rubric", rubric)}
				}
				req.HostInputs = hostInputs
				store, err := openStore(checkpointDir)
				if err != nil {
					return err
				}
				var plan *modeladapter.Plan
				if _, ok := adapter.(modeladapter.Estimator); ok {
					// The estimate: the same evaluation through adapters
					// that record each request and send none, with the
					// checkpoints read and none written.
					if plan, err = settings.newPlan(store); err != nil {
						return err
					}
					dry := req
					dry.Usage = nil
					var called judging.ModelAdapter = plan.Wrap(adapter)
					if store != nil {
						dry.Evaluator.Checkpoints = readOnlyStore{store}
						called = &judging.CachedAdapter{Adapter: called, Store: dry.Evaluator.Checkpoints, Context: userCtx}
					}
					dry.Evaluator.Judge = &judging.ModelJudge{Adapter: called}
					if _, _, err := evalapi.EvaluateReport(env.Context, &dry); err != nil {
						return err
					}
					if err := reportEstimate(env, settings, plan); err != nil {
						return err
					}
				}
				var (
					res    *api.Result
					report *harness.Report
					final  evalapi.EvalRequest // the request evaluated, the files it read
				)
				// One pass, or (--batch) as many as the batches need.
				sc, err := settings.runJudged(env, store, func(sc *batchScope) error {
					r := req
					r.Evaluator.Checkpoints = sc.store
					if adapter != nil {
						a, err := sc.wrap(adapter)
						if err != nil {
							return err
						}
						// Answers are keyed by the request, the model and its
						// settings, and the user's checkpoint context.
						r.Evaluator.Judge = &judging.ModelJudge{Adapter: sc.cached(a, userCtx)}
						r.Usage = usageList(append([]any{adapter}, sc.usage()...))
					}
					var err error
					res, report, err = evalapi.EvaluateReport(env.Context, &r)
					final = r
					return err
				})
				if err != nil {
					return err
				}
				if people != nil {
					if err := report.CompareWithPeople(people); err != nil {
						// Keep what the judges answered (a batch's answers
						// are only buffered until commit): a corrected file
						// then costs no call.
						if cerr := sc.commit(); cerr != nil {
							return cerr
						}
						return err
					}
				}
				if report.JudgeUsage != nil && plan != nil {
					decorateUsage(report.JudgeUsage, settings, plan)
				}
				if people != nil || (report.JudgeUsage != nil && plan != nil) {
					if res.Bytes, err = evalapi.EncodeReport(report, res.Format); err != nil {
						return err
					}
					// The provenance (SPEC F.8) again, last.
					if err := evalapi.EvaluateOperation().Stamp(&final, res); err != nil {
						return err
					}
				}
				if output != "" || markdown != "-" {
					if err := writeOutput(env, "--output", output, res.Bytes); err != nil {
						return err
					}
				}
				if markdown != "" {
					md, err := evalapi.EncodeReport(report, "md")
					if err != nil {
						return err
					}
					if err := writeOutput(env, "--markdown", markdown, md); err != nil {
						return err
					}
				}
				if err := sc.commit(); err != nil {
					return err
				}
				if report.Incomplete {
					return incomplete(settings, len(report.NotJudged))
				}
				switch {
				case failOn == "fail" && report.HasVerdict(evalcase.Fail):
					return &ExitError{Code: ExitThreshold, Err: fmt.Errorf("--fail-on fail: %d stage(s) failed", report.Summary.Fail)}
				case failOn == "uncertain" && report.HasVerdict(evalcase.Fail, evalcase.Uncertain):
					return &ExitError{Code: ExitThreshold, Err: fmt.Errorf("--fail-on uncertain: %d stage(s) failed, %d uncertain", report.Summary.Fail, report.Summary.Uncertain)}
				}
				return nil
			},
		}
		fl := c.Flags()
		fl.StringVar(&casesFile, "cases", "", "JSON or JSONL cases file (\"-\" for standard input)")
		fl.BoolVar(&allowOutside, "allow-outside-paths", false, "let the --cases file name files outside its folder (absolute paths, \"..\", links out of it)")
		fl.StringVar(&prediction, "prediction", "", "a prediction JSON file to evaluate on its own")
		fl.StringArrayVar(&evidence, "evidence", nil, "an evidence file (PDF, image, OCR text); repeat for several")
		fl.StringArrayVar(&groundTruth, "ground-truth", nil, "a ground-truth file (JSON, path/value CSV, table, notes); repeat for several")
		fl.StringVar(&caseID, "case-id", "", "case id with --prediction (default: the prediction file's name)")
		fl.StringVar(&operation, "operation", "", "operation name with --prediction")
		fl.StringVar(&rubric, "rubric", "", "success rule with --prediction")
		fl.StringVar(&output, "output", "", "write the JSON report here (default: standard output)")
		fl.StringVar(&markdown, "markdown", "", "write the Markdown summary here (\"-\" for standard output)")
		fl.StringVar(&checkpointDir, "checkpoint-dir", "", "keep a checkpoint of every completed stage here and reuse matching ones")
		fl.StringArrayVar(&ctxPairs, "checkpoint-context", nil, "KEY=VALUE that a checkpoint must match to be reused (judge model, prompt version); repeat for several")
		fl.StringVar(&humanFile, "human-verdicts", "", "a person's verdicts on judged stages (JSON, kind docscore-human-verdicts): report each judge's Cohen's kappa against them")
		fl.StringVar(&judge, "judge", "auto", "model judge: "+strings.Join(judgeNames(), ", ")+" (auto: OpenAI, else Anthropic when its key is set, else deterministic metrics only)")
		addJudgeFlags(c, &jf, true)
		fl.IntVar(&judgeSamples, "judge-samples", 1, "ask the judge this many times per stage and report how often its verdict changes")
		fl.BoolVar(&shuffleRefs, "shuffle-references", false, "ask the judge again with the references in a second, seeded order and report the verdicts that flip")
		fl.StringVar(&failOn, "fail-on", "none", "exit 3 when a stage's verdict is fail (fail) or fail or uncertain (uncertain)")
		return c
	})
}

// maxJudgeSamples bounds --judge-samples: each sample is a paid call.
const maxJudgeSamples = 20

func sortedContext(m map[string]string) map[string]string {
	// encoding/json sorts map keys, so the context's fingerprint does not
	// depend on flag order; a copy keeps the caller's map private.
	out := make(map[string]string, len(m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out[k] = m[k]
	}
	return out
}

// readCasesFile reads the --cases file and returns the loader of the
// paths it names: they are read relative to its folder (the current one
// for standard input) and may not leave it unless allowOutside.
func readCasesFile(env *Env, path string, allowOutside bool) (api.File, casefile.Loader, error) {
	f, err := readInput(env, "--cases", path)
	if err != nil {
		return api.File{}, nil, err
	}
	dir := filepath.Dir(path)
	if path == "-" {
		dir = "."
	}
	return api.File{Name: f.Name, Text: string(f.Data)}, harnessio.DirLoader(dir, allowOutside, env.inputs()), nil
}

// usageList gathers the usage records of the judge's adapter and of its
// checkpoint cache, when they keep any, for the report's judge_usage.
type usageList []any

// UsageRecords lists the records, adapter by adapter.
func (l usageList) UsageRecords() []judging.UsageRecord { return usageOf(l...) }

// directCase builds a one-case file from --prediction, --evidence and
// --ground-truth.
func directCase(env *Env, prediction, caseID, operation, rubric string, evidence, groundTruth []string) (*casefile.CaseFile, []provenance.Input, error) {
	rd := env.inputs()
	data, err := readPath(env, "--prediction", prediction)
	if err != nil {
		return nil, nil, err
	}
	pred, err := evalcase.ParseJSONValue(data, prediction)
	if err != nil {
		return nil, nil, err
	}
	// The prediction under the name the report's source gives it.
	in := provenance.NewInput("prediction", prediction, data)
	in.Name = prediction
	inputs := []provenance.Input{in}
	if caseID == "" {
		caseID = strings.TrimSuffix(filepath.Base(prediction), filepath.Ext(prediction))
	}
	c := evalcase.EvaluationCase{CaseID: caseID, Operation: operation, Rubric: rubric, Prediction: pred}
	ids := map[string]string{}
	add := func(flag, path string, auth evalcase.Authority) error {
		a, err := harnessio.ReadArtifact(rd, path, evalcase.ArtifactOptions{Authority: auth})
		if err != nil {
			if os.IsNotExist(err) {
				return usageError("--%s: %v", flag, err)
			}
			return err
		}
		if prev, dup := ids[a.ArtifactID]; dup {
			return usageError("--%s %s: a reference named %q was already given (%s)", flag, path, a.ArtifactID, prev)
		}
		ids[a.ArtifactID] = path
		c.References = append(c.References, a)
		// Described for the provenance (SPEC F.8): a second read of a
		// file ReadArtifact read whole.
		b, err := rd.ReadFile(path)
		if err != nil {
			return inputReadError("--"+flag+" "+path, err)
		}
		inputs = append(inputs, provenance.NewInput(strings.ReplaceAll(flag, "-", "_"), path, b))
		return nil
	}
	for _, p := range evidence {
		if err := add("evidence", p, evalcase.AuthorityEvidence); err != nil {
			return nil, nil, err
		}
	}
	for _, p := range groundTruth {
		if err := add("ground-truth", p, evalcase.AuthorityGroundTruth); err != nil {
			return nil, nil, err
		}
	}
	return &casefile.CaseFile{Name: prediction, Cases: []evalcase.EvaluationCase{c}}, inputs, nil
}
