package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter"
	"github.com/docscore/docscore/cmd/docscore/internal/prices"
	"github.com/docscore/docscore/scoring/judging"
	"github.com/docscore/docscore/scoring/param"
	"github.com/spf13/cobra"
)

// The environment variables the judge flags read. Keys are read only
// from the process environment (never from a .env file).
const (
	envOpenAIKey       = "OPENAI_API_KEY"
	envAnthropicKey    = "ANTHROPIC_API_KEY"
	envOpenAIBase      = "OPENAI_BASE_URL"
	envAnthropicBase   = "ANTHROPIC_BASE_URL"
	envModel           = "DOCSCORE_JUDGE_MODEL"
	envModelSeed       = "VISUAL_EVAL_MODEL"
	envEffort          = "DOCSCORE_REASONING_EFFORT"
	envEffortSeed      = "VISUAL_EVAL_REASONING_EFFORT"
	judgeEnvHelp       = "Judge keys come only from OPENAI_API_KEY and ANTHROPIC_API_KEY in the process environment; a .env file is never read. OPENAI_BASE_URL and ANTHROPIC_BASE_URL point the adapters at another server. The model defaults to DOCSCORE_JUDGE_MODEL (or VISUAL_EVAL_MODEL), the reasoning effort to DOCSCORE_REASONING_EFFORT (or VISUAL_EVAL_REASONING_EFFORT)."
	defaultJudgeLimit  = 4
	defaultJudgeTimout = 120 * time.Second
)

// judgeFlags are the flags every command that calls models shares.
type judgeFlags struct {
	model, effort, command string
	temperature            float64
	concurrency, retries   int
	timeout, backoff       time.Duration
	priceIn, priceCached   float64
	priceOut               float64
	pricesFile             string
	maxCost                float64
	maxOutput              int64
	batch, resubmit        bool
	batchPoll              time.Duration
	cmd                    *cobra.Command
}

// addJudgeFlags adds the judge flags; withModel adds --model and
// --judge-command (commands that name one judge).
func addJudgeFlags(c *cobra.Command, f *judgeFlags, withModel bool) {
	f.cmd = c
	fl := c.Flags()
	if withModel {
		fl.StringVar(&f.model, "model", "", "judge model id (default $"+envModel+" or $"+envModelSeed+"); required for openai and anthropic")
		fl.StringVar(&f.command, "judge-command", "", "the program the command adapter runs: request JSON on stdin, answer JSON on stdout (split like a shell would, without a shell)")
	}
	fl.StringVar(&f.effort, "reasoning-effort", "", "reasoning effort sent to the model (OpenAI reasoning.effort, Anthropic output_config.effort); default $"+envEffort+" or $"+envEffortSeed)
	fl.Float64Var(&f.temperature, "temperature", 0, "sampling temperature (OpenAI; the Anthropic API takes none); default: the provider's")
	fl.IntVar(&f.concurrency, "judge-concurrency", defaultJudgeLimit, "model calls in flight per provider")
	fl.IntVar(&f.retries, "judge-retries", 4, "retries of a judge call after HTTP 429 or 5xx (backoff from 1s, or the provider's retry-after)")
	fl.DurationVar(&f.timeout, "judge-timeout", defaultJudgeTimout, "deadline of one judge call")
	fl.DurationVar(&f.backoff, "judge-backoff", time.Second, "first wait before a retry; it doubles up to 30s (a longer retry-after wins)")
	fl.Float64Var(&f.priceIn, "price-input", 0, "US dollars per million input tokens, to price usage (with --price-output)")
	fl.Float64Var(&f.priceCached, "price-cached-input", 0, "US dollars per million cached input tokens (default: the input price)")
	fl.Float64Var(&f.priceOut, "price-output", 0, "US dollars per million output tokens")
	fl.StringVar(&f.pricesFile, "prices", "", "price table (TOML) to price calls and estimate the run's cost (default: the "+prices.BundledDescription()+")")
	fl.Float64Var(&f.maxCost, "max-cost", 0, "cost ceiling in US dollars: refuse to start when the estimate exceeds it (exit 2), stop issuing calls before spending more (the report lists the items not judged; exit 1)")
	fl.Int64Var(&f.maxOutput, "max-output-tokens", 0, "bound on each answer's tokens (default: the provider's for OpenAI, 8192 for Anthropic; 8192 for both with --max-cost); the estimate's output")
	fl.BoolVar(&f.batch, "batch", false, "send the judge requests through the provider's batch API (OpenAI, Anthropic): half price, answers within 24h; needs --checkpoint-dir")
	fl.BoolVar(&f.resubmit, "resubmit", false, "with --batch: send again the requests of an expired, cancelled or failed batch and the items it answered with an error")
	fl.DurationVar(&f.batchPoll, "batch-poll", 0, "with --batch: first polling interval, doubling up to 2m (default 5s, or $"+envBatchPoll+")")
}

