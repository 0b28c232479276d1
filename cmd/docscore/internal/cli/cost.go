package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// costHelp is the part of --help that explains estimates and ceilings.
func costHelp() string {
	return `Costs: before any call, the run is evaluated once without calling
(answers already in --checkpoint-dir are reused and cost nothing), and the
estimate is printed on standard error per provider/model: input tokens
from the requests' sizes (text bytes ÷ ` + strconv.Itoa(modeladapter.BytesPerToken) + `, images by size, PDFs by
page), output tokens from --max-output-tokens, priced by the price table
(--prices FILE, default the bundled table; --price-* flags override it).
--max-cost USD refuses to start when the estimate exceeds it (exit 2, no
call made) and, during the run, stops issuing calls once what was spent
plus the upper bound of the calls in flight would exceed it: the items not
judged are listed in the report (not_judged, incomplete: true) and the
exit status is 1. A model the price table does not have is an error with
--max-cost and a warning without. With --batch the estimate is at the
batch price (the table's batch_discount) and leaves out the requests a
batch left unanswered (unless --resubmit); before a batch is
submitted each of its requests reserves its upper bound at the batch
price, and the requests the ceiling refuses are not submitted and are
listed as not judged.`
}

// readOnlyStore serves a checkpoint store's entries and keeps none: the
// estimate's dry evaluation writes nothing.
type readOnlyStore struct{ evalcase.CheckpointStore }

func (readOnlyStore) Save(string, []byte) error { return nil }

// pricesName names where the prices come from.
func (s judgeSettings) pricesName() string {
	if s.prices != nil {
		return "the --price-* flags"
	}
	if s.table != nil {
		return s.table.Describe()
	}
	return "no price table"
}

// reportEstimate prints the plan's estimate and refuses a run whose
// estimate exceeds --max-cost (exit 2: no call has been made).
func reportEstimate(env *Env, s judgeSettings, plan *modeladapter.Plan) error {
	est := plan.Estimates()
	total := plan.Total()
	var parts []string
	for _, e := range est {
		parts = append(parts, fmt.Sprintf("%s/%s %d call(s), ~%d input + %d output tokens, $%.4f", e.Provider, e.Model, e.Calls, e.InputTokens, e.OutputTokens, e.CostUSD))
	}
	if len(parts) == 0 {
		parts = append(parts, "no call to make")
	}
	mode := ""
	if plan.Batch() {
		mode = " (batch, at the batch price)"
	}
	fmt.Fprintf(env.Stderr, "docscore: estimated cost before any call%s: $%.4f (%s; output at the max_output_tokens bound; prices: %s)\n",
		mode, total.CostUSD, strings.Join(parts, "; "), s.pricesName())
	if u := plan.Unpriced(); len(u) > 0 {
		fmt.Fprintf(env.Stderr, "docscore: warning: not priced, so not in the estimate's cost: %s\n", strings.Join(u, ", "))
	}
	if s.budget != nil && total.CostUSD > s.budget.Max() {
		return &ExitError{Code: ExitInput, Err: fmt.Errorf("--max-cost %s: the estimated cost $%.4f exceeds it; no call was made (raise --max-cost, lower --max-output-tokens, or judge fewer items)",
			strconv.FormatFloat(s.budget.Max(), 'f', -1, 64), total.CostUSD)}
	}
	return nil
}

// newPlan returns the estimate's plan; with --batch its requests are
// priced at the batch price, and those a batch left unanswered are left
// out unless --resubmit sends them again (the requests of a batch still
// running are in: the run's usage counts their answers).
func (s judgeSettings) newPlan(store evalcase.CheckpointStore) (*modeladapter.Plan, error) {
	if !s.batch {
		return modeladapter.NewPlan(), nil
	}
	if store == nil {
		return nil, errBatchStore
	}
	led := &modeladapter.BatchRunner{Store: readOnlyStore{store}, Resubmit: s.resubmit}
	return modeladapter.NewBatchPlan(led.LeftUnanswered), nil
}

// decorateUsage adds the estimate, the price table and the ceiling to a
// usage summary.
func decorateUsage(u *judging.UsageSummary, s judgeSettings, plan *modeladapter.Plan) {
	if u == nil {
		return
	}
	if plan != nil {
		u.SetEstimates(plan.Estimates())
	}
	u.PriceTable = s.pricesName()
	if s.budget != nil {
		m := s.budget.Max()
		u.MaxCostUSD = &m
	}
}

// incomplete is the error of a run the ceiling stopped: exit 1, the
// convention of interrupted work.
func incomplete(s judgeSettings, notJudged int) error {
	return incompleteError(s, notJudged, "the report lists them under not_judged")
}

// incompleteNothingWritten is incomplete for a command that writes
// nothing when a call is refused (groundtruth generate: a reference needs
// every reading).
func incompleteNothingWritten(s judgeSettings, notJudged int) error {
	return incompleteError(s, notJudged, "nothing was written; the answers received are kept in --checkpoint-dir, so a rerun with a higher --max-cost pays only for the rest")
}

func incompleteError(s judgeSettings, notJudged int, tail string) error {
	reason := "a judge call was refused"
	if s.budget != nil && s.budget.Stopped() != "" {
		reason = s.budget.Stopped()
	}
	return &ExitError{Code: ExitFailure, Err: fmt.Errorf("run incomplete: %d item(s) not judged (%s); %s", notJudged, reason, tail)}
}
