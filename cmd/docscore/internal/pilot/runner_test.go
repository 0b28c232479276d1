package pilot

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/cord"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/runfile"
)

// openaiConfig is a run of the openai engine against a fake server.
func openaiConfig(dataset, out, baseURL string) *Config {
	return &Config{
		Out: out, Dataset: DatasetConfig{Path: dataset},
		Model:    ModelConfig{BaseURL: baseURL, Name: "test-model"},
		Prompt:   PromptConfig{Text: "Read the receipt."},
		Deadline: &Duration{Duration: 2 * time.Second},
	}
}

func prepare(t testing.TB, cfg *Config) *Options {
	t.Helper()
	o, err := Prepare(cfg, func(string) string { return "" }, "test")
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	t.Cleanup(func() { o.Engine.Close() })
	return o
}

func readRunFile(t testing.TB, path string) *runfile.Run {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	run, err := runfile.Read(bytes.NewReader(data), path, runfile.ReadOptions{})
	if err != nil {
		t.Fatalf("the run file does not read back: %v", err)
	}
	return run
}

// pairCounts counts the records per (phase, sample).
func pairCounts(run *runfile.Run) map[pairKey]int {
	c := map[pairKey]int{}
	for _, r := range run.Requests {
		c[pairKey{r.Phase, r.SampleID}]++
	}
	return c
}

// checkExactlyOnce fails unless every planned pair and every warmup is
// recorded exactly once and nothing else is recorded.
func checkExactlyOnce(t testing.TB, run *runfile.Run) {
	t.Helper()
	c := pairCounts(run)
	want := 0
	for _, p := range append([]string{runfile.WarmupPhase}, run.Header.Planned.Phases...) {
		for _, s := range run.Header.Planned.SampleIDs {
			want++
			if n := c[pairKey{p, s}]; n != 1 {
				t.Errorf("%s/%s recorded %d times, want exactly once", p, s, n)
			}
		}
	}
	if len(run.Requests) != want {
		t.Errorf("%d request records, want %d", len(run.Requests), want)
	}
}

