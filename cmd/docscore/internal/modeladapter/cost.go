package modeladapter

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/gif" // image sizes for the token estimate
	_ "image/jpeg"
	_ "image/png"
	"math"
	"regexp"
	"sort"
	"sync"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// BytesPerToken is the estimate's text ratio: a request's text (the
// instructions, the task as the adapters send it, the output schema)
// counts one token per BytesPerToken bytes, rounded up. English prose runs
// about 4 bytes a token; JSON and numbers run fewer, so 3 leans high, which
// is the side a ceiling wants.
const BytesPerToken = 3

// Attachment estimates: an image whose size cannot be read counts
// ImageTokens; a PDF counts PDFPageTokens per page (text and page image).
const (
	ImageTokens   = 1600
	PDFPageTokens = 3000
	// requestOverhead counts the message framing around the text.
	requestOverhead = 20
)

// DefaultMaxOutputTokens bounds an answer when none is configured: the
// Anthropic adapter sends it always, the OpenAI adapter when a cost
// ceiling is set (and the estimate assumes it otherwise).
const DefaultMaxOutputTokens = 8192

// EstimateInputTokens estimates the input tokens of req for provider
// (openai or anthropic): text bytes ÷ BytesPerToken, images by their size
// (OpenAI: 85 + 170 per 512-pixel tile at high detail; Anthropic: width ×
// height ÷ 750 after scaling to 1568 pixels), PDFs by page.
func EstimateInputTokens(provider string, req judging.ModelRequest) int64 {
	text, err := inputText(req)
	if err != nil {
		text = ""
	}
	n := len(req.Instructions) + len(text) + len(req.OutputSchema)
	for _, a := range req.Attachments {
		n += len(attachmentLabel(a))
	}
	tokens := int64((n+BytesPerToken-1)/BytesPerToken) + requestOverhead
	for _, a := range req.Attachments {
		tokens += attachmentTokens(provider, a)
	}
	return tokens
}

