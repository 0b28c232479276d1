package modeladapter

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// textRequest is a request without attachments.
func textRequest() judging.ModelRequest {
	return judging.ModelRequest{Purpose: "judge", Instructions: "Decide the stage.", Input: map[string]any{"prediction": "fund", "reference": "fund"},
		SchemaName: "s", OutputSchema: judging.JudgeOutputSchema}
}

// TestEstimateInputTokens: text counts one token per BytesPerToken bytes
// of what is sent (rounded up) plus the framing; images by size; PDFs by
// page.
func TestEstimateInputTokens(t *testing.T) {
	req := textRequest()
	text, _ := inputText(req)
	n := len(req.Instructions) + len(text) + len(req.OutputSchema)
	want := int64((n+BytesPerToken-1)/BytesPerToken) + requestOverhead
	for _, p := range []string{"openai", "anthropic"} {
		if got := EstimateInputTokens(p, req); got != want {
			t.Errorf("%s: %d tokens, want %d", p, got, want)
		}
	}
	st := stage(t) // a PNG and a PDF
	var png, pdf evalcase.ReferenceArtifact
	for _, r := range st.References {
		switch r.MediaType {
		case "image/png":
			png = r
		case "application/pdf":
			pdf = r
		}
	}
	// invoice.png is 120×80: Anthropic ⌈9600/750⌉ = 13; OpenAI one tile,
	// 85 + 170.
	if a, o := attachmentTokens("anthropic", png), attachmentTokens("openai", png); a != 13 || o != 85+170 {
		t.Errorf("image tokens: anthropic %d, openai %d", a, o)
	}
	if got := attachmentTokens("openai", pdf); got%PDFPageTokens != 0 || got == 0 {
		t.Errorf("pdf tokens %d", got)
	}
	if got := attachmentTokens("openai", evalcase.ReferenceArtifact{MediaType: "image/webp", Content: []byte("RIFF")}); got != ImageTokens {
		t.Errorf("unreadable image: %d", got)
	}
}

// TestBudgetHoldsUnderParallelCalls: 24 calls in parallel (8 in flight)
// against a ceiling of 5.5 calls' upper bounds, each answer costing exactly
// its bound: exactly 5 calls are made, the 19 others are refused as not
// judged, and what was spent never exceeds the ceiling.
func TestBudgetHoldsUnderParallelCalls(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			srv := p.new(testKey)
			defer srv.Close()
			srv.Delay = 30 * time.Millisecond
			req, _ := judging.BuildJudgeRequest(stage(t))
			mreq := judging.ModelRequestForJudge(req)
			const out = 1000
			in := EstimateInputTokens(p.name, mreq)
			srv.Answer = func(judgetest.Request) judgetest.Reply { return srv.Text(passAnswer, int(in), out) }
			prices := &judging.Prices{InputPerMTok: 1, OutputPerMTok: 3}
			upper := (float64(in)*1 + out*3) / 1e6
			budget := NewBudget(5.5 * upper)
			a, err := p.make(Config{Model: "m", APIKey: testKey, BaseURL: srv.BaseURL(), Limiter: NewLimiter(8), Prices: prices, Budget: budget, MaxOutputTokens: out})
			if err != nil {
				t.Fatal(err)
			}
			if e := a.(Estimator).Estimate(mreq); e.CostUSD != upper || e.OutputTokens != out {
				t.Fatalf("estimate %+v, want $%v", e, upper)
			}
			var wg sync.WaitGroup
			var mu sync.Mutex
			judged, notJudged := 0, 0
			for i := 0; i < 24; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := (&judging.LLMJudgeMetric{Judge: &judging.ModelJudge{Adapter: a}}).Evaluate(context.Background(), stage(t))
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err != nil:
						t.Error(err)
					case res.NotJudged:
						notJudged++
						if res.Verdict != evalcase.Uncertain || len(res.Scores) != 0 || !strings.Contains(res.Reason, "cost ceiling") {
							t.Errorf("not judged: %+v", res)
						}
					default:
						judged++
					}
				}()
			}
			wg.Wait()
			if judged != 5 || notJudged != 19 || srv.Count() != 5 || budget.Refused() != 19 {
				t.Errorf("judged %d, not judged %d, %d request(s), %d refused", judged, notJudged, srv.Count(), budget.Refused())
			}
			if s := budget.Spent(); math.Abs(s-5*upper) > 1e-15 || s > budget.Max() {
				t.Errorf("spent $%v, ceiling $%v", s, budget.Max())
			}
			if srv.MaxInFlight() > 5 {
				t.Errorf("%d calls in flight", srv.MaxInFlight())
			}
		})
	}
}

// TestBudgetReleasesFailedCalls: a call that got no answer releases its
// reservation and spends nothing.
func TestBudgetReleasesFailedCalls(t *testing.T) {
	b := NewBudget(1)
	settle, err := b.Reserve("x/m", 0.6)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Reserve("x/m", 0.6); err == nil {
		t.Fatal("two reservations of 0.6 fit under 1")
	}
	var nj *judging.NotJudgedError
	_, err = b.Reserve("x/m", 0.1)
	if !errors.As(err, &nj) {
		t.Fatalf("after a refusal every call is refused: %v", err)
	}
	settle(judging.Usage{})
	settle(judging.Usage{}) // settling twice counts once
	if b.Spent() != 0 || b.reserved != 0 || b.inFlight != 0 {
		t.Errorf("spent %v reserved %v in flight %d", b.Spent(), b.reserved, b.inFlight)
	}
}

// TestPlanMakesNoCall: a planned adapter records the request and its
// estimate and never calls.
func TestPlanMakesNoCall(t *testing.T) {
	srv := judgetest.NewOpenAI(testKey)
	defer srv.Close()
	a, _ := NewOpenAI(Config{Model: "gpt-5-mini", APIKey: testKey, BaseURL: srv.BaseURL(), Prices: &judging.Prices{InputPerMTok: 0.25, OutputPerMTok: 2}})
	plan := NewPlan()
	res, err := (&judging.LLMJudgeMetric{Judge: &judging.ModelJudge{Adapter: plan.Wrap(a)}}).Evaluate(context.Background(), stage(t))
	if err != nil || !res.NotJudged {
		t.Fatalf("%+v %v", res, err)
	}
	est := plan.Estimates()
	if srv.Count() != 0 || len(est) != 1 || est[0].Calls != 1 || est[0].OutputTokens != DefaultMaxOutputTokens || est[0].CostUSD <= 0 || len(plan.Unpriced()) != 0 {
		t.Errorf("%d request(s), plan %+v", srv.Count(), est)
	}
}
