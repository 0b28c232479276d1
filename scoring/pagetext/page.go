package pagetext

// Page is one page's scores and the alignments behind them (SPEC G.2).
type Page struct {
	// GTChars and OCRChars count the two texts' grapheme clusters,
	// CharEdits is the Levenshtein distance between them.
	GTChars, OCRChars, CharEdits int
	// GTWords and OCRWords count the two texts' words, WordEdits is the
	// distance between the word sequences.
	GTWords, OCRWords, WordEdits int
	// BowMatched is Σ min(g(w), o(w)) over the word multisets.
	BowMatched int
	// CER and WER are nil when undefined: edits against an empty ground
	// truth.
	CER, WER                       *float64
	BowPrecision, BowRecall, BowF1 float64
	GTClusters, OCRClusters        []string
	CharOps                        []Op
	GTWordList, OCRWordList        []string
	WordOps                        []Op
}

// ScorePage scores one page's OCR text against its ground truth, both as
// Extract or Normalize gave them (normalized).
func ScorePage(gt, ocr string, lim AlignLimits) (*Page, error) {
	p := &Page{GTClusters: Clusters(gt), OCRClusters: Clusters(ocr)}
	var err error
	p.CharEdits, p.CharOps, err = alignStrings(p.GTClusters, p.OCRClusters, lim)
	if err != nil {
		return nil, err
	}
	p.GTWordList, p.OCRWordList = Words(gt), Words(ocr)
	p.WordEdits, p.WordOps, err = alignStrings(p.GTWordList, p.OCRWordList, lim)
	if err != nil {
		return nil, err
	}
	p.GTChars, p.OCRChars = len(p.GTClusters), len(p.OCRClusters)
	p.GTWords, p.OCRWords = len(p.GTWordList), len(p.OCRWordList)
	p.CER = rate(p.CharEdits, p.GTChars)
	p.WER = rate(p.WordEdits, p.GTWords)
	p.BowMatched = bagMatched(p.GTWordList, p.OCRWordList)
	p.BowPrecision, p.BowRecall, p.BowF1 = prf(p.BowMatched, p.OCRWords, p.GTWords)
	return p, nil
}

// rate is edits ÷ n: 0 when both are 0, nil (undefined) when only n is.
func rate(edits, n int) *float64 {
	var v float64
	switch {
	case n > 0:
		v = float64(edits) / float64(n)
	case edits > 0:
		return nil
	}
	return &v
}

// prf is precision, recall and F1 as SPEC A.2 has them: 0/0 is 0.
func prf(matched, pred, ref int) (p, r, f float64) {
	if pred > 0 {
		p = float64(matched) / float64(pred)
	}
	if ref > 0 {
		r = float64(matched) / float64(ref)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f
}

func bagMatched(g, o []string) int {
	count := make(map[string]int, len(g))
	for _, w := range g {
		count[w]++
	}
	m := 0
	for _, w := range o {
		if count[w] > 0 {
			count[w]--
			m++
		}
	}
	return m
}

// alignStrings aligns two sequences of strings through ids.
func alignStrings(a, b []string, lim AlignLimits) (int, []Op, error) {
	ia, ib, n := symbolIDs(a, b)
	return Align(ia, ib, n, lim)
}

// symbolIDs numbers the distinct strings of a and b from 0 in order of
// first appearance and returns both as ids, and how many there are.
func symbolIDs(a, b []string) (ia, ib []int32, n int) {
	ids := make(map[string]int32, 64)
	conv := func(xs []string) []int32 {
		out := make([]int32, len(xs))
		for i, x := range xs {
			id, ok := ids[x]
			if !ok {
				id = int32(len(ids))
				ids[x] = id
			}
			out[i] = id
		}
		return out
	}
	ia, ib = conv(a), conv(b)
	return ia, ib, len(ids)
}