var pdfPage = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/Type\s*/Page[^s]`) })

func attachmentTokens(provider string, a evalcase.ReferenceArtifact) int64 {
	if a.MediaType == "application/pdf" {
		pages := len(pdfPage().FindAllIndex(a.Content, -1))
		if pages < 1 {
			pages = 1
		}
		return int64(pages) * PDFPageTokens
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(a.Content))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return ImageTokens
	}
	w, h := float64(cfg.Width), float64(cfg.Height)
	if provider == "anthropic" {
		if s := 1568 / math.Max(w, h); s < 1 {
			w, h = w*s, h*s
		}
		return int64(math.Ceil(w * h / 750))
	}
	if s := 2048 / math.Max(w, h); s < 1 {
		w, h = w*s, h*s
	}
	if s := 768 / math.Min(w, h); s < 1 {
		w, h = w*s, h*s
	}
	tiles := math.Ceil(w/512) * math.Ceil(h/512)
	return int64(85 + 170*tiles)
}

// Estimator is an adapter that can estimate a request before sending it.
type Estimator interface {
	judging.ModelAdapter
	// Estimate is the request's expected calls (1), input tokens, output
	// bound and their cost (0 when the adapter has no prices).
	Estimate(req judging.ModelRequest) judging.CostEstimate
	// Priced reports whether the adapter prices its calls.
	Priced() bool
}

// BatchEstimator is an adapter that can estimate a request sent through
// its provider's batch API: Estimate at the batch price, Batch set.
type BatchEstimator interface {
	BatchEstimate(req judging.ModelRequest) judging.CostEstimate
}

func (c Config) outputBound() int64 {
	if c.MaxOutputTokens > 0 {
		return c.MaxOutputTokens
	}
	return DefaultMaxOutputTokens
}

func (c Config) estimate(provider string, req judging.ModelRequest) judging.CostEstimate {
	return c.estimateAt(provider, req, c.Prices)
}

// batchEstimate is estimate at the batch price (Batch set).
func (c Config) batchEstimate(provider string, req judging.ModelRequest) judging.CostEstimate {
	e := c.estimateAt(provider, req, c.batchPrices())
	e.Batch = true
	return e
}

func (c Config) estimateAt(provider string, req judging.ModelRequest, prices *judging.Prices) judging.CostEstimate {
	e := judging.CostEstimate{Calls: 1, InputTokens: EstimateInputTokens(provider, req), OutputTokens: c.outputBound()}
	if prices != nil {
		e.CostUSD = prices.Cost(judging.Usage{InputTokens: e.InputTokens, OutputTokens: e.OutputTokens})
	}
	return e
}

// gate reserves the call's upper bound on the budget (nil: no budget).
func (c Config) gate(provider string, req judging.ModelRequest) func() (func(judging.Usage), error) {
	if c.Budget == nil {
		return nil
	}
	upper := c.estimate(provider, req).CostUSD
	label := provider + "/" + c.Model
	return func() (func(judging.Usage), error) { return c.Budget.Reserve(label, upper) }
}

// Budget is a cost ceiling shared by every adapter of a run. Before each
// call an adapter reserves the call's upper bound (estimated input, the
// max_output_tokens bound, priced); the call is refused when what was
// spent plus what is reserved plus this bound would exceed the ceiling, and
// from then on every call is refused: the run stops issuing calls. On the
// answer the reservation is released and the answer's priced usage is
// spent. It is safe for concurrent use.
type Budget struct {
	mu       sync.Mutex
	max      float64
	spent    float64
	reserved float64
	inFlight int
	refused  int
	stopped  string
}

// NewBudget returns a ceiling of maxUSD US dollars.
func NewBudget(maxUSD float64) *Budget { return &Budget{max: maxUSD} }

// Max is the ceiling.
func (b *Budget) Max() float64 { return b.max }

// Spent is what the answered calls cost.
func (b *Budget) Spent() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spent
}

// Refused counts the calls the budget refused.
func (b *Budget) Refused() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.refused
}

// Stopped says why the run stopped issuing calls ("" while it has not).
func (b *Budget) Stopped() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stopped
}

// Reserve reserves upper US dollars for a call of label. It returns the
// function that settles the call with its priced usage (a call that got no
// answer settles with a zero usage), or a *judging.NotJudgedError.
func (b *Budget) Reserve(label string, upper float64) (func(judging.Usage), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped == "" && b.spent+b.reserved+upper > b.max {
		b.stopped = fmt.Sprintf("cost ceiling --max-cost $%s reached: $%s spent, $%s in flight, and a call to %s may cost up to $%s",
			usd(b.max), usd(b.spent), usd(b.reserved), label, usd(upper))
	}
	if b.stopped != "" {
		b.refused++
		return nil, &judging.NotJudgedError{Reason: b.stopped}
	}
	b.reserved += upper
	b.inFlight++
	var once sync.Once
	return func(u judging.Usage) {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.reserved -= upper
			if b.reserved < 1e-12 {
				b.reserved = 0
			}
			b.inFlight--
			if u.CostUSD != nil {
				b.spent += *u.CostUSD
			}
		})
	}, nil
}

func usd(v float64) string { return fmt.Sprintf("%.4f", v) }

// Plan records the requests a run would send without sending them: the
// adapters it wraps answer every call with a *judging.NotJudgedError, so
// a run evaluated through them makes no call and lists every request.
// Estimates adds them up per provider/model. It is safe for concurrent
// use.
type Plan struct {
	mu  sync.Mutex
	est map[[2]string]*judging.CostEstimate
	// Unpriced lists the provider/models that had no prices.
	unpriced map[string]bool
	// batch: the run goes through the batch API (BatchEstimate);
	// skip: a request the run will not ask for (BatchRunner.LeftUnanswered).
	batch bool
	skip  func(judging.ModelInfo, judging.ModelRequest) (bool, error)
}

// NewPlan returns an empty plan.
func NewPlan() *Plan {
	return &Plan{est: map[[2]string]*judging.CostEstimate{}, unpriced: map[string]bool{}}
}

// NewBatchPlan returns an empty plan of a batch run: requests are priced
// at the batch price (BatchEstimator), and those skip reports (nil: none)
// are left out.
func NewBatchPlan(skip func(judging.ModelInfo, judging.ModelRequest) (bool, error)) *Plan {
	p := NewPlan()
	p.batch, p.skip = true, skip
	return p
}

// Batch reports whether the plan prices requests at the batch price.
func (p *Plan) Batch() bool { return p.batch }

// Wrap returns an adapter that records each request in the plan.
func (p *Plan) Wrap(a judging.ModelAdapter) judging.ModelAdapter { return &planned{plan: p, a: a} }

// PlanReason is the reason of the calls a plan refuses.
const PlanReason = "estimating the run's cost (no call is made)"

type planned struct {
	plan *Plan
	a    judging.ModelAdapter
}

func (p *planned) Info() judging.ModelInfo { return p.a.Info() }

func (p *planned) Call(ctx context.Context, req judging.ModelRequest) (judging.ModelResponse, error) {
	info := p.a.Info()
	if p.plan.skip != nil {
		skip, err := p.plan.skip(info, req)
		if err != nil {
			return judging.ModelResponse{}, err
		}
		if skip {
			return judging.ModelResponse{}, &judging.NotJudgedError{Reason: PlanReason}
		}
	}
	e := judging.CostEstimate{Calls: 1, Batch: p.plan.batch}
	priced := false
	if est, ok := p.a.(Estimator); ok {
		e, priced = est.Estimate(req), est.Priced()
		if be, ok := p.a.(BatchEstimator); ok && p.plan.batch {
			e = be.BatchEstimate(req)
		}
	}
	p.plan.mu.Lock()
	k := [2]string{info.Provider, info.Model}
	cur := p.plan.est[k]
	if cur == nil {
		cur = &judging.CostEstimate{}
		p.plan.est[k] = cur
	}
	*cur = cur.Add(e)
	if !priced {
		p.plan.unpriced[info.Provider+"/"+info.Model] = true
	}
	p.plan.mu.Unlock()
	return judging.ModelResponse{}, &judging.NotJudgedError{Reason: PlanReason}
}

// Estimates lists the plan per provider/model, sorted.
func (p *Plan) Estimates() []judging.ModelEstimate {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []judging.ModelEstimate
	for k, e := range p.est {
		out = append(out, judging.ModelEstimate{Provider: k[0], Model: k[1], CostEstimate: *e})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Provider+"\x00"+out[i].Model < out[j].Provider+"\x00"+out[j].Model
	})
	return out
}

// Total is the plan's whole estimate.
func (p *Plan) Total() judging.CostEstimate {
	var t judging.CostEstimate
	for _, e := range p.Estimates() {
		t = t.Add(e.CostEstimate)
	}
	return t
}

// Unpriced lists the provider/models whose calls have no price, sorted.
func (p *Plan) Unpriced() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for k := range p.unpriced {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