// judgeSettings are the resolved flags and environment.
type judgeSettings struct {
	model, effort, command string
	temperature            *float64
	prices                 *judging.Prices
	policy                 modeladapter.Policy
	limiter                *modeladapter.Limiter
	// table prices each model (unless --price-* flags gave prices);
	// budget is the --max-cost ceiling (nil without one); maxOutput the
	// --max-output-tokens bound (0: the adapter's default).
	table     *prices.Table
	budget    *modeladapter.Budget
	maxOutput int64
	// warn receives a warning line (an unpriced model).
	warn            func(string)
	batch, resubmit bool
	batchPoll       time.Duration
}

func (f *judgeFlags) settings(env *Env) (judgeSettings, error) {
	s := judgeSettings{model: f.model, effort: f.effort, command: f.command}
	if s.model == "" {
		s.model = firstNonEmpty(env.Getenv(envModel), env.Getenv(envModelSeed))
	}
	if s.effort == "" {
		s.effort = firstNonEmpty(env.Getenv(envEffort), env.Getenv(envEffortSeed))
	}
	fl := f.cmd.Flags()
	if fl.Changed("temperature") {
		if err := param.Float("--temperature", f.temperature, param.Temperature); err != nil {
			return s, err
		}
		t := f.temperature
		s.temperature = &t
	}
	if fl.Changed("price-input") || fl.Changed("price-output") || fl.Changed("price-cached-input") {
		for _, p := range []struct {
			flag  string
			value float64
		}{{"--price-input", f.priceIn}, {"--price-cached-input", f.priceCached}, {"--price-output", f.priceOut}} {
			if err := param.Float(p.flag, p.value, param.NonNegative); err != nil {
				return s, err
			}
		}
		p := judging.Prices{InputPerMTok: f.priceIn, CachedInputPerMTok: f.priceCached, OutputPerMTok: f.priceOut}
		if err := p.Validate(); err != nil {
			return s, usageError("--price-*: %v", err)
		}
		s.prices = &p
	}
	s.table = prices.Bundled()
	if f.pricesFile != "" {
		t, err := prices.Load(f.pricesFile)
		if err != nil {
			return s, &ExitError{Code: ExitInput, Err: err}
		}
		s.table = t
	}
	if fl.Changed("max-cost") {
		if err := param.Float("--max-cost", f.maxCost, param.NonNegative); err != nil {
			return s, err
		}
		s.budget = modeladapter.NewBudget(f.maxCost)
	}
	if f.maxOutput < 0 || (fl.Changed("max-output-tokens") && f.maxOutput == 0) {
		return s, usageError("--max-output-tokens %d: expected 1 or more", f.maxOutput)
	}
	s.maxOutput = f.maxOutput
	s.warn = func(line string) { fmt.Fprintln(env.Stderr, "docscore: warning: "+line) }
	if f.concurrency < 1 {
		return s, usageError("--judge-concurrency %d: expected 1 or more", f.concurrency)
	}
	if f.retries < 0 {
		return s, usageError("--judge-retries %d: expected 0 or more", f.retries)
	}
	if f.timeout <= 0 {
		return s, usageError("--judge-timeout %s: expected a positive duration", f.timeout)
	}
	p := modeladapter.DefaultPolicy()
	if f.backoff <= 0 {
		return s, usageError("--judge-backoff %s: expected a positive duration", f.backoff)
	}
	p.Retries, p.Timeout, p.InitialBackoff = f.retries, f.timeout, f.backoff
	p.Log = func(line string) { fmt.Fprintln(env.Stderr, "docscore: "+line) }
	s.policy = p
	s.limiter = modeladapter.NewLimiter(f.concurrency)
	return s, f.batchSettings(env, &s)
}

// context lists the settings that change a judge's answers, for the
// checkpoint context.
func (s judgeSettings) context(m map[string]string, a judging.ModelAdapter) {
	info := a.Info()
	m["docscore.judge_provider"] = info.Provider
	m["docscore.judge_model"] = info.Model
	if info.ReasoningEffort != "" {
		m["docscore.reasoning_effort"] = info.ReasoningEffort
	}
	if info.Temperature != nil {
		m["docscore.temperature"] = fmt.Sprint(*info.Temperature)
	}
	if c := info.Settings["command"]; c != "" {
		m["docscore.judge_command"] = c
	}
}

