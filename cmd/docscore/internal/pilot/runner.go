package pilot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docscore/docscore/scoring/runfile"
)

// Phase is one measured phase: its name in the run file and how many
// requests are in flight at once.
type Phase struct {
	Name        string
	Concurrency int
}

// PhaseName is the name of the measured phase at concurrency c: "c1", "c4".
func PhaseName(c int) string { return "c" + itoa(c) }

// Options are everything Run needs; Prepare builds them from a Config.
type Options struct {
	// Out is the run file: created, or resumed when it exists.
	Out string
	// Header is the prepared run header. For a resumed run its run id and
	// creation time are replaced by the file's.
	Header  runfile.Header
	Samples []Sample
	Phases  []Phase
	Engine  Engine
	// Deadline bounds each request.
	Deadline time.Duration
	// Grace is how long in-flight requests may finish after the run is
	// interrupted before they are cancelled (and recorded as cancelled).
	Grace time.Duration
	// NoSync skips the fsync after each write (faster, not crash-safe
	// against power loss; a killed process still loses nothing).
	NoSync   bool
	GPU      *GPUOptions
	Progress Progress
	// Abort, when it ends after the run was interrupted (a second
	// Ctrl-C), cuts the grace period short: in-flight requests are
	// cancelled at once. Nil means never.
	Abort context.Context

	skipWarmup bool // benchmarks measure one phase alone
}

// Summary says how a run ended.
type Summary struct {
	RunID   string
	Out     string
	Status  string // runfile.EndComplete or runfile.EndInterrupted
	Reason  string
	Resumed bool
	// AlreadyComplete is set when the file held a complete run: nothing
	// was sent and nothing written.
	AlreadyComplete bool
	// Written counts the request records this invocation wrote; Failed
	// those whose status is not ok.
	Written, Failed int
}

// Errors Run returns (wrapped) when a run stops early; the run file then
// ends with an end record "interrupted" saying why.
var (
	ErrInterrupted  = errors.New("the run was interrupted")
	ErrWarmupFailed = errors.New("a warmup request failed")
)

var (
	errDeadline    = errors.New("request deadline exceeded")
	errCancelled   = errors.New("run interrupted")
	errStopServing = errors.New("run stopped after an error")
)

type pairKey struct{ phase, sample string }

// runner is one Run in progress.
type runner struct {
	o        Options
	soft     context.Context // ends when the user interrupts: no new requests
	hard     context.Context // ends after the grace period: in-flight requests are cancelled
	stopHard context.CancelCauseFunc
	app      *appender
	progress Progress

	inflight  atomic.Int64
	cancelled atomic.Int64
	written   atomic.Int64
	failed    atomic.Int64
	fatalMu   sync.Mutex
	fatalErr  error
}

