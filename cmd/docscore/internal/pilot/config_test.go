package pilot

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/runfile"
)

const fullConfig = `# a Nemotron-Parse pilot
out = "runs/nemotron.jsonl"
concurrency = [1, 4, 8]
deadline = "90s"
grace = 3
quiet = true

[dataset]
path = "cord/test-00000-of-00001.parquet"
name = "naver-clova-ix/cord-v2"
revision = "7f0115a4b758a71d6473b8d085751692da2fef98"
split = "test"
offset = 2
limit = 24

[prompt]
file = "prompt.txt"

[model]
base_url = "http://localhost:8000/v1"
name = "nvidia/NVIDIA-Nemotron-Parse-v1.1"
max_tokens = 4096
temperature = 0.0
api_key_env = "VLLM_KEY"

[model.extra]
top_p = 1
skip_special_tokens = false

[gpu]
min_free_mib = 40000
index = 1
server_cmd = "docker run --label docscore.pilot=nemotron vllm/vllm-openai"
health_url = "http://localhost:8000/health"
health_timeout = "15m"
container_label = "docscore.pilot=nemotron"
`

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pilot.toml")
	os.WriteFile(path, []byte(fullConfig), 0o644)
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Out != filepath.Join(dir, "runs/nemotron.jsonl") || cfg.Dataset.Path != filepath.Join(dir, "cord/test-00000-of-00001.parquet") ||
		cfg.Prompt.File != filepath.Join(dir, "prompt.txt") {
		t.Errorf("paths are not relative to the file: %q %q %q", cfg.Out, cfg.Dataset.Path, cfg.Prompt.File)
	}
	if len(cfg.Concurrency) != 3 || cfg.Deadline.Duration != 90*time.Second || cfg.Grace.Duration != 3*time.Second || !cfg.Quiet {
		t.Errorf("top level %+v", cfg)
	}
	if cfg.Dataset.Offset != 2 || cfg.Dataset.Limit != 24 || cfg.Dataset.Revision != "7f0115a4b758a71d6473b8d085751692da2fef98" {
		t.Errorf("dataset %+v", cfg.Dataset)
	}
	if *cfg.Model.MaxTokens != 4096 || *cfg.Model.Temperature != 0 || cfg.Model.APIKeyEnv != "VLLM_KEY" || cfg.Model.Extra["top_p"] != int64(1) {
		t.Errorf("model %+v", cfg.Model)
	}
	extra, err := configExtra(&cfg.Model)
	if err != nil || string(extra) != `{"skip_special_tokens":false,"top_p":1}` {
		t.Errorf("extra %s %v", extra, err)
	}
	if cfg.GPU.MinFreeMiB != 40000 || cfg.GPU.Index != 1 || cfg.GPU.HealthTimeout.Duration != 15*time.Minute || cfg.GPU.ContainerLabel != "docscore.pilot=nemotron" {
		t.Errorf("gpu %+v", cfg.GPU)
	}
}

func TestParseConfigErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"out = \"a\"\ndeadline = \"soon\"\n", `p.toml:2:1: deadline: duration "soon": expected a duration such as 120s`},
		{"[dataset]\npth = \"x\"\n", `p.toml:2:1: unknown key "dataset.pth"`},
		{"[model]\napi_key = \"sk-123\"\n", "the API key is read only from the environment"},
		{"[dataset]\nlimit = \"ten\"\n", `p.toml:2:1: key "dataset.limit" has a string value: expected an integer`},
		{"out = \n", "p.toml:1:"},
		{"[gpu]\nmin_free_mib = 1.5\n", "p.toml:2"},
		{"concurrency = 4\n", `p.toml:1:1: key "concurrency" has an integer value: expected an array`},
		{"[model]\nname = \"m\"\ntemperature = nan\n", "p.toml:3:1: [model] temperature NaN: expected a number from 0 to 2"},
		{"[model]\ntemperature = inf\n", "p.toml:2:1: [model] temperature +Inf: expected"},
		{"[model]\ntemperature = -inf\n", "p.toml:2:1: [model] temperature -Inf: expected"},
		{"[model]\ntemperature = 2.5\n", "p.toml:2:1: [model] temperature 2.5: expected"},
		{"deadline = nan\n", `p.toml:1:1: deadline: duration "nan": expected a positive number of seconds`},
		{"[gpu]\nhealth_timeout = -5\n", `p.toml:2:1: gpu.health_timeout: duration "-5"`},
		{"[gpu]\nhealth_timeout = true\n", `p.toml:2:1: gpu.health_timeout: duration "true"`},
		{"grace = \"inf\"\n", `p.toml:1:1: grace: duration "inf"`},
	}
	for _, c := range cases {
		_, err := ParseConfig("p.toml", []byte(c.in))
		if _, ok := inputerr.As(err); !ok || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want an input error containing %q", c.in, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "sk-123") {
			t.Errorf("the error repeats the key: %v", err)
		}
	}
	if _, err := LoadConfig(filepath.Join(t.TempDir(), "none.toml")); err == nil || !strings.Contains(err.Error(), "none.toml: cannot read") {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(fullConfig))
	f.Add([]byte("deadline = 120\n[model.extra]\nstop = [\"</s>\"]\n"))
	f.Add([]byte("[gpu]\nindex = -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig("p.toml", data)
		if err != nil {
			if _, ok := inputerr.As(err); !ok {
				t.Errorf("not an input error: %v", err)
			}
			return
		}
		if cfg == nil {
			t.Error("no config and no error")
		}
	})
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"120s": 120 * time.Second, "2m": 2 * time.Minute, "1.5": 1500 * time.Millisecond, " 90 ": 90 * time.Second, "0": 0} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "soon", "-5s", "-1", "1e12", "NaN", "nan", "Inf", "+inf", "-Inf"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPrepare(t *testing.T) {
	dir := writeFakeImages(t, "a", "b", "c")
	os.WriteFile(filepath.Join(dir, "a.reference.txt"), []byte("TOTAL 1"), 0o644)
	promptFile := filepath.Join(t.TempDir(), "prompt.txt")
	os.WriteFile(promptFile, []byte("Read it."), 0o644)
	out := filepath.Join(t.TempDir(), "run.jsonl")
	base := func() *Config {
		return &Config{Out: out, Dataset: DatasetConfig{Path: dir, Name: "cord", Revision: "r1", Split: "test", Limit: 2},
			Model: ModelConfig{BaseURL: "http://u:pw@localhost:8000/v1", Name: "m"}, Prompt: PromptConfig{File: promptFile}}
	}
	o, err := Prepare(base(), func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-from-env"}[k] }, "v9")
	if err != nil {
		t.Fatal(err)
	}
	h := o.Header
	if h.Type != "run" || !strings.HasPrefix(h.RunID, "pilot-") || h.DocscoreVersion != "v9" || h.CreatedAt == "" {
		t.Errorf("header %+v", h)
	}
	if strings.Join(h.Planned.Phases, ",") != "c1,c4" || strings.Join(h.Planned.SampleIDs, ",") != "a,b" || len(h.Samples) != 2 {
		t.Errorf("plan %+v samples %d", h.Planned, len(h.Samples))
	}
	if *h.Prompt != "Read it." || h.PromptSHA256 != sha256Hex([]byte("Read it.")) || h.DeadlineS != 120 {
		t.Errorf("prompt %q %s deadline %v", *h.Prompt, h.PromptSHA256, h.DeadlineS)
	}
	if *h.Dataset != (runfile.Dataset{Name: "cord", Revision: "r1", Split: "test"}) {
		t.Errorf("dataset %+v", h.Dataset)
	}
	if h.Model.BaseURL != "http://localhost:8000/v1" || h.Model.MaxTokens != 4096 || *h.Model.Temperature != 0 || h.Engine.Kind != "openai" {
		t.Errorf("model %+v engine %+v", h.Model, h.Engine)
	}
	if *h.Samples[0].Reference != "TOTAL 1" || h.Samples[1].Reference != nil {
		t.Errorf("labels %+v", h.Samples)
	}
	line, _ := encodeLine(h)
	if bytes.Contains(line, []byte("pw")) || bytes.Contains(line, []byte("sk-from-env")) || bytes.Count(line, []byte("\n")) != 1 {
		t.Errorf("the header line holds a secret or is not one line: %s", line)
	}
	if o.Engine.(*OpenAIEngine).key != "sk-from-env" || o.Deadline != DefaultDeadline || o.Grace != DefaultGrace {
		t.Errorf("options %+v", o)
	}

	bad := []struct {
		mod  func(c *Config)
		want string
	}{
		{func(c *Config) { c.Model.BaseURL = "" }, "no engine"},
		{func(c *Config) { c.Command = "ocr {image}" }, "both --base-url and --command"},
		{func(c *Config) { c.Engine = "grpc" }, `--engine "grpc": expected openai or command`},
		{func(c *Config) { c.Out = "" }, "--out is required"},
		{func(c *Config) { c.Dataset.Path = "" }, "--dataset is required"},
		{func(c *Config) { c.Concurrency = []int{1, 0} }, "--concurrency 0"},
		{func(c *Config) { c.Concurrency = []int{4, 4} }, "lists 4 twice"},
		{func(c *Config) { c.Concurrency = []int{} }, "at least one value"},
		{func(c *Config) { c.Deadline = &Duration{Duration: 0} }, "--deadline must be positive"},
		{func(c *Config) { c.Prompt.Text = "x" }, "--prompt-file or --prompt, not both"},
		{func(c *Config) { c.Prompt.File = "/nonexistent/p.txt" }, "cannot read the prompt"},
		{func(c *Config) { c.Model.APIKeyEnv = "UNSET_VAR" }, "--api-key-env UNSET_VAR: the variable is not set"},
		{func(c *Config) { c.Model.ExtraJSON = `{"model": "x"}` }, `"model" is set by docscore`},
		{func(c *Config) { n := 0; c.Model.MaxTokens = &n }, "--max-tokens must be 1 or more"},
		{func(c *Config) { c.Engine, c.Command, c.Prompt.File = "command", "ocr {image}", "" }, "--base-url is for the openai engine"},
		{func(c *Config) { c.Model.BaseURL, c.Command = "", "ocr {image}" }, "the command engine takes no prompt"},
		{func(c *Config) { c.Model.BaseURL, c.Command, c.Prompt.File = "", "ocr", "" }, "no {image} placeholder"},
		{func(c *Config) { c.GPU.ContainerLabel = "x" }, "expected KEY=VALUE"},
		{func(c *Config) { c.Dataset.Path = "/nonexistent" }, "cannot read the dataset"},
	}
	for _, b := range bad {
		cfg := base()
		b.mod(cfg)
		_, err := Prepare(cfg, func(string) string { return "" }, "v")
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("err = %v, want %q", err, b.want)
		}
		var ue *UsageError
		if _, isInput := inputerr.As(err); err != nil && !errors.As(err, &ue) && !isInput {
			t.Errorf("%v is neither a usage nor an input error", err)
		}
	}
}