func needModel(provider string, s judgeSettings) error {
	if s.model == "" {
		return usageError("--judge %s needs a model: give --model or set %s", provider, envModel)
	}
	return nil
}

func init() {
	judgeProviders = append(judgeProviders,
		judgeProvider{
			name:      "openai",
			available: func(env *Env) bool { return env.Getenv(envOpenAIKey) != "" },
			build: func(env *Env, s judgeSettings) (judging.ModelAdapter, error) {
				if err := needModel("openai", s); err != nil {
					return nil, err
				}
				key := env.Getenv(envOpenAIKey)
				if key == "" {
					return nil, usageError("--judge openai: %s is not set in the environment", envOpenAIKey)
				}
				p, bp, err := s.priceOf("openai")
				if err != nil {
					return nil, err
				}
				a, err := modeladapter.NewOpenAI(modeladapter.Config{Model: s.model, APIKey: key, BaseURL: env.Getenv(envOpenAIBase),
					Temperature: s.temperature, ReasoningEffort: s.effort, Prices: p, BatchPrices: bp, Budget: s.budget, MaxOutputTokens: s.maxOutput, Policy: s.policy, Limiter: s.limiter})
				if err != nil {
					return nil, usageError("%v", err)
				}
				return a, nil
			},
		},
		judgeProvider{
			name:      "anthropic",
			available: func(env *Env) bool { return env.Getenv(envAnthropicKey) != "" },
			build: func(env *Env, s judgeSettings) (judging.ModelAdapter, error) {
				if err := needModel("anthropic", s); err != nil {
					return nil, err
				}
				key := env.Getenv(envAnthropicKey)
				if key == "" {
					return nil, usageError("--judge anthropic: %s is not set in the environment", envAnthropicKey)
				}
				p, bp, err := s.priceOf("anthropic")
				if err != nil {
					return nil, err
				}
				a, err := modeladapter.NewAnthropic(modeladapter.Config{Model: s.model, APIKey: key, BaseURL: env.Getenv(envAnthropicBase),
					Temperature: s.temperature, ReasoningEffort: s.effort, Prices: p, BatchPrices: bp, Budget: s.budget, MaxOutputTokens: s.maxOutput, Policy: s.policy, Limiter: s.limiter})
				if err != nil {
					return nil, usageError("%v", err)
				}
				return a, nil
			},
		},
		judgeProvider{
			name:      "command",
			available: func(*Env) bool { return false }, // auto never runs a program
			build: func(env *Env, s judgeSettings) (judging.ModelAdapter, error) {
				if strings.TrimSpace(s.command) == "" {
					return nil, usageError("--judge command needs --judge-command 'PROGRAM ARGS…'")
				}
				a, err := modeladapter.NewCommand(s.command, modeladapter.CommandOptions{Model: s.model, Policy: s.policy, Limiter: s.limiter})
				if err != nil {
					return nil, usageError("--judge-command: %v", err)
				}
				return a, nil
			},
		},
	)
}

// priceOf returns the prices of provider/s.model and their batch prices:
// the --price-* flags when given (batch prices nil: the adapter's
// default discount), else the price table's (batch prices at the table's
// batch_discount). A model the table does not price is an error (exit 2)
// under --max-cost, a warning otherwise (its calls are then not priced and
// not in the estimate's cost).
func (s judgeSettings) priceOf(provider string) (prices, batch *judging.Prices, err error) {
	if s.prices != nil {
		return s.prices, nil, nil
	}
	if s.table == nil {
		return nil, nil, nil
	}
	p, ok := s.table.Lookup(provider, s.model)
	if !ok {
		err := s.table.Unknown(provider, s.model)
		if s.budget != nil {
			return nil, nil, usageError("--max-cost: %v", err)
		}
		if s.warn != nil {
			s.warn(err.Error() + "; its calls are not priced")
		}
		return nil, nil, nil
	}
	jp := p.Judging()
	return &jp, modeladapter.BatchPricesOf(jp), nil
}

// usageOf collects the usage records of adapters that keep them.
func usageOf(adapters ...any) []judging.UsageRecord {
	var out []judging.UsageRecord
	for _, a := range adapters {
		if u, ok := a.(judging.UsageReporter); ok && u != nil {
			out = append(out, u.UsageRecords()...)
		}
	}
	return out
}