func TestOpenAIRecordsMatchEachAnswer(t *testing.T) {
	cases := []struct {
		b          behaviour
		status     runfile.Status
		finish     string // "" for null
		output     *string
		httpStatus int
		errHas     string
		empty      bool
		truncated  bool
		usage      bool
	}{
		{answerOK, runfile.StatusOK, "stop", strPtr("TOTAL ok"), 200, "", false, false, true},
		{answerSlow, runfile.StatusTimeout, "", nil, 0, "deadline of 300ms exceeded", false, false, false},
		{answer500, runfile.StatusHTTPError, "", nil, 500, "HTTP 500: boom: the engine crashed", false, false, false},
		{answer429, runfile.StatusHTTPError, "", nil, 429, "HTTP 429: rate limited", false, false, false},
		{answerLength, runfile.StatusOK, "length", strPtr("TOTAL length and then the answer was cut"), 200, "", false, true, true},
		{answerEmpty, runfile.StatusOK, "stop", strPtr(""), 200, "", true, false, true},
		{answerNull, runfile.StatusOK, "stop", nil, 200, "", true, false, true},
		{answerDrop, runfile.StatusTransportError, "", nil, 0, "no answer: ", false, false, false},
		{answerNotChat, runfile.StatusHTTPError, "", nil, 200, "not a chat completion", false, false, false},
		{answerHalfBody, runfile.StatusTransportError, "", nil, 200, "answer broke off", false, false, false},
	}
	var names []string
	for _, c := range cases {
		names = append(names, string(c.b))
	}
	srv := newFakeServer(t, func(sample string, call int) behaviour {
		if call == 0 {
			return answerOK // warmups succeed
		}
		return behaviour(sample)
	})
	dir := writeFakeImages(t, names...)
	out := filepath.Join(t.TempDir(), "run.jsonl")
	cfg := openaiConfig(dir, out, srv.baseURL())
	cfg.Concurrency = []int{1}
	cfg.Deadline = &Duration{Duration: 300 * time.Millisecond}
	sum, err := Run(context.Background(), *prepare(t, cfg))
	if err != nil || sum.Status != runfile.EndComplete {
		t.Fatalf("Run: %v, %+v", err, sum)
	}
	run := readRunFile(t, out)
	checkExactlyOnce(t, run)
	if run.End == nil || run.End.Status != runfile.EndComplete {
		t.Errorf("end = %+v, want complete", run.End)
	}
	byPair := map[pairKey]runfile.Request{}
	for _, r := range run.Requests {
		byPair[pairKey{r.Phase, r.SampleID}] = r.Request
	}
	for _, c := range cases {
		t.Run(string(c.b), func(t *testing.T) {
			r := byPair[pairKey{"c1", string(c.b)}]
			if r.Status != c.status || r.FinishReasonString() != c.finish || r.HTTPStatus != c.httpStatus ||
				r.EmptyOutput != c.empty || r.Truncated != c.truncated || (r.Usage != nil) != c.usage {
				t.Errorf("record %+v: want status %s finish %q http %d empty %v truncated %v usage %v",
					r, c.status, c.finish, c.httpStatus, c.empty, c.truncated, c.usage)
			}
			if (c.output == nil) != (r.Output == nil) || (c.output != nil && *c.output != *r.Output) {
				t.Errorf("output %q, want %q", ptrText(r.Output), ptrText(c.output))
			}
			if c.errHas == "" && r.Error != nil || c.errHas != "" && (r.Error == nil || !strings.Contains(*r.Error, c.errHas)) {
				t.Errorf("error %q, want one containing %q", ptrText(r.Error), c.errHas)
			}
			if c.usage && (r.Usage.PromptTokens != 12 || r.Usage.CompletionTokens != 3) {
				t.Errorf("usage %+v, want 12/3", r.Usage)
			}
			if c.b == answerSlow && (r.LatencyS < 0.3 || r.LatencyS > 2) {
				t.Errorf("timeout latency %v s, want about the 0.3 s deadline", r.LatencyS)
			}
			if r.ImageSHA256 != sha256Hex(fakeImage(string(c.b))) {
				t.Errorf("image_sha256 %s is not the image's", r.ImageSHA256)
			}
			if _, err := time.Parse(time.RFC3339Nano, r.StartedAt); err != nil {
				t.Errorf("started_at %q: %v", r.StartedAt, err)
			}
		})
	}
	if len(srv.problems) > 0 {
		t.Errorf("malformed requests: %v", srv.problems)
	}
}

func ptrText(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

// phaseProbe measures the server's maximum in-flight requests per phase.
type phaseProbe struct {
	Progress
	srv *fakeServer
	mu  sync.Mutex
	max map[string]int64
}

func (p *phaseProbe) PhaseStart(phase string, total, recorded, conc int) {
	p.srv.resetMax()
	p.Progress.PhaseStart(phase, total, recorded, conc)
}

func (p *phaseProbe) PhaseEnd(phase string) {
	p.mu.Lock()
	p.max[phase] = p.srv.maxInflight.Load()
	p.mu.Unlock()
	p.Progress.PhaseEnd(phase)
}

func TestConcurrencyIsRespected(t *testing.T) {
	srv := newFakeServer(t, nil)
	srv.delay = 50 * time.Millisecond
	dir := writeFakeImages(t, sampleNames(12)...)
	out := filepath.Join(t.TempDir(), "run.jsonl")
	cfg := openaiConfig(dir, out, srv.baseURL())
	cfg.Concurrency = []int{1, 4}
	o := prepare(t, cfg)
	probe := &phaseProbe{Progress: NewProgress(discard{}, false, true), srv: srv, max: map[string]int64{}}
	o.Progress = probe
	if _, err := Run(context.Background(), *o); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"warmup": 1, "c1": 1, "c4": 4}
	for phase, w := range want {
		if probe.max[phase] != w {
			t.Errorf("phase %s: the server saw at most %d requests in flight, want %d", phase, probe.max[phase], w)
		}
	}
	run := readRunFile(t, out)
	checkExactlyOnce(t, run)
	// Measured phases go in plan order: all warmups, then c1, then c4.
	var phases []string
	for _, r := range run.Requests {
		if len(phases) == 0 || phases[len(phases)-1] != r.Phase {
			phases = append(phases, r.Phase)
		}
	}
	if !slices.Equal(phases, []string{"warmup", "c1", "c4"}) {
		t.Errorf("phase order in the file %v", phases)
	}
}

