package modeladapter

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/harnessio"
	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/scoring/judging"
)

// TestBatchBudget: with a ceiling that holds two requests' upper bounds
// at the batch price, a batch of five submits two; the other three are
// never sent and are answered with a *judging.NotJudgedError naming the
// ceiling; what was spent is the two answers at the batch price.
func TestBatchBudget(t *testing.T) {
	s := judgetest.NewOpenAIBatch(batchKey)
	defer s.Close()
	items := batchItems(5)
	s.Answer = scripted(items, []string{"succeeded"})
	prices := &judging.Prices{InputPerMTok: 1, OutputPerMTok: 2, BatchDiscount: 0.25}
	a, err := NewOpenAI(Config{Model: "m", APIKey: batchKey, BaseURL: s.BaseURL(), Prices: prices, MaxOutputTokens: 100})
	if err != nil {
		t.Fatal(err)
	}
	direct, batch := a.Estimate(items[0].Request), a.BatchEstimate(items[0].Request)
	if !batch.Batch || direct.Batch || math.Abs(batch.CostUSD-0.75*direct.CostUSD) > 1e-15 || batch.OutputTokens != 100 {
		t.Fatalf("estimates: direct %+v, batch %+v", direct, batch)
	}
	store, err := harnessio.NewFileCheckpointStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	budget := NewBudget(2.5 * batch.CostUSD)
	r := &BatchRunner{Store: store, Poll: PollPolicy{First: time.Millisecond}, Budget: budget}
	var answered, refused int
	var reason string
	_, err = r.Run(context.Background(), func(ctx context.Context, p *Pass) error {
		w, err := p.Wrap(a)
		if err != nil {
			return err
		}
		answered, refused = 0, 0
		for _, it := range items {
			_, err := w.Call(ctx, it.Request)
			var nj *judging.NotJudgedError
			switch {
			case err == nil:
				answered++
			case errors.As(err, &nj):
				refused++
				reason = nj.Reason
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Creations() != 1 || len(s.Answered()) != 2 || answered != 2 || refused != 3 || budget.Refused() != 3 {
		t.Errorf("creations %d, stand-in answered %d, answered %d, refused %d (budget %d)", s.Creations(), len(s.Answered()), answered, refused, budget.Refused())
	}
	if !strings.Contains(reason, "--max-cost") || !strings.Contains(reason, "openai/m (batch)") {
		t.Errorf("reason %q", reason)
	}
	// scripted answers 100 input and 10 output tokens, at 0.75 × (1, 2).
	if want := 2 * (100*0.75 + 10*1.5) / 1e6; math.Abs(budget.Spent()-want) > 1e-12 {
		t.Errorf("spent $%g, want $%g", budget.Spent(), want)
	}
}
