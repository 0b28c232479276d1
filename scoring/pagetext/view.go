package pagetext

// PageView is one page's two texts aligned for people (the page's
// aligned view, as dinglehopper's HTML report shows it): its scores and
// the alignment as segments, each a run of steps of one kind.
type PageView struct {
	Page      string    `json:"page,omitempty"`
	GTChars   int       `json:"gt_chars"`
	OCRChars  int       `json:"ocr_chars"`
	CharEdits int       `json:"char_edits"`
	CER       *float64  `json:"cer"`
	GTWords   int       `json:"gt_words"`
	WordEdits int       `json:"word_edits"`
	WER       *float64  `json:"wer"`
	BowF1     float64   `json:"bow_f1"`
	Segments  []Segment `json:"segments"`
}

// Segment is a run of alignment steps of one kind: Op is "=" (GT and OCR
// read the same; OCR is left out), "S" (GT read as OCR, cluster for
// cluster), "D" (GT the OCR lacks) or "I" (OCR the GT lacks).
type Segment struct {
	Op  string `json:"op"`
	GT  string `json:"gt,omitempty"`
	OCR string `json:"ocr,omitempty"`
}

// View scores a page and returns its aligned view.
func View(gt, ocr string, lim AlignLimits) (*PageView, error) {
	p, err := ScorePage(gt, ocr, lim)
	if err != nil {
		return nil, err
	}
	v := &PageView{GTChars: p.GTChars, OCRChars: p.OCRChars, CharEdits: p.CharEdits, CER: p.CER,
		GTWords: p.GTWords, WordEdits: p.WordEdits, WER: p.WER, BowF1: p.BowF1, Segments: []Segment{}}
	for _, op := range p.CharOps {
		k := op.Kind.String()
		if n := len(v.Segments); n == 0 || v.Segments[n-1].Op != k {
			v.Segments = append(v.Segments, Segment{Op: k})
		}
		s := &v.Segments[len(v.Segments)-1]
		if op.A >= 0 {
			s.GT += p.GTClusters[op.A]
		}
		if op.B >= 0 && op.Kind != Match {
			s.OCR += p.OCRClusters[op.B]
		}
	}
	return v, nil
}
