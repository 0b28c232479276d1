package modeladapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// Batch mode sends the judge requests of a run through the provider's
// batch API (OpenAI Files + Batches, Anthropic Message Batches) instead
// of one call each: half the price, answers within 24 hours.
//
// A run in batch mode is a sequence of passes of the command's own work
// (BatchRunner.Run). In each pass the adapters are wrapped (Pass.Wrap):
// a request the ledger already has an answer for is answered from it; any
// other is collected and answered in this pass with errPending (a pass
// with such answers is never reported). When a
// pass collected nothing, it is the final pass and its results are the
// run's. Otherwise the collected requests are submitted as one batch per
// adapter, the batch ids and request ids are written to the ledger (one
// checkpoint, atomically) before the first poll, the batches are polled
// until they end, their results are written to the ledger, and the next
// pass runs. A process killed while a batch runs finds the batch in the
// ledger on rerun and polls it instead of submitting again.

// BatchProvider is an adapter that can also send requests through its
// provider's batch API. The OpenAI and Anthropic adapters are ones.
type BatchProvider interface {
	judging.ModelAdapter
	// SubmitBatch submits items as one batch and returns its handle.
	SubmitBatch(ctx context.Context, items []BatchItem) (BatchHandle, error)
	// PollBatch reports a batch's status.
	PollBatch(ctx context.Context, h BatchHandle) (BatchStatus, error)
	// BatchResults downloads an ended batch's results, by custom id.
	BatchResults(ctx context.Context, h BatchHandle, st BatchStatus) (map[string]BatchResult, error)
	// RequestWarnings are the warnings the direct call's answer to req
	// would carry (what could not be sent).
	RequestWarnings(req judging.ModelRequest) []string
}

// BatchItem is one request of a batch and its id (custom_id).
type BatchItem struct {
	CustomID string
	Request  judging.ModelRequest
}

// BatchHandle names a submitted batch.
type BatchHandle struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	ID       string `json:"batch_id"`
	// InputFileID is the uploaded request file (OpenAI).
	InputFileID string `json:"input_file_id,omitempty"`
}

// BatchStatus is what a poll reports.
type BatchStatus struct {
	// Status is the provider's word: validating, in_progress, finalizing,
	// completed, expired, cancelling, cancelled, failed (OpenAI);
	// in_progress, canceling, ended (Anthropic).
	Status string
	// Ended is true once no request will be answered any more.
	Ended bool
	// Outcome, once ended: completed, expired, cancelled or failed.
	Outcome string
	// Counts of requests.
	Total, Done, Failed, InProgress int
	// OutputFileID and ErrorFileID are OpenAI's result files.
	OutputFileID, ErrorFileID string
	// Errors are batch-level errors (a request file that did not
	// validate).
	Errors []string
	// ExpiresAt is when the provider gives up on the batch.
	ExpiresAt time.Time
}

// The states of a batch item's result.
const (
	ItemSucceeded = "succeeded"
	ItemErrored   = "errored"
	ItemExpired   = "expired"
	ItemCancelled = "cancelled"
	// ItemMissing: the batch ended (failed) without a line for the item.
	ItemMissing = "missing"
)

// BatchResult is one item's result.
type BatchResult struct {
	State string `json:"state"`
	// Response is the answer of a succeeded item (usage priced at the
	// batch price).
	Response *judging.ModelResponse `json:"response,omitempty"`
	// Error says why an item has no answer.
	Error string `json:"error,omitempty"`
	// Consumed is set once a run's final pass reported the answer: it is
	// in the call cache from then on, and the ledger drops it.
	Consumed bool `json:"consumed,omitempty"`
}

// answered reports whether the provider answered (and billed) the item.
func (r BatchResult) answered() bool { return r.State == ItemSucceeded }

// CustomID is a request's id in a batch: "ds_" and 40 hex digits of the
// request's fingerprint (request, model and settings), which fits both
// providers' custom_id rules.
func CustomID(req judging.ModelRequest, info judging.ModelInfo) (string, error) {
	fp, err := req.Fingerprint(info)
	if err != nil {
		return "", err
	}
	return "ds_" + fp[:40], nil
}

// The ledger is the checkpoint (key LedgerKey) that holds every batch a
// checkpoint directory submitted: ids, request ids, status and results.
const (
	LedgerKey     = "batch/ledger"
	ledgerVersion = 1
)

type ledger struct {
	Version int         `json:"version"`
	Jobs    []*batchJob `json:"jobs"`
}

