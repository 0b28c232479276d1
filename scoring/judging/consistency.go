package judging

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/stats"
)

// ShuffleKeyVersion versions the seeding of ShuffledOrder; it changes
// whenever the order a key gives does.
const ShuffleKeyVersion = "docscore-shuffle-references/1"

// ShuffleKey is the documented key of a stage's second reference order:
// "docscore-shuffle-references/1|CASE_ID|STAGE_ID". Its FNV-1a 64-bit hash
// (stats.FNV1a64) is the state of the SplitMix64 generator that shuffles,
// so the order depends only on the stage, on every machine.
func ShuffleKey(caseID, stageID string) string {
	return ShuffleKeyVersion + "|" + caseID + "|" + stageID
}

// ShuffledOrder returns a permutation of 0…n−1 drawn by Fisher–Yates from
// stats.NewSplitMix64(stats.FNV1a64(key)) (for i from n−1 down to 1, swap
// i with Index(i+1)). A draw equal to the identity is reversed, so with
// two or more items the second order always differs from the first.
func ShuffledOrder(n int, key string) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	g := stats.NewSplitMix64(stats.FNV1a64(key))
	for i := n - 1; i > 0; i-- {
		j := g.Index(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	identity := true
	for i, v := range p {
		identity = identity && v == i
	}
	if identity {
		slices.Reverse(p)
	}
	return p
}

// ShuffledJudgment is a judge's verdict with the references presented in
// the second order.
type ShuffledJudgment struct {
	// SeedKey is the ShuffleKey the order was drawn from.
	SeedKey string `json:"seed_key"`
	// Order lists the references' ids in the order presented.
	Order   []string         `json:"order"`
	Verdict evalcase.Verdict `json:"verdict"`
	// Flipped says the verdict differs from the one in the first order.
	Flipped bool `json:"flipped"`
}

// ShuffledRequest returns req with its references (and their inventory)
// in the second order, and the ids in that order; ok is false when there
// are fewer than two references to reorder.
func ShuffledRequest(req JudgeRequest) (JudgeRequest, []string, bool) {
	n := len(req.References)
	if n < 2 || len(req.Task.ReferenceInventory) != n {
		return req, nil, false
	}
	p := ShuffledOrder(n, ShuffleKey(req.Task.CaseID, req.Task.StageID))
	out := req
	out.References = make([]evalcase.ReferenceArtifact, n)
	out.Task.ReferenceInventory = make([]ReferenceEntry, n)
	for i, j := range p {
		out.References[i] = req.References[j]
		out.Task.ReferenceInventory[i] = req.Task.ReferenceInventory[j]
	}
	return out, referenceIDs(out.References), true
}

func referenceIDs(refs []evalcase.ReferenceArtifact) []string {
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.ArtifactID
	}
	return ids
}

// askVerdict asks once more for a consistency probe: an unusable answer is
// an uncertain verdict; only a call that brought no answer is an error.
func askVerdict(ctx context.Context, j Judge, req JudgeRequest) (evalcase.Verdict, error) {
	out, err := ask(ctx, j, req)
	var ua *UnusableAnswerError
	if errors.As(err, &ua) {
		return evalcase.Uncertain, nil
	}
	if err != nil {
		return "", err
	}
	return out.Verdict, nil
}

func allSame(vs []evalcase.Verdict) bool {
	for _, v := range vs {
		if v != vs[0] {
			return false
		}
	}
	return true
}

func joinVerdicts(vs []evalcase.Verdict) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = string(v)
	}
	return strings.Join(parts, ", ")
}