func TestFailedWarmupStopsMeasuredWork(t *testing.T) {
	srv := newFakeServer(t, func(sample string, call int) behaviour {
		if sample == "s02" {
			return answer500
		}
		return answerOK
	})
	dir := writeFakeImages(t, sampleNames(5)...)
	out := filepath.Join(t.TempDir(), "run.jsonl")
	cfg := openaiConfig(dir, out, srv.baseURL())
	_, err := Run(context.Background(), *prepare(t, cfg))
	if !errors.Is(err, ErrWarmupFailed) || !strings.Contains(err.Error(), "warmup of s02 failed: http_error") {
		t.Fatalf("err = %v, want a failed warmup of s02", err)
	}
	run := readRunFile(t, out)
	for _, r := range run.Requests {
		if r.Phase != runfile.WarmupPhase {
			t.Errorf("measured request %s/%s after a failed warmup", r.Phase, r.SampleID)
		}
	}
	if len(run.Requests) != 3 {
		t.Errorf("%d warmups recorded, want 3 (s00, s01 and the failed s02)", len(run.Requests))
	}
	if run.End == nil || run.End.Status != runfile.EndInterrupted || !strings.Contains(run.End.Reason, "warmup of s02 failed: http_error (HTTP 500") {
		t.Errorf("end = %+v, want interrupted with the warmup's failure", run.End)
	}
	// A rerun keeps measured work stopped and sends nothing.
	served := srv.served.Load()
	before, _ := os.ReadFile(out)
	_, err = Run(context.Background(), *prepare(t, cfg))
	if !errors.Is(err, ErrWarmupFailed) {
		t.Errorf("rerun: err = %v, want ErrWarmupFailed", err)
	}
	after, _ := os.ReadFile(out)
	if srv.served.Load() != served || !bytes.Equal(before, after) {
		t.Errorf("the rerun sent %d requests and changed the file", srv.served.Load()-served)
	}
}