// batchJob is one submitted batch.
type batchJob struct {
	BatchHandle
	// Label is the adapter's provider/model.
	Label     string    `json:"label"`
	CreatedAt time.Time `json:"created_at"`
	// Requests are the custom ids submitted.
	Requests []string `json:"requests"`
	Status   string   `json:"status"`
	Ended    bool     `json:"ended"`
	Outcome  string   `json:"outcome,omitempty"`
	Errors   []string `json:"errors,omitempty"`
	// Results are written once the batch ended.
	Results map[string]BatchResult `json:"results,omitempty"`
	index   map[string]bool
}

func (j *batchJob) has(id string) bool {
	if j.index == nil {
		j.index = make(map[string]bool, len(j.Requests))
		for _, r := range j.Requests {
			j.index[r] = true
		}
	}
	return j.index[id]
}

// PollPolicy is how often a batch is polled: from First, doubling up to
// Max (default: 5 s doubling up to 2 min, or 32 times First when that is
// less).
type PollPolicy struct {
	First, Max time.Duration
}

// DefaultBatchPoll is the first polling interval.
const DefaultBatchPoll = 5 * time.Second

func (p PollPolicy) withDefaults() PollPolicy {
	if p.First <= 0 {
		p.First = DefaultBatchPoll
	}
	if p.Max <= 0 {
		p.Max = 2 * time.Minute
		if m := 32 * p.First; m < p.Max {
			p.Max = m
		}
	}
	if p.Max < p.First {
		p.Max = p.First
	}
	return p
}

// BatchRunner runs a command's work in batch mode.
type BatchRunner struct {
	// Store keeps the ledger (the command's checkpoint directory).
	Store evalcase.CheckpointStore
	Poll  PollPolicy
	// Resubmit sends again the requests of an expired, cancelled or
	// failed batch, and the items a batch answered with an error;
	// without it they are reported and left unanswered.
	Resubmit bool
	// Log receives the progress lines and reports (standard error).
	Log func(line string)
	// Sleep waits between polls (nil: a timer that ends with ctx).
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Budget, when set, is the run's cost ceiling (--max-cost): before a
	// batch is submitted each of its requests reserves its upper bound at
	// the batch price (BatchEstimator); a request the ceiling refuses is
	// not submitted, and the work's next pass gets a
	// *judging.NotJudgedError for it. A batch's reservations are settled
	// with its answers' usage once it ended.
	Budget *Budget

	mu          sync.Mutex
	led         *ledger
	resubmitted map[string]bool
	// refused: requests the budget refused, with the reason; settle: the
	// reservations of the requests in flight.
	refused map[string]string
	settle  map[string]func(judging.Usage)
	// Creations counts the batches this runner created.
	Creations int
	final     *Pass
}

func (r *BatchRunner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *BatchRunner) log(format string, args ...any) {
	if r.Log != nil {
		r.Log(fmt.Sprintf(format, args...))
	}
}

func (r *BatchRunner) load() error {
	if r.led != nil {
		return nil
	}
	r.led = &ledger{Version: ledgerVersion}
	r.resubmitted = map[string]bool{}
	r.refused = map[string]string{}
	r.settle = map[string]func(judging.Usage){}
	data, ok, err := r.Store.Load(LedgerKey)
	if err != nil {
		return fmt.Errorf("batch ledger: %w", err)
	}
	if !ok {
		return nil
	}
	var l ledger
	if err := json.Unmarshal(data, &l); err != nil {
		return fmt.Errorf("batch ledger %s: %v (expected the JSON docscore writes; move it away to start over, which submits the requests again)", LedgerKey, err)
	}
	if l.Version != ledgerVersion {
		return fmt.Errorf("batch ledger %s: version %d, expected %d", LedgerKey, l.Version, ledgerVersion)
	}
	r.led = &l
	return nil
}

// save writes the ledger atomically (the store's Save).
func (r *BatchRunner) save() error {
	data, err := json.Marshal(r.led)
	if err != nil {
		return err
	}
	if err := r.Store.Save(LedgerKey, data); err != nil {
		return fmt.Errorf("batch ledger: %w", err)
	}
	return nil
}

