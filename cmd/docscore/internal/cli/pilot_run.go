package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/pilot"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/runfile"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// pilotRunFlags holds the command line of docscore pilot run; each value
// replaces the configuration file's when its flag is given.
type pilotRunFlags struct {
	config                                  string
	dataset, datasetName, datasetRev, split string
	offset, limit                           int
	engine, command                         string
	baseURL, model, extra, apiKeyEnv        string
	maxTokens                               int
	temperature                             float64
	prompt, promptFile                      string
	concurrency                             string
	deadline, grace                         string
	out                                     string
	quiet                                   bool
	gpuMinFree, gpuIndex                    int
	serverCmd, serverLog, healthURL         string
	healthTimeout, containerLabel           string
}

func init() {
	register("pilot", "run", func(env *Env) *cobra.Command {
		var o pilotRunFlags
		c := &cobra.Command{
			Use:   "run --dataset PATH (--base-url URL --model NAME | --command 'PROGRAM {image} …') --out RUN.jsonl",
			Short: "Run a pilot: send every image to a model server or a local command, recording each request",
			Long: `Run a pilot (SPEC B.4) and write its run file (SPEC B.2), one JSONL record
per terminal request, each appended and fsynced as it ends.

Preparation comes first: every image is hashed and every label read, and the
run header records the plan (phases and sample ids), the dataset, the model
settings, the prompt and its SHA-256, the deadline and each sample's image
hash and original label. Then each image gets one warmup request (one at a
time; a failed warmup stops measured work and the file ends with an end record
saying why), then the measured phases run in order, one per --concurrency value
(phases c1, c4, …), each request with its own --deadline and no retries.

Dataset (--dataset): a directory of images (.png .jpg .jpeg .webp .gif .bmp
.tif .tiff) labelled by CORD JSON of the same stem (or <stem>.reference.txt,
plain text); a naver-clova-ix/cord-v2 .parquet file (or a directory of them),
whose rows become cord-<split>-<NNNN>; or a .jsonl manifest of
{"sample_id": "…", "image": "path", "reference": "…" | "ground_truth": {…}},
image paths relative to the manifest. --offset and --limit pick the rows.

Engines:
  openai   an OpenAI-compatible chat completions server (vLLM, SGLang,
           llama.cpp, Ollama) at --base-url (such as http://localhost:8000/v1):
           the prompt as a text part, the image as a base64 data URL part.
           The API key comes from OPENAI_API_KEY, or the variable named by
           --api-key-env; it is never written anywhere. Statuses: ok (2xx chat
           completion), http_error (another HTTP status, recorded; or a 2xx
           body that is not a chat completion), transport_error (no complete
           answer), timeout (the deadline), cancelled (Ctrl-C).
  command  a local program per image, run by /bin/sh -c with {image} (and
           {sample_id}) replaced by the shell-quoted path: standard output is
           the output. Exit 0 is ok (finish reason stop); another exit status
           is http_error with exit_code recorded, 126/127 (cannot run) and a
           foreign signal are transport_error; deadline and Ctrl-C as above.
The engine is inferred from --base-url or --command when --engine is left out.

Sampling (openai engine): every request sends "temperature: 0" (greedy
decoding, so that a rerun reads the same) unless --temperature or the
configuration's [model] temperature gives another value, and max_tokens
(--max-tokens, default ` + strconv.Itoa(pilot.DefaultMaxTokens) + `). The run header records both. A server
whose model card recommends another temperature gets 0 all the same: give it
with --temperature. --extra adds other members (top_p, …) but cannot replace
these two.

Resume: rerunning with the same --out checks that the file's header describes
the same run (plan, prompt hash, model and engine settings, dataset, image
hashes; otherwise it refuses, listing the differences), skips the pairs
already recorded and never records one twice. A partial last line left by a
crash is moved to <out>.partial-<time> and cut off. Ctrl-C stops new
requests, gives in-flight ones --grace to finish, then cancels them (recorded
as cancelled) and ends the file with an end record "interrupted" (exit 1); a
second Ctrl-C cancels them at once, a third ends the process (no recorded
request is lost either way).

GPU procedure (all optional): --container-label KEY=VALUE removes the
containers with that label (docker ps -a --filter label=KEY=VALUE; no other
container is touched) before the server starts and after it stops;
--gpu-min-free-mib N refuses to start unless nvidia-smi reports N MiB free on
GPU --gpu-index; --server-cmd starts the server (its output in --server-log,
default <out>.server.log); --health-url is polled until it answers 2xx (at
most --health-timeout); the server is stopped (SIGTERM, then SIGKILL) at the
end.

Configuration file (--config, TOML; flags win over it; relative paths are
relative to the file):
  out = "run.jsonl"            engine = "openai"     command = "…"
  concurrency = [1, 4]         deadline = "120s"     grace = "10s"   quiet = false
  [dataset] path, name, revision, split, offset, limit
  [prompt]  file | text
  [model]   base_url, name, max_tokens, temperature, api_key_env
  [model.extra] any extra request members (top_p = 1, …)
  [gpu]     min_free_mib, index, server_cmd, server_log, health_url,
            health_timeout, container_label

Progress goes to standard error: a progress bar per phase on a terminal (done/
total, failures, requests per second, time left), one line per request
otherwise, nothing but notes with --quiet. Exit 0 when the run is complete
(whatever the statuses of its requests), 1 when it was interrupted or a
warmup failed, 2 for bad settings or input.`,
			Example: `  docscore pilot run --dataset sample/receipts/real --command 'tesseract {image} - --psm 6' \
      --concurrency 1,4 --deadline 60s --out run.jsonl
  docscore pilot run --dataset cord-v2/test-00000-of-00001.parquet --limit 24 \
      --dataset-name naver-clova-ix/cord-v2 --dataset-revision 7f0115a4b758a71d6473b8d085751692da2fef98 \
      --base-url http://localhost:8000/v1 --model nvidia/NVIDIA-Nemotron-Parse-v1.1 \
      --prompt '</s><s><predict_bbox><predict_classes><output_markdown>' --out nemotron.jsonl
  docscore pilot run --config pilot.toml --gpu-min-free-mib 40000 --container-label docscore.pilot=nemotron \
      --server-cmd 'docker run --rm --gpus all --label docscore.pilot=nemotron -p 8000:8000 vllm/vllm-openai …' \
      --health-url http://localhost:8000/health`,
			Args: cobra.NoArgs,
			RunE: func(c *cobra.Command, args []string) error {
				return runPilot(env, c.Flags(), &o)
			},
		}
		f := c.Flags()
		f.StringVar(&o.config, "config", "", "TOML configuration file (flags win over it)")
		f.StringVar(&o.dataset, "dataset", "", "images directory, cord-v2 .parquet file or directory, or .jsonl manifest")
		f.StringVar(&o.datasetName, "dataset-name", "", "dataset name for the header (default: the dataset path's base name)")
		f.StringVar(&o.datasetRev, "dataset-revision", "", "dataset revision for the header, such as a commit hash")
		f.StringVar(&o.split, "dataset-split", "", "dataset split for the header (default: the parquet rows' split)")
		f.IntVar(&o.offset, "offset", 0, "skip this many dataset rows")
		f.IntVar(&o.limit, "limit", 0, "use at most this many rows (0: all)")
		f.StringVar(&o.engine, "engine", "", "openai or command (default: inferred from --base-url or --command)")
		f.StringVar(&o.command, "command", "", "command engine: program to run per image, with {image}, e.g. 'tesseract {image} - --psm 6'")
		f.StringVar(&o.baseURL, "base-url", "", "openai engine: the server's API root, e.g. http://localhost:8000/v1")
		f.StringVar(&o.model, "model", "", "model name (openai: as the server serves it; command: a label, default the program)")
		f.IntVar(&o.maxTokens, "max-tokens", pilot.DefaultMaxTokens, "openai engine: max_tokens of each request")
		f.Float64Var(&o.temperature, "temperature", 0, "openai engine: sampling temperature; 0 (greedy) is sent when it is left out")
		f.StringVar(&o.extra, "extra", "", `openai engine: extra request members as a JSON object, e.g. '{"top_p": 1}'`)
		f.StringVar(&o.apiKeyEnv, "api-key-env", "", "openai engine: the environment variable holding the API key (default OPENAI_API_KEY)")
		f.StringVar(&o.prompt, "prompt", "", "the prompt text (openai engine)")
		f.StringVar(&o.promptFile, "prompt-file", "", "a file holding the prompt (openai engine)")
		f.StringVar(&o.concurrency, "concurrency", "1,4", "measured phases: one per concurrency value, in order")
		f.StringVar(&o.deadline, "deadline", "120s", "deadline of each request")
		f.StringVar(&o.grace, "grace", "10s", "after Ctrl-C, how long in-flight requests may finish before they are cancelled")
		f.StringVar(&o.out, "out", "", "the run file (JSONL) to write, or to resume when it exists (required)")
		f.BoolVar(&o.quiet, "quiet", false, "no progress output")
		f.IntVar(&o.gpuMinFree, "gpu-min-free-mib", 0, "refuse to start unless nvidia-smi reports this much free memory (MiB)")
		f.IntVar(&o.gpuIndex, "gpu-index", 0, "the GPU --gpu-min-free-mib checks (nvidia-smi's order)")
		f.StringVar(&o.serverCmd, "server-cmd", "", "start the model server with this shell command, stop it at the end")
		f.StringVar(&o.serverLog, "server-log", "", "file for the server's output (default <out>.server.log)")
		f.StringVar(&o.healthURL, "health-url", "", "poll this URL until it answers 2xx before any request")
		f.StringVar(&o.healthTimeout, "health-timeout", "10m", "how long --health-url may take to answer 2xx")
		f.StringVar(&o.containerLabel, "container-label", "", "remove containers with this label (KEY=VALUE) before and after; no others")
		return c
	})
}

