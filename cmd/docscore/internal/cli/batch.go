package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/harnessio"
	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// envBatchPoll sets the first polling interval of --batch (tests poll
// fast with it); --batch-poll wins.
const envBatchPoll = "DOCSCORE_BATCH_POLL"

const batchHelp = `With --batch the judge requests go through the provider's batch API
(OpenAI Batch on /v1/responses, Anthropic Message Batches): half the price,
answers within 24 hours. It needs --checkpoint-dir: the batch id and the
request ids are written there before the first poll, so a process killed
while a batch runs picks the same batch up on rerun instead of paying for it
again. The batch is polled from --batch-poll (default 5s, or
$` + envBatchPoll + `), doubling up to 2m, with a progress line on standard
error. Items the batch answered with an error, expired or cancelled ones
are uncertain and queued for review; --resubmit sends them again.`

// errBatchStore refuses --batch without --checkpoint-dir.
var errBatchStore = usageError("--batch needs --checkpoint-dir DIR: the batch id is kept there, so that a rerun resumes the batch instead of paying for it twice")

// batchScope is one pass of a command's work: the adapters to ask and
// the checkpoint store to write to. Without --batch there is one pass,
// straight to the store and the provider.
type batchScope struct {
	pass   *modeladapter.Pass
	store  evalcase.CheckpointStore
	buf    *modeladapter.BufferedStore
	runner *modeladapter.BatchRunner
	// cacheUsage receives the records of answers from the call cache.
	cacheUsage *judging.UsageTracker
}

// wrap returns the adapter a pass asks: in batch mode, the one that
// answers from the batch ledger and collects the rest.
func (sc *batchScope) wrap(a judging.ModelAdapter) (judging.ModelAdapter, error) {
	if sc.pass == nil {
		return a, nil
	}
	w, err := sc.pass.Wrap(a)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return w, nil
}

// cached wraps a (already wrapped) with the call cache when there is a
// store.
func (sc *batchScope) cached(a judging.ModelAdapter, ctx any) judging.ModelAdapter {
	if sc.store == nil {
		return a
	}
	return &judging.CachedAdapter{Adapter: a, Store: sc.store, Context: ctx, Usage: sc.cacheUsage}
}

// usage lists the usage sources of the pass besides the raw adapters.
func (sc *batchScope) usage() []any {
	out := []any{sc.cacheUsage}
	if sc.pass != nil {
		out = append(out, sc.pass)
	}
	return out
}

// commit writes the final pass's checkpoints (only the answers when a
// batch left requests unanswered, so that --resubmit asks again) and
// marks the batch answers as reported. Call it after the outputs.
func (sc *batchScope) commit() error {
	if sc.buf == nil {
		return nil
	}
	var keep func(string) bool
	if sc.pass.Unanswered() > 0 {
		keep = func(k string) bool { return strings.HasPrefix(k, "call/") }
	}
	if err := sc.buf.Flush(keep); err != nil {
		return err
	}
	return sc.runner.Finish()
}

// runJudged runs work once, or in batch mode as many passes as the
// batches need, and returns the final pass.
func (s judgeSettings) runJudged(env *Env, store evalcase.CheckpointStore, work func(sc *batchScope) error) (*batchScope, error) {
	if !s.batch {
		sc := &batchScope{store: store, cacheUsage: &judging.UsageTracker{}}
		return sc, work(sc)
	}
	if store == nil {
		return nil, errBatchStore
	}
	r := &modeladapter.BatchRunner{Store: store, Poll: modeladapter.PollPolicy{First: s.batchPoll}, Resubmit: s.resubmit, Budget: s.budget,
		Log: func(line string) { fmt.Fprintln(env.Stderr, "docscore: "+line) }}
	var last *batchScope
	_, err := r.Run(env.Context, func(_ context.Context, p *modeladapter.Pass) error {
		last = &batchScope{pass: p, buf: &modeladapter.BufferedStore{Base: store}, runner: r, cacheUsage: &judging.UsageTracker{}}
		last.store = last.buf
		return work(last)
	})
	if err != nil {
		return nil, err
	}
	return last, nil
}

// openStore opens the --checkpoint-dir store (nil without one).
func openStore(dir string) (evalcase.CheckpointStore, error) {
	if dir == "" {
		return nil, nil
	}
	fs, err := harnessio.NewFileCheckpointStore(dir)
	if err != nil {
		return nil, err
	}
	return fs, nil
}

// batchSettings reads --batch, --resubmit and --batch-poll.
func (f *judgeFlags) batchSettings(env *Env, s *judgeSettings) error {
	fl := f.cmd.Flags()
	s.batch, s.resubmit = f.batch, f.resubmit
	if !f.batch {
		for _, name := range []string{"resubmit", "batch-poll"} {
			if fl.Changed(name) {
				return usageError("--%s goes with --batch", name)
			}
		}
		return nil
	}
	s.batchPoll = f.batchPoll
	if !fl.Changed("batch-poll") {
		if v := env.Getenv(envBatchPoll); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return usageError("%s=%q: expected a positive duration such as 50ms or 10s", envBatchPoll, v)
			}
			s.batchPoll = d
		}
	} else if f.batchPoll <= 0 {
		return usageError("--batch-poll %s: expected a positive duration", f.batchPoll)
	}
	return nil
}
