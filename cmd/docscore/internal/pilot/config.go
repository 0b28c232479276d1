package pilot

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/tomlkey"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/runfile"
)

// Defaults of a pilot run (SPEC B.4 and the seed's pilot).
const (
	DefaultDeadline      = 120 * time.Second
	DefaultGrace         = 10 * time.Second
	DefaultMaxTokens     = 4096
	DefaultHealthTimeout = 10 * time.Minute
	DefaultStopTimeout   = 30 * time.Second
	DefaultAPIKeyEnv     = "OPENAI_API_KEY"
)

// DefaultConcurrency is the measured phases' concurrency: c1, then c4.
var DefaultConcurrency = []int{1, 4}

// Config is a pilot run's settings, read from a TOML file (LoadConfig)
// and then overridden by the command line's flags. Pointer members are
// nil when not given, so that their defaults apply.
type Config struct {
	Out         string        `toml:"out"`
	Engine      string        `toml:"engine"` // openai or command; inferred when empty
	Command     string        `toml:"command"`
	Concurrency []int         `toml:"concurrency"`
	Deadline    *Duration     `toml:"deadline"`
	Grace       *Duration     `toml:"grace"`
	Quiet       bool          `toml:"quiet"`
	Dataset     DatasetConfig `toml:"dataset"`
	Prompt      PromptConfig  `toml:"prompt"`
	Model       ModelConfig   `toml:"model"`
	GPU         GPUConfig     `toml:"gpu"`
}

// DatasetConfig is the [dataset] table.
type DatasetConfig struct {
	Path     string `toml:"path"`
	Name     string `toml:"name"`
	Revision string `toml:"revision"`
	Split    string `toml:"split"`
	Offset   int    `toml:"offset"`
	Limit    int    `toml:"limit"`
}

// PromptConfig is the [prompt] table: a file or inline text.
type PromptConfig struct {
	File string `toml:"file"`
	Text string `toml:"text"`
}

// ModelConfig is the [model] table. The API key itself is never part of
// a configuration: it is read from the environment variable APIKeyEnv.
type ModelConfig struct {
	BaseURL     string         `toml:"base_url"`
	Name        string         `toml:"name"`
	MaxTokens   *int           `toml:"max_tokens"`
	Temperature *float64       `toml:"temperature"`
	APIKeyEnv   string         `toml:"api_key_env"`
	Extra       map[string]any `toml:"extra"`
	// ExtraJSON is the --extra flag's JSON object; it replaces Extra.
	ExtraJSON string `toml:"-"`
}

// GPUConfig is the [gpu] table of the optional GPU procedure.
type GPUConfig struct {
	MinFreeMiB     int       `toml:"min_free_mib"`
	Index          int       `toml:"index"`
	ServerCmd      string    `toml:"server_cmd"`
	ServerLog      string    `toml:"server_log"`
	HealthURL      string    `toml:"health_url"`
	HealthTimeout  *Duration `toml:"health_timeout"`
	ContainerLabel string    `toml:"container_label"`
}

// Duration is a time.Duration written as "120s", "2m" or a number of
// seconds.
type Duration struct {
	time.Duration
	// bad is why the value is not a duration: ParseConfig reports it on
	// its key (the decoder passes a number's error on without a place).
	bad error
}

// UnmarshalText reads "120s", "1m30s" or a number of seconds; a value
// that is neither is kept for ParseConfig to report.
func (d *Duration) UnmarshalText(b []byte) error {
	d.Duration, d.bad = ParseDuration(string(b))
	return nil
}

// ParseDuration reads a duration such as "120s" or "2m", or a plain
// number of seconds.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if !(param.Range{Lo: 0, Hi: 1e9}).Contains(f) { // NaN and ±Inf too
			return 0, fmt.Errorf("duration %q: expected a positive number of seconds", s)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("duration %q: expected a duration such as 120s, 2m or 1m30s", s)
	}
	return d, nil
}