// Run runs a prepared pilot (SPEC B.4): it checks or creates the run file,
// runs the GPU procedure when asked, writes the header of a new run, then
// one warmup request per image (sequentially; a failed one stops measured
// work) and the measured phases in order, each at its concurrency, with
// no retries and a deadline per request. Every terminal record is appended
// and fsynced as it ends; pairs already in a resumed file are skipped.
// When ctx ends (Ctrl-C) no new request starts, in-flight ones get
// o.Grace to finish and are then cancelled; the file ends with an end
// record "interrupted" and Run returns an error wrapping ErrInterrupted.
func Run(ctx context.Context, o Options) (*Summary, error) {
	if err := checkOptions(&o); err != nil {
		return nil, err
	}
	o.Samples = slices.Clone(o.Samples) // temporary image paths stay this run's
	progress := o.Progress
	if progress == nil {
		progress = NewProgress(discard{}, false, true)
	}
	rf, err := prepareRunFile(o.Out, &o.Header)
	if err != nil {
		return nil, err
	}
	defer rf.Close()
	if rf.repaired != "" {
		progress.Note("%s", rf.repaired)
	}
	sum := &Summary{RunID: o.Header.RunID, Out: o.Out, Resumed: rf.existing != nil}

	// What is recorded already.
	warm := map[string]runfile.Status{}
	done := map[pairKey]bool{}
	var warmupFailure string
	if rf.existing != nil {
		for _, rec := range rf.existing.Requests {
			if rec.Phase == runfile.WarmupPhase {
				if _, seen := warm[rec.SampleID]; !seen {
					warm[rec.SampleID] = rec.Status
					if warmupFailure == "" && failedWarmup(rec.Status) {
						warmupFailure = warmupReason(&rec.Request)
					}
				}
				continue
			}
			done[pairKey{rec.Phase, rec.SampleID}] = true
		}
	}
	pendingWarm := []*Sample{}
	for i := range o.Samples {
		if _, ok := warm[o.Samples[i].SampleID]; !ok && !o.skipWarmup {
			pendingWarm = append(pendingWarm, &o.Samples[i])
		}
	}
	pending := make([][]*Sample, len(o.Phases))
	remaining := 0
	for p, ph := range o.Phases {
		for i := range o.Samples {
			if !done[pairKey{ph.Name, o.Samples[i].SampleID}] {
				pending[p] = append(pending[p], &o.Samples[i])
			}
		}
		remaining += len(pending[p])
	}
	if rf.existing != nil && warmupFailure == "" && len(pendingWarm) == 0 && remaining == 0 &&
		rf.existing.End != nil && rf.existing.End.Status == runfile.EndComplete {
		sum.Status, sum.AlreadyComplete = runfile.EndComplete, true
		progress.Note("%s already holds the complete run %s: nothing to do", o.Out, sum.RunID)
		return sum, nil
	}
	if rf.existing != nil {
		progress.Note("resuming run %s from %s: %s and %s left", sum.RunID, o.Out, plural(len(pendingWarm), "warmup"), plural(remaining, "measured request"))
	}

	// Images held in memory get a file when the engine needs a path.
	if _, ok := o.Engine.(*CommandEngine); ok {
		dir, err := writeImageFiles(o.Samples)
		if err != nil {
			return nil, err
		}
		if dir != "" {
			defer os.RemoveAll(dir)
		}
	}

	// The GPU procedure: nothing is written before the server is ready.
	if o.GPU.Enabled() && warmupFailure == "" {
		stop, err := startGPUProcedure(ctx, o.GPU, progress)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%w before the server was ready: %v", ErrInterrupted, err)
			}
			return nil, err
		}
		defer stop()
	}

	if ctx.Err() != nil {
		return sum, fmt.Errorf("%w before the first request; nothing was written", ErrInterrupted)
	}
	if rf.existing == nil {
		if err := rf.create(); err != nil {
			return nil, err
		}
	}
	app, err := rf.appender(!o.NoSync)
	if err != nil {
		return nil, err
	}
	if rf.existing == nil {
		if err := app.Append(o.Header); err != nil {
			return nil, err
		}
	}

	if warmupFailure != "" {
		last := rf.existing.End
		if last == nil || last.Reason != warmupFailure {
			if err := app.Append(endRecord(runfile.EndInterrupted, warmupFailure)); err != nil {
				return nil, err
			}
		}
		sum.Status, sum.Reason = runfile.EndInterrupted, warmupFailure
		return sum, fmt.Errorf("%w: %s; measured work stays stopped for this run file (start a new one with another --out)", ErrWarmupFailed, warmupFailure)
	}

	hard, stopHard := context.WithCancelCause(context.Background())
	defer stopHard(nil)
	r := &runner{o: o, soft: ctx, hard: hard, stopHard: stopHard, app: app, progress: progress}
	runDone := make(chan struct{})
	defer close(runDone)
	go r.watchInterrupt(runDone)

	reason := ""
	if len(pendingWarm) > 0 {
		reason = r.warmups(pendingWarm, len(o.Samples)-len(pendingWarm))
	}
	for p, ph := range o.Phases {
		if reason != "" || r.stopped() {
			break
		}
		if len(pending[p]) == 0 {
			progress.Note("phase %s: all %s already recorded", ph.Name, plural(len(o.Samples), "request"))
			continue
		}
		r.phase(ph, pending[p], len(o.Samples)-len(pending[p]))
	}
	sum.Written, sum.Failed = int(r.written.Load()), int(r.failed.Load())
	if err := r.fatal(); err != nil {
		// A write failed or an image changed: try to say so in the file.
		_ = app.Append(endRecord(runfile.EndInterrupted, "error: "+err.Error()))
		sum.Status, sum.Reason = runfile.EndInterrupted, "error: "+err.Error()
		return sum, err
	}
	status := runfile.EndComplete
	warmupFailed := reason != ""
	// A run interrupted after its last request was recorded is complete,
	// unless the interruption cancelled a request.
	allDone := sum.Written == len(pendingWarm)+remaining && r.cancelledCount() == 0
	switch {
	case warmupFailed:
		status = runfile.EndInterrupted
	case ctx.Err() != nil && !allDone:
		status = runfile.EndInterrupted
		reason = "interrupted by a signal (Ctrl-C or SIGTERM): no new requests were started"
		if n := r.cancelledCount(); n > 0 {
			reason += fmt.Sprintf("; %d in-flight request(s) were cancelled (grace period %s)", n, o.Grace)
		}
	}
	if err := app.Append(endRecord(status, reason)); err != nil {
		return sum, err
	}
	sum.Status, sum.Reason = status, reason
	switch {
	case status == runfile.EndComplete:
		return sum, nil
	case warmupFailed:
		return sum, fmt.Errorf("%w: %s; measured work was not started", ErrWarmupFailed, reason)
	}
	return sum, fmt.Errorf("%w: %s; rerun the same command to resume", ErrInterrupted, reason)
}