func TestProgressOutput(t *testing.T) {
	rec := func(status runfile.Status, finish string, empty bool) *runfile.Request {
		r := &runfile.Request{Phase: "c4", SampleID: "s01", Status: status, LatencyS: 0.25, EmptyOutput: empty}
		if finish != "" {
			r.FinishReason = &finish
		}
		return r
	}
	var lines bytes.Buffer
	p := NewProgress(&lines, false, false)
	p.PhaseStart("c4", 2, 3, 4)
	p.Recorded(rec(runfile.StatusOK, "stop", true))
	p.Recorded(rec(runfile.StatusTimeout, "", false))
	p.PhaseEnd("c4")
	p.Note("done %d", 1)
	got := lines.String()
	for _, want := range []string{
		"pilot: phase c4: 2 requests at concurrency 4 (3 already recorded)\n",
		"pilot: c4 1/2 s01 ok stop (empty output) 0.25s · 0 failed",
		"pilot: c4 2/2 s01 timeout 0.25s · 1 failed",
		"pilot: phase c4: 2/2 done in ", ", 1 failed, 1 empty, 0 truncated",
		"pilot: done 1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
	var quiet bytes.Buffer
	q := NewProgress(&quiet, true, true)
	q.PhaseStart("c1", 1, 0, 1)
	q.Recorded(rec(runfile.StatusOK, "stop", false))
	q.PhaseEnd("c1")
	if quiet.Len() != 0 {
		t.Errorf("quiet progress printed %q", quiet.String())
	}
	var bar bytes.Buffer
	b := NewProgress(&bar, true, false)
	b.PhaseStart("c4", 2, 1, 4)
	b.Recorded(rec(runfile.StatusOK, "stop", false))
	b.Note("server %s", "slow")
	b.Recorded(rec(runfile.StatusHTTPError, "", false))
	b.PhaseEnd("c4")
	s := bar.String()
	for _, want := range []string{
		"pilot: phase c4: 1 already recorded, 2 to do\n",
		"\r\033[Kc4      c=4 [..............................] 0/2 · 0 failed · ",
		"\r\033[Kpilot: server slow\n\r\033[Kc4      c=4 [###############...............] 1/2 · 0 failed · ",
		"\r\033[Kc4      c=4 [##############################] 2/2 · 1 failed · ",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("progress line lacks %q:\n%q", want, s)
		}
	}
	if !strings.HasSuffix(s, "\n") || strings.Count(s, "\n") != 3 || !regexp.MustCompile(` req/s · [0-9.]+[µnm]?s\n$`).MatchString(s) {
		t.Errorf("the phase's end does not leave its line drawn with the time it took:\n%q", s)
	}
}