func runPilot(env *Env, flags *pflag.FlagSet, o *pilotRunFlags) error {
	cfg := &pilot.Config{}
	if o.config != "" {
		loaded, err := pilot.LoadConfig(o.config)
		if err != nil {
			return err
		}
		cfg = loaded
	}
	if err := applyPilotFlags(cfg, flags, o); err != nil {
		return err
	}
	opts, err := pilot.Prepare(cfg, env.Getenv, currentBuild().Version)
	if err != nil {
		var ue *pilot.UsageError
		if errors.As(err, &ue) {
			return usageError("%v", ue.Err)
		}
		return err
	}
	defer opts.Engine.Close()
	opts.Progress = pilot.NewProgress(env.Stderr, env.IsTerminal, cfg.Quiet)
	opts.Abort = env.Abort
	sum, err := pilot.Run(env.Context, *opts)
	if sum != nil && !sum.AlreadyComplete {
		status := sum.Status
		if status == "" {
			status = runfile.EndInterrupted
		}
		fmt.Fprintf(env.Stderr, "pilot: run %s %s: %d request record(s) written to %s this time, %d not ok\n",
			sum.RunID, status, sum.Written, sum.Out, sum.Failed)
	}
	if err != nil {
		var ue *pilot.UsageError
		if errors.As(err, &ue) {
			return usageError("%v", ue.Err)
		}
		if _, ok := inputerr.As(err); ok {
			return err // a run file that cannot be resumed: exit 2
		}
		return &ExitError{Code: ExitFailure, Err: err}
	}
	return nil
}