func checkOptions(o *Options) error {
	if o.Out == "" {
		return errors.New("no output file: --out is required")
	}
	if o.Engine == nil {
		return errors.New("no engine")
	}
	if len(o.Samples) == 0 {
		return errors.New("no samples")
	}
	if o.Deadline <= 0 {
		return errors.New("the request deadline must be positive")
	}
	seen := map[string]bool{}
	for _, p := range o.Phases {
		if p.Concurrency < 1 {
			return fmt.Errorf("phase %s: concurrency %d: expected 1 or more", p.Name, p.Concurrency)
		}
		if p.Name == "" || p.Name == runfile.WarmupPhase || seen[p.Name] {
			return fmt.Errorf("phase name %q is empty, reserved or repeated", p.Name)
		}
		seen[p.Name] = true
	}
	return nil
}

// failedWarmup reports whether a warmup status stops measured work: the
// request failed. A warmup cancelled by an interruption is not a failure.
func failedWarmup(s runfile.Status) bool {
	return s == runfile.StatusTimeout || s == runfile.StatusHTTPError || s == runfile.StatusTransportError
}

func warmupReason(rec *runfile.Request) string {
	msg := fmt.Sprintf("warmup of %s failed: %s", rec.SampleID, rec.Status)
	if rec.Error != nil && *rec.Error != "" {
		msg += " (" + clip(*rec.Error, 300) + ")"
	}
	return msg
}

func endRecord(status, reason string) runfile.End {
	e := runfile.NewEnd(status)
	e.Reason = reason
	e.FinishedAt = time.Now().UTC().Format(time.RFC3339Nano)
	return e
}

// watchInterrupt turns the user's interruption into a cancellation of the
// in-flight requests once the grace period has passed.
func (r *runner) watchInterrupt(runDone <-chan struct{}) {
	select {
	case <-runDone:
		return
	case <-r.hard.Done():
		return
	case <-r.soft.Done():
	}
	if n := r.inflight.Load(); n > 0 {
		r.progress.Note("interrupted: no new requests; waiting up to %s for %d in-flight request(s), then cancelling them (Ctrl-C again cancels them at once)", r.o.Grace, n)
	} else {
		r.progress.Note("interrupted: no new requests")
	}
	var abort <-chan struct{}
	if r.o.Abort != nil {
		abort = r.o.Abort.Done()
	}
	if r.o.Grace > 0 {
		t := time.NewTimer(r.o.Grace)
		defer t.Stop()
		select {
		case <-runDone:
			return
		case <-t.C:
		case <-abort:
			r.progress.Note("cancelling the in-flight requests now")
		}
	}
	r.stopHard(errCancelled)
}