// LoadConfig reads a TOML configuration file. Unknown keys are errors
// (naming the key and its line), and relative paths in it (dataset.path,
// prompt.file, out, gpu.server_log) are taken relative to the file's
// directory.
func LoadConfig(path string) (*Config, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, inputerr.New(path, 0, "cannot read the configuration: %v", unwrapPathError(err))
	}
	cfg, err := ParseConfig(path, data)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	rel := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	rel(&cfg.Dataset.Path)
	rel(&cfg.Prompt.File)
	rel(&cfg.Out)
	rel(&cfg.GPU.ServerLog)
	return cfg, nil
}

// ParseConfig parses a TOML configuration (name is used in errors) without
// resolving its paths.
func ParseConfig(name string, data []byte) (_ *Config, err error) {
	src, err := ingest.Open(name, data)
	if err != nil {
		return nil, err
	}
	// Every error shows its line, a secret's value hidden.
	defer func() { tomlkey.Redact(src.AttachAll(err)) }()
	cfg := &Config{}
	if err := tomlkey.Decode(src, cfg, nil, "expected a TOML configuration (see docscore pilot run --help)", func(k tomlkey.Key) string {
		key := k.String()
		hint := ""
		if strings.Contains(strings.ToLower(key), "api_key") && !strings.HasSuffix(key, "api_key_env") {
			hint = " (the API key is read only from the environment: name the variable with model.api_key_env)"
		}
		return fmt.Sprintf("unknown key %q%s: expected out, engine, command, concurrency, deadline, grace, quiet and the tables [dataset], [prompt], [model], [model.extra], [gpu]", key, hint)
	}); err != nil {
		return nil, err
	}
	for _, d := range []struct {
		key tomlkey.Key
		val *Duration
	}{{tomlkey.Key{"deadline"}, cfg.Deadline}, {tomlkey.Key{"grace"}, cfg.Grace}, {tomlkey.Key{"gpu", "health_timeout"}, cfg.GPU.HealthTimeout}} {
		if d.val != nil && d.val.bad != nil {
			line, col := tomlkey.Find(&src.LineIndex, nil, d.key)
			return nil, src.ErrorAtLine(line, col, "%s: %v", d.key, d.val.bad)
		}
	}
	if t := cfg.Model.Temperature; t != nil {
		if err := param.Float("[model] temperature", *t, param.Temperature); err != nil {
			e, _ := inputerr.As(err)
			e.File = name
			e.Line, e.Column = tomlkey.Find(&src.LineIndex, nil, tomlkey.Key{"model", "temperature"})
			return nil, e
		}
	}
	return cfg, nil
}

// engineKind returns the configured engine, inferring it from --command
// or --base-url when not given.
func (c *Config) engineKind() (string, error) {
	switch c.Engine {
	case runfile.EngineOpenAI, runfile.EngineCommand:
		return c.Engine, nil
	case "":
		switch {
		case c.Command != "" && c.Model.BaseURL == "":
			return runfile.EngineCommand, nil
		case c.Model.BaseURL != "" && c.Command == "":
			return runfile.EngineOpenAI, nil
		case c.Model.BaseURL != "":
			return "", errors.New("both --base-url and --command are set: choose the engine with --engine openai|command")
		}
		return "", errors.New("no engine: give --base-url (an OpenAI-compatible server) or --command (a local program)")
	}
	return "", fmt.Errorf("--engine %q: expected openai or command", c.Engine)
}