// Run runs work in passes until a pass needs no answer it does not have,
// and returns that pass (its usage records). work must build its results
// from scratch each time, asking models only through p.Wrap's adapters,
// and keep no side effect of a pass that is not final (write checkpoints
// through a BufferedStore, flushed after Run).
func (r *BatchRunner) Run(ctx context.Context, work func(ctx context.Context, p *Pass) error) (*Pass, error) {
	if r.Store == nil {
		return nil, errors.New("batch mode needs a checkpoint store for its ledger")
	}
	if err := r.load(); err != nil {
		return nil, err
	}
	for round := 1; ; round++ {
		p := &Pass{r: r, pending: map[string]*pendingItem{}, waiting: map[*batchJob]BatchProvider{}, used: map[*batchJob]map[string]bool{}}
		if err := work(ctx, p); err != nil {
			return nil, err
		}
		if len(p.pending) == 0 && len(p.waiting) == 0 {
			r.final = p
			r.reportUnanswered(p)
			return p, nil
		}
		if err := r.submit(ctx, p); err != nil {
			return nil, err
		}
		if err := r.wait(ctx, p.waiting); err != nil {
			return nil, err
		}
	}
}

func (r *BatchRunner) reportUnanswered(p *Pass) {
	if len(p.unanswered) == 0 {
		return
	}
	ids := make([]string, 0, len(p.unanswered))
	for id := range p.unanswered {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	hint := "rerun with --resubmit to send them again"
	if r.Resubmit {
		hint = "they were sent again and still have no answer"
	}
	r.log("batch: %d request(s) without an answer (errored, expired or cancelled): they are uncertain and queued for review; %s", len(ids), hint)
}

// submit sends the pending requests, one batch per adapter, and writes
// each batch to the ledger before it is polled.
func (r *BatchRunner) submit(ctx context.Context, p *Pass) error {
	byAdapter := map[BatchProvider][]BatchItem{}
	var order []BatchProvider
	for _, it := range p.pendingOrder {
		pi := p.pending[it]
		if _, ok := byAdapter[pi.adapter]; !ok {
			order = append(order, pi.adapter)
		}
		byAdapter[pi.adapter] = append(byAdapter[pi.adapter], BatchItem{CustomID: it, Request: pi.req})
	}
	for _, a := range order {
		items, err := r.reserve(a, byAdapter[a])
		if err != nil {
			return err
		}
		if len(items) == 0 {
			continue
		}
		h, err := a.SubmitBatch(ctx, items)
		if err != nil {
			for _, it := range items {
				r.settled(it.CustomID, nil)
			}
			return fmt.Errorf("batch %s: %w", a.Info().Label(), err)
		}
		r.Creations++
		job := &batchJob{BatchHandle: h, Label: a.Info().Label(), CreatedAt: r.now().UTC(), Status: "submitted"}
		for _, it := range items {
			job.Requests = append(job.Requests, it.CustomID)
			if p.resubmit[it.CustomID] {
				r.resubmitted[it.CustomID] = true
			}
		}
		r.led.Jobs = append(r.led.Jobs, job)
		if err := r.save(); err != nil {
			return fmt.Errorf("batch %s was created but could not be recorded (cancel it with the provider to avoid paying twice): %w", h.ID, err)
		}
		r.log("batch %s %s: %d request(s) submitted", job.Label, h.ID, len(items))
		p.waiting[job] = a
	}
	return nil
}

// reserve reserves the upper bound of each item on the budget and returns
// the items it allowed (all of them without a budget); the others are
// recorded as refused.
func (r *BatchRunner) reserve(a BatchProvider, items []BatchItem) ([]BatchItem, error) {
	if r.Budget == nil {
		return items, nil
	}
	label := a.Info().Label() + " (batch)"
	var kept []BatchItem
	reason := ""
	for _, it := range items {
		upper := 0.0
		if be, ok := a.(BatchEstimator); ok {
			upper = be.BatchEstimate(it.Request).CostUSD
		}
		settle, err := r.Budget.Reserve(label, upper)
		var nj *judging.NotJudgedError
		if errors.As(err, &nj) {
			r.refused[it.CustomID], reason = nj.Reason, nj.Reason
			continue
		}
		if err != nil {
			return nil, err
		}
		r.settle[it.CustomID] = settle
		kept = append(kept, it)
	}
	if n := len(items) - len(kept); n > 0 {
		r.log("batch %s: %d of %d request(s) not submitted: %s", a.Info().Label(), n, len(items), reason)
	}
	return kept, nil
}

// settled settles the reservation of request id (if it has one) with
// what it cost: the answer's usage when res answered it, nothing
// otherwise.
func (r *BatchRunner) settled(id string, res map[string]BatchResult) {
	settle, ok := r.settle[id]
	if !ok {
		return
	}
	var u judging.Usage
	if br, ok := res[id]; ok && br.answered() && br.Response != nil {
		u = br.Response.Usage
	}
	settle(u)
	delete(r.settle, id)
}

// LeftUnanswered reports whether the run will not ask for req (of the
// adapter info describes) at all: the ledger's newest batch that holds it
// ended without an answer and Resubmit is off. A run's cost estimate
// leaves such requests out; it keeps the requests of a batch still
// running or answered but not yet reported, whose answers the run's usage
// counts.
func (r *BatchRunner) LeftUnanswered(info judging.ModelInfo, req judging.ModelRequest) (bool, error) {
	if r.Resubmit {
		return false, nil
	}
	if err := r.load(); err != nil {
		return false, err
	}
	id, err := CustomID(req, info)
	if err != nil {
		return false, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.led.Jobs) - 1; i >= 0; i-- {
		job := r.led.Jobs[i]
		if job.Label != info.Label() || !job.has(id) {
			continue
		}
		if !job.Ended {
			return false, nil
		}
		res := job.Results[id]
		if res.Consumed {
			continue
		}
		return !res.answered() || res.Response == nil, nil
	}
	return false, nil
}

// wait polls the jobs until each ended, then downloads its results.
func (r *BatchRunner) wait(ctx context.Context, jobs map[*batchJob]BatchProvider) error {
	pol := r.Poll.withDefaults()
	sleepFn := r.Sleep
	if sleepFn == nil {
		sleepFn = sleep
	}
	list := make([]*batchJob, 0, len(jobs))
	for j := range jobs {
		list = append(list, j)
	}
	sort.Slice(list, func(i, k int) bool { return list[i].ID < list[k].ID })
	for _, job := range list {
		a := jobs[job]
		interval := pol.First
		for {
			st, err := a.PollBatch(ctx, job.BatchHandle)
			if err != nil {
				return fmt.Errorf("batch %s: %w", job.ID, err)
			}
			if st.Total == 0 {
				st.Total = len(job.Requests)
			}
			r.log("batch %s %s: %s; %d submitted, %d in progress, %d done, %d failed; %s elapsed",
				job.Label, job.ID, st.Status, st.Total, st.InProgress, st.Done, st.Failed, r.now().Sub(job.CreatedAt).Round(time.Millisecond))
			if st.Status != job.Status {
				job.Status = st.Status
			}
			if st.Ended {
				res, err := a.BatchResults(ctx, job.BatchHandle, st)
				if err != nil {
					return fmt.Errorf("batch %s results: %w", job.ID, err)
				}
				job.Ended, job.Outcome, job.Errors = true, st.Outcome, st.Errors
				job.Results = map[string]BatchResult{}
				for _, id := range job.Requests {
					r.settled(id, res)
					br, ok := res[id]
					if !ok {
						br = BatchResult{State: ItemMissing, Error: fmt.Sprintf("batch %s ended %s without a result for the request", job.ID, st.Outcome)}
						if st.Outcome == ItemExpired || st.Outcome == ItemCancelled {
							br.State = st.Outcome
						}
					}
					job.Results[id] = br
				}
				if err := r.save(); err != nil {
					return err
				}
				if st.Outcome != "completed" {
					msg := fmt.Sprintf("batch %s %s %s", job.Label, job.ID, st.Outcome)
					if len(st.Errors) > 0 {
						msg += ": " + strings.Join(st.Errors, "; ")
					}
					r.log("%s", msg)
				}
				break
			}
			if err := sleepFn(ctx, interval); err != nil {
				return err
			}
			interval *= 2
			if interval > pol.Max {
				interval = pol.Max
			}
		}
	}
	return nil
}

// Finish marks the answers the final pass used as consumed (they are in
// the call cache from then on) and drops them from the ledger. Call it
// after the run's outputs and checkpoints are written.
func (r *BatchRunner) Finish() error {
	if r.final == nil || len(r.final.used) == 0 {
		return nil
	}
	for job, ids := range r.final.used {
		for id := range ids {
			res := job.Results[id]
			res.Response, res.Consumed = nil, true
			job.Results[id] = res
		}
	}
	return r.save()
}

// Pass is one pass of a batch run.
type Pass struct {
	r            *BatchRunner
	mu           sync.Mutex
	pending      map[string]*pendingItem
	pendingOrder []string
	resubmit     map[string]bool
	waiting      map[*batchJob]BatchProvider
	used         map[*batchJob]map[string]bool
	unanswered   map[string]bool
	usage        judging.UsageTracker
}

type pendingItem struct {
	adapter BatchProvider
	req     judging.ModelRequest
}

// Final reports whether the pass needed nothing it did not have.
func (p *Pass) Final() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.pending) == 0 && len(p.waiting) == 0
}