// stopped reports whether no new request may start.
func (r *runner) stopped() bool {
	return r.soft.Err() != nil || r.hard.Err() != nil
}

func (r *runner) fatal() error {
	r.fatalMu.Lock()
	defer r.fatalMu.Unlock()
	return r.fatalErr
}

func (r *runner) setFatal(err error) {
	r.fatalMu.Lock()
	if r.fatalErr == nil {
		r.fatalErr = err
	}
	r.fatalMu.Unlock()
	r.stopHard(errStopServing)
}

func (r *runner) cancelledCount() int { return int(r.cancelled.Load()) }

// warmups runs one warmup per sample, one at a time, and returns the
// reason measured work must not start ("" when all went well).
func (r *runner) warmups(pending []*Sample, recorded int) string {
	r.progress.PhaseStart(runfile.WarmupPhase, len(pending), recorded, 1)
	defer r.progress.PhaseEnd(runfile.WarmupPhase)
	for _, s := range pending {
		if r.stopped() {
			return ""
		}
		rec, ok := r.request(runfile.WarmupPhase, s)
		if !ok {
			return ""
		}
		if failedWarmup(rec.Status) {
			return warmupReason(rec)
		}
	}
	return ""
}

// phase runs the given samples of one measured phase with ph.Concurrency
// workers, which take samples in plan order until none is left or the run
// stops.
func (r *runner) phase(ph Phase, pending []*Sample, recorded int) {
	r.progress.PhaseStart(ph.Name, len(pending), recorded, ph.Concurrency)
	defer r.progress.PhaseEnd(ph.Name)
	var mu sync.Mutex
	next := 0
	take := func() *Sample {
		mu.Lock()
		defer mu.Unlock()
		if next >= len(pending) || r.stopped() {
			return nil
		}
		s := pending[next]
		next++
		return s
	}
	var wg sync.WaitGroup
	for range min(ph.Concurrency, len(pending)) {
		wg.Go(func() {
			for s := take(); s != nil; s = take() {
				if _, ok := r.request(ph.Name, s); !ok {
					return
				}
			}
		})
	}
	wg.Wait()
}

// request sends one request, records it durably and reports it; false
// means the run must stop (the error is kept for Run).
func (r *runner) request(phase string, s *Sample) (*runfile.Request, bool) {
	img, err := r.image(s)
	if err != nil {
		r.setFatal(err)
		return nil, false
	}
	r.inflight.Add(1)
	ctx, cancel := context.WithTimeoutCause(r.hard, r.o.Deadline, errDeadline)
	started := time.Now()
	res := r.o.Engine.Do(ctx, EngineRequest{SampleID: s.SampleID, Path: s.Path, Image: img, MediaType: s.MediaType})
	latency := time.Since(started)
	ctxErr, cause := ctx.Err(), context.Cause(ctx)
	cancel()
	r.inflight.Add(-1)
	if res.Status != runfile.StatusOK && ctxErr != nil {
		switch {
		case errors.Is(cause, errDeadline):
			res.Status = runfile.StatusTimeout
			res.Err = fmt.Sprintf("deadline of %s exceeded", r.o.Deadline)
		default:
			res.Status = runfile.StatusCancelled
			res.Err = "cancelled: the run was interrupted while the request was in flight"
			if errors.Is(cause, errCancelled) {
				r.cancelled.Add(1)
			}
		}
	}
	rec := &runfile.Request{
		Type:         runfile.TypeRequest,
		Phase:        phase,
		SampleID:     s.SampleID,
		ImageSHA256:  s.ImageSHA256,
		Status:       res.Status,
		FinishReason: res.FinishReason,
		Output:       res.Output,
		LatencyS:     math.Round(latency.Seconds()*1e6) / 1e6,
		Usage:        res.Usage,
		StartedAt:    started.UTC().Format(time.RFC3339Nano),
		HTTPStatus:   res.HTTPStatus,
		ExitCode:     res.ExitCode,
	}
	if res.Err != "" {
		rec.Error = strPtr(res.Err)
	}
	rec.EmptyOutput = res.Status == runfile.StatusOK && strings.TrimSpace(rec.OutputString()) == ""
	rec.Truncated = rec.FinishReasonString() == runfile.FinishLength
	if err := r.app.Append(rec); err != nil {
		r.setFatal(err)
		return nil, false
	}
	r.written.Add(1)
	if rec.Status != runfile.StatusOK {
		r.failed.Add(1)
	}
	r.progress.Recorded(rec)
	return rec, true
}