// applyPilotFlags copies every given flag into cfg.
func applyPilotFlags(cfg *pilot.Config, flags *pflag.FlagSet, o *pilotRunFlags) error {
	set := func(name string, apply func() error) error {
		if flags.Changed(name) {
			return apply()
		}
		return nil
	}
	str := func(name string, dst *string, v string) error {
		return set(name, func() error { *dst = v; return nil })
	}
	dur := func(name, v string, dst **pilot.Duration) error {
		return set(name, func() error {
			d, err := pilot.ParseDuration(v)
			if err != nil {
				return usageError("--%s: %v", name, err)
			}
			*dst = &pilot.Duration{Duration: d}
			return nil
		})
	}
	steps := []error{
		str("dataset", &cfg.Dataset.Path, o.dataset),
		str("dataset-name", &cfg.Dataset.Name, o.datasetName),
		str("dataset-revision", &cfg.Dataset.Revision, o.datasetRev),
		str("dataset-split", &cfg.Dataset.Split, o.split),
		set("offset", func() error { cfg.Dataset.Offset = o.offset; return nil }),
		set("limit", func() error { cfg.Dataset.Limit = o.limit; return nil }),
		str("engine", &cfg.Engine, o.engine),
		str("command", &cfg.Command, o.command),
		str("base-url", &cfg.Model.BaseURL, o.baseURL),
		str("model", &cfg.Model.Name, o.model),
		set("max-tokens", func() error { v := o.maxTokens; cfg.Model.MaxTokens = &v; return nil }),
		set("temperature", func() error {
			if err := param.Float("--temperature", o.temperature, param.Temperature); err != nil {
				return err
			}
			v := o.temperature
			cfg.Model.Temperature = &v
			return nil
		}),
		str("extra", &cfg.Model.ExtraJSON, o.extra),
		str("api-key-env", &cfg.Model.APIKeyEnv, o.apiKeyEnv),
		set("prompt", func() error { cfg.Prompt = pilot.PromptConfig{Text: o.prompt}; return nil }),
		set("prompt-file", func() error {
			if flags.Changed("prompt") {
				return usageError("give the prompt once: --prompt-file or --prompt, not both")
			}
			cfg.Prompt = pilot.PromptConfig{File: o.promptFile}
			return nil
		}),
		set("concurrency", func() error {
			var cs []int
			for _, part := range strings.Split(o.concurrency, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(part))
				if err != nil {
					return usageError("--concurrency %q: expected comma-separated numbers such as 1,4", o.concurrency)
				}
				cs = append(cs, n)
			}
			cfg.Concurrency = cs
			return nil
		}),
		dur("deadline", o.deadline, &cfg.Deadline),
		dur("grace", o.grace, &cfg.Grace),
		str("out", &cfg.Out, o.out),
		set("quiet", func() error { cfg.Quiet = o.quiet; return nil }),
		set("gpu-min-free-mib", func() error { cfg.GPU.MinFreeMiB = o.gpuMinFree; return nil }),
		set("gpu-index", func() error { cfg.GPU.Index = o.gpuIndex; return nil }),
		str("server-cmd", &cfg.GPU.ServerCmd, o.serverCmd),
		str("server-log", &cfg.GPU.ServerLog, o.serverLog),
		str("health-url", &cfg.GPU.HealthURL, o.healthURL),
		dur("health-timeout", o.healthTimeout, &cfg.GPU.HealthTimeout),
		str("container-label", &cfg.GPU.ContainerLabel, o.containerLabel),
	}
	for _, err := range steps {
		if err != nil {
			return err
		}
	}
	return nil
}