// Unanswered is the number of requests the batches left without an
// answer (errored, expired, cancelled): their stages are uncertain, and
// the command keeps no stage checkpoint for them so that --resubmit can
// ask again.
func (p *Pass) Unanswered() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.unanswered)
}

// UsageRecords are the usage records of the batch answers the pass used.
func (p *Pass) UsageRecords() []judging.UsageRecord { return p.usage.UsageRecords() }

// Wrap returns an adapter that answers from the ledger and collects what
// it cannot answer. An adapter without a batch API is an error.
func (p *Pass) Wrap(a judging.ModelAdapter) (judging.ModelAdapter, error) {
	bp, ok := a.(BatchProvider)
	if !ok {
		return nil, fmt.Errorf("--batch: %s has no batch API (only openai and anthropic judges have one)", a.Info().Label())
	}
	return &batchAdapter{p: p, a: bp}, nil
}

// errPending is the answer, within a pass, of a request that a batch
// will answer: the pass it is given in is never reported.
var errPending = errors.New("waiting for the batch")

type batchAdapter struct {
	p *Pass
	a BatchProvider
}

func (b *batchAdapter) Info() judging.ModelInfo { return b.a.Info() }

func (b *batchAdapter) Call(ctx context.Context, req judging.ModelRequest) (judging.ModelResponse, error) {
	info := b.a.Info()
	id, err := CustomID(req, info)
	if err != nil {
		return judging.ModelResponse{}, err
	}
	p, r := b.p, b.p.r
	r.mu.Lock()
	defer r.mu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	// The newest batch that holds the request decides.
	for i := len(r.led.Jobs) - 1; i >= 0; i-- {
		job := r.led.Jobs[i]
		if job.Label != info.Label() || !job.has(id) {
			continue
		}
		if !job.Ended {
			p.waiting[job] = b.a
			return judging.ModelResponse{}, &judging.UnusableAnswerError{Err: errPending}
		}
		res := job.Results[id]
		if res.Consumed {
			continue // reported by an earlier run; the call cache had it
		}
		if res.answered() && res.Response != nil {
			if p.used[job] == nil {
				p.used[job] = map[string]bool{}
			}
			p.used[job][id] = true
			p.usage.RecordUsage(judging.UsageRecord{Provider: info.Provider, Model: info.Model, Purpose: req.Purpose, Attempts: 1, Batch: true, Usage: res.Response.Usage})
			resp := *res.Response
			resp.Warnings = append(b.a.RequestWarnings(req), resp.Warnings...)
			return resp, nil
		}
		if r.Resubmit && !r.resubmitted[id] {
			break // ask again below
		}
		if p.unanswered == nil {
			p.unanswered = map[string]bool{}
		}
		p.unanswered[id] = true
		return judging.ModelResponse{}, &judging.UnusableAnswerError{Err: fmt.Errorf("%s batch %s, request %s: %s: %s", info.Provider, job.ID, id, res.State, res.Error)}
	}
	if reason, ok := r.refused[id]; ok {
		return judging.ModelResponse{}, &judging.NotJudgedError{Reason: reason}
	}
	if _, ok := p.pending[id]; !ok {
		p.pending[id] = &pendingItem{adapter: b.a, req: req}
		p.pendingOrder = append(p.pendingOrder, id)
		if r.Resubmit {
			if p.resubmit == nil {
				p.resubmit = map[string]bool{}
			}
			p.resubmit[id] = true
		}
	}
	return judging.ModelResponse{}, &judging.UnusableAnswerError{Err: errPending}
}