func TestResume(t *testing.T) {
	srv := newFakeServer(t, nil)
	dir := writeFakeImages(t, sampleNames(6)...)
	tmp := t.TempDir()

	complete := func(t *testing.T) (string, []byte) {
		out := filepath.Join(t.TempDir(), "run.jsonl")
		if _, err := Run(context.Background(), *prepare(t, openaiConfig(dir, out, srv.baseURL()))); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(out)
		return out, data
	}

	t.Run("complete file: nothing to do", func(t *testing.T) {
		out, before := complete(t)
		served := srv.served.Load()
		sum, err := Run(context.Background(), *prepare(t, openaiConfig(dir, out, srv.baseURL())))
		after, _ := os.ReadFile(out)
		if err != nil || !sum.AlreadyComplete || !bytes.Equal(before, after) || srv.served.Load() != served {
			t.Errorf("rerun of a complete run: %v %+v, file changed %v", err, sum, !bytes.Equal(before, after))
		}
	})

	t.Run("cut records are redone once, kept ones kept", func(t *testing.T) {
		out, full := complete(t)
		lines := bytes.SplitAfter(full, []byte("\n"))
		// Keep the header, the warmups and two c1 records; cut the last
		// kept record in half as a crash during its write would.
		keep := bytes.Join(lines[:1+6+2], nil)
		partial := lines[1+6+2][:40]
		if err := os.WriteFile(out, append(bytes.Clone(keep), partial...), 0o644); err != nil {
			t.Fatal(err)
		}
		var notes bytes.Buffer
		o := prepare(t, openaiConfig(dir, out, srv.baseURL()))
		o.Progress = NewProgress(&notes, false, true)
		sum, err := Run(context.Background(), *o)
		if err != nil || !sum.Resumed || sum.Written != 4+6 {
			t.Fatalf("resume: %v %+v", err, sum)
		}
		after, _ := os.ReadFile(out)
		if !bytes.HasPrefix(after, keep) {
			t.Error("the resumed file does not start with the records kept from before")
		}
		run := readRunFile(t, out)
		checkExactlyOnce(t, run)
		saved, _ := filepath.Glob(out + ".partial-*")
		if len(saved) != 1 {
			t.Fatalf("partial line saved to %v, want one file", saved)
		}
		if got, _ := os.ReadFile(saved[0]); !bytes.Equal(got, partial) {
			t.Errorf("saved partial line %q, want %q", got, partial)
		}
		if !strings.Contains(notes.String(), "was cut short (40 bytes") {
			t.Errorf("no note about the repair: %s", notes.String())
		}
	})

	t.Run("complete last line without newline is kept", func(t *testing.T) {
		out, full := complete(t)
		lines := bytes.SplitAfter(full, []byte("\n"))
		keep := bytes.Join(lines[:1+6+3], nil)
		if err := os.WriteFile(out, bytes.TrimSuffix(keep, []byte("\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		sum, err := Run(context.Background(), *prepare(t, openaiConfig(dir, out, srv.baseURL())))
		if err != nil || sum.Written != 3+6 {
			t.Fatalf("resume: %v %+v", err, sum)
		}
		after, _ := os.ReadFile(out)
		if !bytes.HasPrefix(after, keep) {
			t.Error("the record without its newline was not kept")
		}
		checkExactlyOnce(t, readRunFile(t, out))
		if saved, _ := filepath.Glob(out + ".partial-*"); len(saved) != 0 {
			t.Errorf("a complete record was moved aside: %v", saved)
		}
	})

	t.Run("other settings are refused", func(t *testing.T) {
		out, before := complete(t)
		// Drop the end record so that there is something left to do.
		cut := bytes.LastIndex(before[:len(before)-1], []byte("\n")) + 1
		if err := os.WriteFile(out, before[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		mods := []struct {
			name string
			mod  func(c *Config)
			want string
		}{
			{"prompt", func(c *Config) { c.Prompt.Text = "Another prompt." }, "prompt: file sha256"},
			{"concurrency", func(c *Config) { c.Concurrency = []int{1, 8} }, "planned phases: file [c1 c4], now [c1 c8]"},
			{"limit", func(c *Config) { c.Dataset.Limit = 3 }, "planned samples: file 6 (s00 … s05), now 3 (s00 … s02)"},
			{"model", func(c *Config) { c.Model.Name = "other-model" }, "model settings"},
			{"max tokens", func(c *Config) { n := 100; c.Model.MaxTokens = &n }, `"max_tokens":100`},
			{"deadline", func(c *Config) { c.Deadline = &Duration{Duration: time.Minute} }, "deadline: file 2s, now 60s"},
			{"extra", func(c *Config) { c.Model.ExtraJSON = `{"top_p": 0.5}` }, `"extra":{"top_p":0.5}`},
		}
		for _, m := range mods {
			cfg := openaiConfig(dir, out, srv.baseURL())
			m.mod(cfg)
			_, err := Run(context.Background(), *prepare(t, cfg))
			if err == nil || !strings.Contains(err.Error(), "cannot resume") || !strings.Contains(err.Error(), m.want) {
				t.Errorf("%s: err = %v, want a refusal naming %q", m.name, err, m.want)
			}
		}
		// A changed image is refused too.
		img := filepath.Join(dir, "s03.png")
		orig, _ := os.ReadFile(img)
		os.WriteFile(img, fakeImage("s03-changed"), 0o644)
		_, err := Run(context.Background(), *prepare(t, openaiConfig(dir, out, srv.baseURL())))
		os.WriteFile(img, orig, 0o644)
		if err == nil || !strings.Contains(err.Error(), "image of s03: file sha256") {
			t.Errorf("changed image: err = %v", err)
		}
		if after, _ := os.ReadFile(out); !bytes.Equal(after, before[:cut]) {
			t.Error("a refused resume changed the file")
		}
	})

	t.Run("not a run file", func(t *testing.T) {
		out := filepath.Join(tmp, "notes.jsonl")
		os.WriteFile(out, []byte("{\"hello\": 1}\n"), 0o644)
		_, err := Run(context.Background(), *prepare(t, openaiConfig(dir, out, srv.baseURL())))
		if err == nil || !strings.Contains(err.Error(), "notes.jsonl:1") {
			t.Errorf("err = %v, want a refusal naming the file and line", err)
		}
	})
}

func TestInterruptedRun(t *testing.T) {
	for _, tc := range []struct {
		name          string
		grace         time.Duration
		hang          bool
		wantCancelled bool
		abort         bool // a second interruption at once
	}{
		{"in-flight requests finish within the grace period", 5 * time.Second, false, false, false},
		{"in-flight requests are cancelled and recorded", 50 * time.Millisecond, true, true, false},
		{"a second interruption cancels them at once", time.Minute, true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newFakeServer(t, nil)
			srv.delay = 60 * time.Millisecond
			dir := writeFakeImages(t, sampleNames(8)...)
			out := filepath.Join(t.TempDir(), "run.jsonl")
			cfg := openaiConfig(dir, out, srv.baseURL())
			cfg.Grace = &Duration{Duration: tc.grace}
			o := prepare(t, cfg)
			ctx, cancel := context.WithCancel(context.Background())
			abort, abortNow := context.WithCancel(context.Background())
			defer abortNow()
			o.Abort = abort
			var servedAtStop atomic.Int64
			stopped := make(chan struct{})
			stop := func() {
				defer close(stopped)
				cancel()
				// Requests taken just before the interruption reach the
				// server within moments; none may follow.
				time.Sleep(100 * time.Millisecond)
				servedAtStop.Store(srv.served.Load())
				if tc.abort {
					time.Sleep(50 * time.Millisecond)
					abortNow()
				}
			}
			o.Progress = &interruptAt{Progress: NewProgress(discard{}, false, true), phase: "c4", after: 2, do: func() {
				if !tc.hang {
					stop()
					return
				}
				// Interrupt once a request hangs at the server.
				srv.hang.Store(true)
				go func() {
					for srv.hanging.Load() == 0 {
						time.Sleep(time.Millisecond)
					}
					stop()
				}()
			}}
			start := time.Now()
			sum, err := Run(ctx, *o)
			if time.Since(start) > 20*time.Second {
				t.Errorf("the run took %v to stop", time.Since(start))
			}
			<-stopped
			if !errors.Is(err, ErrInterrupted) || sum.Status != runfile.EndInterrupted {
				t.Fatalf("err = %v, summary %+v: want interrupted", err, sum)
			}
			run := readRunFile(t, out)
			if run.End == nil || run.End.Status != runfile.EndInterrupted || !strings.Contains(run.End.Reason, "interrupted by a signal") {
				t.Errorf("end = %+v", run.End)
			}
			var cancelled, c4 int
			for _, r := range run.Requests {
				if r.Status == runfile.StatusCancelled {
					cancelled++
				}
				if r.Phase == "c4" {
					c4++
				}
			}
			if tc.wantCancelled != (cancelled > 0) || cancelled > 4 {
				t.Errorf("%d cancelled records, want some: %v (at most 4)", cancelled, tc.wantCancelled)
			}
			if c4 < 2 || srv.served.Load() != servedAtStop.Load() {
				t.Errorf("%d c4 records; %d requests started after the interruption, want none", c4, srv.served.Load()-servedAtStop.Load())
			}
			if tc.wantCancelled && !strings.Contains(run.End.Reason, "were cancelled") {
				t.Errorf("end reason %q does not count the cancelled requests", run.End.Reason)
			}
			// The rerun completes the run; no pair twice.
			srv.hang.Store(false)
			before, _ := os.ReadFile(out)
			if _, err := Run(context.Background(), *prepare(t, cfg)); err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(out)
			if !bytes.HasPrefix(after, before) {
				t.Error("the resumed run changed earlier records")
			}
			run = readRunFile(t, out)
			checkExactlyOnce(t, run)
			if run.End.Status != runfile.EndComplete {
				t.Errorf("last end record %+v, want complete", run.End)
			}
		})
	}
}

// interruptAt calls do once after n records of phase.
type interruptAt struct {
	Progress
	phase string
	after int
	do    func()
	mu    sync.Mutex
	n     int
}

func (p *interruptAt) Recorded(rec *runfile.Request) {
	p.mu.Lock()
	if rec.Phase == p.phase {
		p.n++
		if p.n == p.after {
			p.do()
		}
	}
	p.mu.Unlock()
	p.Progress.Recorded(rec)
}

func TestAppenderConcurrentRecordsStayWhole(t *testing.T) {
	for _, doSync := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "lines.jsonl")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		a := newAppender(f, doSync)
		var wg sync.WaitGroup
		for g := range 16 {
			wg.Go(func() {
				for i := range 50 {
					if err := a.Append(map[string]int{"g": g, "i": i}); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		f.Close()
		data, _ := os.ReadFile(path)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		seen := map[string]bool{}
		for _, l := range lines {
			if !strings.HasPrefix(l, `{"g":`) || !strings.HasSuffix(l, "}") || seen[l] {
				t.Fatalf("bad or repeated line %q", l)
			}
			seen[l] = true
		}
		if len(lines) != 16*50 {
			t.Errorf("sync=%v: %d lines, want %d", doSync, len(lines), 16*50)
		}
	}
	// A failed write is reported to the caller, and to every later one.
	f, _ := os.Create(filepath.Join(t.TempDir(), "x"))
	f.Close()
	a := newAppender(f, true)
	if err := a.Append(1); err == nil {
		t.Error("writing to a closed file succeeded")
	}
	if err := a.Append(2); err == nil {
		t.Error("a later write after a failure succeeded")
	}
}

// Parquet rows are sent from memory to a server, and written to temporary
// files for a command; their hashes and labels reach the header.
func TestParquetDatasetRuns(t *testing.T) {
	pq := filepath.Join(t.TempDir(), "test-00000-of-00001.parquet")
	writeParquet(t, pq, 3)
	srv := newFakeServer(t, nil)
	out := filepath.Join(t.TempDir(), "server.jsonl")
	if _, err := Run(context.Background(), *prepare(t, openaiConfig(pq, out, srv.baseURL()))); err != nil {
		t.Fatal(err)
	}
	run := readRunFile(t, out)
	checkExactlyOnce(t, run)
	for _, r := range run.Requests {
		want := "TOTAL row" + strings.TrimPrefix(r.SampleID, "cord-test-000")
		if r.OutputString() != want || r.ImageSHA256 != sha256Hex(fakeImage("row"+strings.TrimPrefix(r.SampleID, "cord-test-000"))) {
			t.Errorf("%s/%s: output %q, want %q", r.Phase, r.SampleID, r.OutputString(), want)
		}
	}
	if h := run.Header; h.Dataset.Split != "test" || len(h.Samples) != 3 || len(h.Samples[2].Label) == 0 || h.Samples[2].Image != "test-00000-of-00001.parquet row 2" {
		t.Errorf("header dataset %+v samples %+v", h.Dataset, h.Samples)
	}
	// The scorer, given the same parquet file as references, checks the
	// records' image hashes against the file's images: they agree.
	refs, err := cord.Load(pq, receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := receipts.Score(refs, run, receipts.Options{}); err != nil || !rep.Complete || len(rep.Pages) != 6 {
		t.Errorf("scoring against the parquet file: %v", err)
	}

	out = filepath.Join(t.TempDir(), "command.jsonl")
	cfg := &Config{Out: out, Dataset: DatasetConfig{Path: pq, Offset: 1}, Command: "wc -c < {image}; basename {image}", Concurrency: []int{2}}
	o := prepare(t, cfg)
	for range 2 { // the same options twice: the temporary files are the run's own
		os.Remove(out)
		if _, err := Run(context.Background(), *o); err != nil {
			t.Fatal(err)
		}
	}
	run = readRunFile(t, out)
	checkExactlyOnce(t, run)
	for _, r := range run.Requests {
		lines := strings.Fields(r.OutputString())
		if len(lines) != 2 || lines[0] != itoa(len(fakeImage("row1"))) || !strings.HasSuffix(lines[1], ".png") || !strings.Contains(lines[1], r.SampleID) {
			t.Errorf("%s/%s: output %q", r.Phase, r.SampleID, r.OutputString())
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(os.TempDir(), "docscore-pilot-images-*", "*"+run.Header.Planned.SampleIDs[0]+"*")); len(matches) != 0 {
		t.Errorf("temporary images left behind: %v", matches)
	}
}