// Prepare reads the dataset and the prompt, builds the engine and the run
// header, and returns the options of Run (SPEC B.4's preparation: every
// image is hashed and every label read before any request). getenv reads
// the API key's variable; version is recorded in the header.
func Prepare(cfg *Config, getenv func(string) string, version string) (*Options, error) {
	kind, err := cfg.engineKind()
	if err != nil {
		return nil, usage(err)
	}
	if cfg.Out == "" {
		return nil, usage(errors.New("--out is required: the run file to write (or to resume)"))
	}
	if cfg.Dataset.Path == "" {
		return nil, usage(errors.New("--dataset is required: a directory of images, a cord-v2 .parquet file or a .jsonl manifest"))
	}
	concurrency := cfg.Concurrency
	if concurrency == nil {
		concurrency = DefaultConcurrency
	}
	if len(concurrency) == 0 {
		return nil, usage(errors.New("--concurrency: expected at least one value, such as 1,4"))
	}
	var phases []Phase
	for _, c := range concurrency {
		if c < 1 || c > 4096 {
			return nil, usage(fmt.Errorf("--concurrency %d: expected a number from 1 to 4096", c))
		}
		if slices.ContainsFunc(phases, func(p Phase) bool { return p.Concurrency == c }) {
			return nil, usage(fmt.Errorf("--concurrency lists %d twice: each value is one phase", c))
		}
		phases = append(phases, Phase{Name: PhaseName(c), Concurrency: c})
	}
	deadline := DefaultDeadline
	if cfg.Deadline != nil {
		deadline = cfg.Deadline.Duration
	}
	if deadline <= 0 {
		return nil, usage(errors.New("--deadline must be positive"))
	}
	grace := DefaultGrace
	if cfg.Grace != nil {
		grace = cfg.Grace.Duration
	}
	if cfg.Prompt.File != "" && cfg.Prompt.Text != "" {
		return nil, usage(errors.New("give the prompt once: --prompt-file or --prompt, not both"))
	}
	var prompt *string
	switch {
	case cfg.Prompt.File != "":
		data, err := readFile(cfg.Prompt.File)
		if err != nil {
			return nil, inputerr.New(cfg.Prompt.File, 0, "cannot read the prompt: %v", unwrapPathError(err))
		}
		s := string(data)
		prompt = &s
	case cfg.Prompt.Text != "":
		s := cfg.Prompt.Text
		prompt = &s
	}
	if kind == runfile.EngineCommand && prompt != nil {
		return nil, usage(errors.New("the command engine takes no prompt: leave out --prompt and --prompt-file"))
	}
	if kind == runfile.EngineOpenAI && cfg.Command != "" {
		return nil, usage(errors.New("--command is for the command engine; the openai engine sends requests to --base-url"))
	}
	if kind == runfile.EngineCommand && cfg.Model.BaseURL != "" {
		return nil, usage(errors.New("--base-url is for the openai engine; the command engine runs --command"))
	}
	gpu := &GPUOptions{
		MinFreeMiB: cfg.GPU.MinFreeMiB, Index: cfg.GPU.Index, ServerCmd: cfg.GPU.ServerCmd, ServerLog: cfg.GPU.ServerLog,
		HealthURL: cfg.GPU.HealthURL, HealthTimeout: DefaultHealthTimeout, HealthInterval: time.Second,
		StopTimeout: DefaultStopTimeout, ContainerLabel: cfg.GPU.ContainerLabel,
	}
	if cfg.GPU.HealthTimeout != nil {
		gpu.HealthTimeout = cfg.GPU.HealthTimeout.Duration
	}
	if gpu.ServerLog == "" {
		gpu.ServerLog = cfg.Out + ".server.log"
	}
	if err := gpu.Validate(); err != nil {
		return nil, usage(err)
	}

	ds, err := LoadDataset(cfg.Dataset.Path, DatasetOptions{Offset: cfg.Dataset.Offset, Limit: cfg.Dataset.Limit})
	if err != nil {
		return nil, err
	}

	h := runfile.NewHeader(newRunID(), runfile.Planned{Phases: make([]string, 0, len(phases)), SampleIDs: make([]string, 0, len(ds.Samples))})
	for _, p := range phases {
		h.Planned.Phases = append(h.Planned.Phases, p.Name)
	}
	for _, s := range ds.Samples {
		h.Planned.SampleIDs = append(h.Planned.SampleIDs, s.SampleID)
		h.Samples = append(h.Samples, s.Sample)
	}
	h.Dataset = &runfile.Dataset{Name: cfg.Dataset.Name, Revision: cfg.Dataset.Revision, Split: cfg.Dataset.Split}
	if h.Dataset.Name == "" {
		h.Dataset.Name = filepath.Base(filepath.Clean(cfg.Dataset.Path))
	}
	if h.Dataset.Split == "" {
		h.Dataset.Split = ds.Split
	}
	h.DeadlineS = deadline.Seconds()
	h.CreatedAt = time.Now().UTC().Format(time.RFC3339)
	h.DocscoreVersion = version
	if prompt != nil {
		h.Prompt = prompt
		sum := sha256.Sum256([]byte(*prompt))
		h.PromptSHA256 = hex.EncodeToString(sum[:])
	}

	var engine Engine
	switch kind {
	case runfile.EngineOpenAI:
		if prompt == nil {
			empty := ""
			sum := sha256.Sum256(nil)
			h.Prompt, h.PromptSHA256 = &empty, hex.EncodeToString(sum[:])
		}
		extra, err := configExtra(&cfg.Model)
		if err != nil {
			return nil, usage(err)
		}
		maxTokens := DefaultMaxTokens
		if cfg.Model.MaxTokens != nil {
			maxTokens = *cfg.Model.MaxTokens
		}
		if maxTokens < 1 {
			return nil, usage(errors.New("--max-tokens must be 1 or more"))
		}
		temp := 0.0
		if cfg.Model.Temperature != nil {
			temp = *cfg.Model.Temperature
		}
		keyEnv := cfg.Model.APIKeyEnv
		if keyEnv == "" {
			keyEnv = DefaultAPIKeyEnv
		}
		key := getenv(keyEnv)
		if key == "" && cfg.Model.APIKeyEnv != "" {
			return nil, usage(fmt.Errorf("--api-key-env %s: the variable is not set (or empty) in the environment", keyEnv))
		}
		maxConns := 1
		for _, p := range phases {
			maxConns = max(maxConns, p.Concurrency)
		}
		e, err := NewOpenAI(OpenAIConfig{BaseURL: cfg.Model.BaseURL, APIKey: key, Model: cfg.Model.Name, MaxTokens: maxTokens,
			Temperature: &temp, Extra: extra, Prompt: *h.Prompt, MaxConns: maxConns})
		if err != nil {
			return nil, usage(err)
		}
		engine = e
		h.Engine = &runfile.Engine{Kind: runfile.EngineOpenAI}
		h.Model = &runfile.Model{BaseURL: RedactURL(cfg.Model.BaseURL), Name: cfg.Model.Name, MaxTokens: maxTokens, Temperature: &temp, Extra: extra}
	case runfile.EngineCommand:
		if cfg.Model.MaxTokens != nil || cfg.Model.Temperature != nil || len(cfg.Model.Extra) > 0 || cfg.Model.ExtraJSON != "" {
			return nil, usage(errors.New("--max-tokens, --temperature and --extra are model server settings: the command engine does not use them"))
		}
		e, err := NewCommand(cfg.Command)
		if err != nil {
			return nil, usage(err)
		}
		engine = e
		h.Engine = &runfile.Engine{Kind: runfile.EngineCommand, Command: cfg.Command}
		name := cfg.Model.Name
		if name == "" {
			name = strings.Fields(cfg.Command)[0]
		}
		h.Model = &runfile.Model{Name: name}
	}
	return &Options{
		Out: cfg.Out, Header: h, Samples: ds.Samples, Phases: phases, Engine: engine,
		Deadline: deadline, Grace: grace, GPU: gpu,
	}, nil
}

// configExtra returns the extra request members in canonical form.
func configExtra(m *ModelConfig) (json.RawMessage, error) {
	if m.ExtraJSON != "" {
		return CanonicalExtra([]byte(m.ExtraJSON))
	}
	if len(m.Extra) == 0 {
		return nil, nil
	}
	raw, err := json.Marshal(m.Extra)
	if err != nil {
		return nil, fmt.Errorf("[model.extra]: %v", err)
	}
	return CanonicalExtra(raw)
}

// newRunID returns a run id: the UTC time and six random hex digits.
func newRunID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return "pilot-" + time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// UsageError is a bad setting (exit 2 on the command line).
type UsageError struct{ Err error }

// Error returns the setting's problem.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *UsageError) Unwrap() error { return e.Err }

func usage(err error) error { return &UsageError{Err: err} }