// BufferedStore keeps a pass's checkpoints in memory until Flush: a pass
// that is not final leaves nothing behind.
type BufferedStore struct {
	Base  evalcase.CheckpointStore
	mu    sync.Mutex
	saved map[string][]byte
	order []string
}

// Load returns a buffered checkpoint, else the base store's.
func (s *BufferedStore) Load(key string) ([]byte, bool, error) {
	s.mu.Lock()
	if d, ok := s.saved[key]; ok {
		s.mu.Unlock()
		return d, true, nil
	}
	s.mu.Unlock()
	return s.Base.Load(key)
}

// Save buffers a checkpoint.
func (s *BufferedStore) Save(key string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.saved == nil {
		s.saved = map[string][]byte{}
	}
	if _, ok := s.saved[key]; !ok {
		s.order = append(s.order, key)
	}
	s.saved[key] = append([]byte(nil), data...)
	return nil
}

// Flush writes the buffered checkpoints whose key keep accepts (nil: all)
// to the base store, in the order they were first saved.
func (s *BufferedStore) Flush(keep func(key string) bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.order {
		if keep != nil && !keep(k) {
			continue
		}
		if err := s.Base.Save(k, s.saved[k]); err != nil {
			return err
		}
	}
	s.saved, s.order = nil, nil
	return nil
}