// image returns a sample's bytes, checked against the prepared hash.
func (r *runner) image(s *Sample) ([]byte, error) {
	if s.Data != nil {
		return s.Data, nil
	}
	data, err := readFile(s.Path)
	if err != nil {
		return nil, fmt.Errorf("image of %s: %v", s.SampleID, err)
	}
	if got := sha256Hex(data); got != s.ImageSHA256 {
		return nil, fmt.Errorf("image of %s (%s) changed since the run was prepared: sha256 %s, prepared %s", s.SampleID, s.Path, got, s.ImageSHA256)
	}
	return data, nil
}

// writeImageFiles gives every in-memory image a file in a new temporary
// directory (returned; "" when none was needed).
func writeImageFiles(samples []Sample) (string, error) {
	dir := ""
	for i := range samples {
		s := &samples[i]
		if s.Data == nil || s.Path != "" {
			continue
		}
		if dir == "" {
			d, err := os.MkdirTemp("", "docscore-pilot-images-")
			if err != nil {
				return "", err
			}
			dir = d
		}
		name := fmt.Sprintf("%04d-%s%s", i, safeName(s.SampleID), extension(s.MediaType))
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, s.Data, 0o600); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
		s.Path = p
	}
	return dir, nil
}

// safeName keeps letters, digits, '-', '_' and '.' of a sample id.
func safeName(id string) string {
	var b bytes.Buffer
	for _, c := range id {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// startGPUProcedure removes labelled containers, checks the free GPU
// memory, starts the server and waits for its health endpoint. The
// returned function stops the server and removes the labelled containers
// again.
func startGPUProcedure(ctx context.Context, g *GPUOptions, progress Progress) (func(), error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	cleanup := func(when string) {
		if g.ContainerLabel == "" {
			return
		}
		ids, err := RemoveLabelledContainers(context.Background(), g.ContainerLabel)
		switch {
		case err != nil:
			progress.Note("warning: removing containers labelled %s %s: %v", g.ContainerLabel, when, err)
		case len(ids) > 0:
			progress.Note("removed %d container(s) labelled %s %s: %s", len(ids), g.ContainerLabel, when, strings.Join(ids, " "))
		}
	}
	cleanup("before starting")
	if g.MinFreeMiB > 0 {
		free, err := CheckGPUMemory(ctx, g.Index, g.MinFreeMiB)
		if err != nil {
			return nil, err
		}
		progress.Note("GPU %d: %d MiB free (at least %d needed)", g.Index, free, g.MinFreeMiB)
	}
	var srv *Server
	stop := func() {
		if srv != nil {
			if err := srv.Stop(g.StopTimeout); err != nil {
				progress.Note("warning: %v", err)
			} else {
				progress.Note("server stopped")
			}
		}
		cleanup("after the run")
	}
	if g.ServerCmd != "" {
		var err error
		srv, err = StartServer(g.ServerCmd, g.ServerLog)
		if err != nil {
			cleanup("after a failed start")
			return nil, err
		}
		progress.Note("server started (pid %d, log %s)", srv.cmd.Process.Pid, g.ServerLog)
	}
	if g.HealthURL != "" {
		timeout := g.HealthTimeout
		if timeout <= 0 {
			timeout = 10 * time.Minute
		}
		if err := WaitHealthy(ctx, g.HealthURL, timeout, g.HealthInterval, srv); err != nil {
			stop()
			return nil, fmt.Errorf("waiting for the server: %w", err)
		}
		progress.Note("server ready: %s answered", g.HealthURL)
	}
	return stop, nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
