package receipts

// Rouge is the ROUGE-L overlap of one page (SPEC B.3 step 4). A nil
// pointer is a score that is not defined for the page (JSON null).
type Rouge struct {
	PredTokens int
	RefTokens  int
	LCS        int
	Precision  *float64 // LCS/|pred|; nil when both sides are empty
	Recall     *float64 // LCS/|ref|; nil when the reference is empty
	F1         *float64 // 2·LCS/(|pred|+|ref|); nil when the reference is empty
}

// RougeL scores the prediction tokens against the reference tokens:
// L is their longest common subsequence, precision L/|pred|, recall
// L/|ref| and F1 2L/(|pred|+|ref|). An empty prediction against a
// non-empty reference scores 0 on all three. An empty reference leaves
// recall and F1 undefined (nil); precision is then 0 for a non-empty
// prediction and nil for an empty one.
func RougeL(pred, ref []string) Rouge { return rougeL(nil, pred, ref) }

// rougeL is RougeL whose LCS stops early once ctx is done (nil never is).
func rougeL(ctx Canceler, pred, ref []string) Rouge {
	r := Rouge{PredTokens: len(pred), RefTokens: len(ref)}
	p, rr, alphabet := tokenIDs(pred, ref)
	r.LCS = lcsBits(ctx, p, rr, alphabet)
	switch {
	case len(ref) == 0 && len(pred) == 0:
		// nothing is defined
	case len(ref) == 0:
		r.Precision = ptr(0)
	case len(pred) == 0:
		r.Precision, r.Recall, r.F1 = ptr(0), ptr(0), ptr(0)
	default:
		r.Precision = ptr(float64(r.LCS) / float64(len(pred)))
		r.Recall = ptr(float64(r.LCS) / float64(len(ref)))
		r.F1 = ptr(float64(2*r.LCS) / float64(len(pred)+len(ref)))
	}
	return r
}

// Numeric is the numeric-string recall of one page (SPEC B.3 step 5).
type Numeric struct {
	Ref     int      // numeric tokens in the reference
	Matched int      // of those, found in the prediction (multiset)
	Recall  *float64 // Matched/Ref; nil when the reference has no numbers
	Missing []string // unmatched reference numbers, in reference order
}

// NumericRecall matches the numeric tokens of the reference against those
// of the prediction as multisets of exact strings: signs and separators
// count, so "79,300" does not match "79,500" and "1.000" does not match
// "1000". A number repeated in the reference matches as often as the
// prediction repeats it.
func NumericRecall(pred, ref []Token) Numeric {
	have := map[string]int{}
	for _, t := range pred {
		if t.Numeric {
			have[t.Text]++
		}
	}
	n := Numeric{Missing: []string{}}
	for _, t := range ref {
		if !t.Numeric {
			continue
		}
		n.Ref++
		if have[t.Text] > 0 {
			have[t.Text]--
			n.Matched++
		} else {
			n.Missing = append(n.Missing, t.Text)
		}
	}
	if n.Ref > 0 {
		n.Recall = ptr(float64(n.Matched) / float64(n.Ref))
	}
	return n
}

func ptr(f float64) *float64 { return &f }
