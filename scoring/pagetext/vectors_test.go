package pagetext

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// vector is one page pair scored by scripts/pagetext_vectors.py, an
// independent implementation in Python (the regex module's \X and Unicode
// word boundaries, a full dynamic programme).
type vector struct {
	GT, OCR    string
	GTText     string   `json:"gt_text"`
	OCRText    string   `json:"ocr_text"`
	GTChars    int      `json:"gt_chars"`
	OCRChars   int      `json:"ocr_chars"`
	CharEdits  int      `json:"char_edits"`
	GTWords    int      `json:"gt_words"`
	OCRWords   int      `json:"ocr_words"`
	WordEdits  int      `json:"word_edits"`
	CER        *float64 `json:"cer"`
	BowMatched int      `json:"bow_matched"`
	CharOps    string   `json:"char_ops"`
	WordOps    string   `json:"word_ops"`
	Words      []string `json:"words"`
}

func opString(ops []Op) string {
	var b strings.Builder
	for _, o := range ops {
		b.WriteString(o.Kind.String())
	}
	return b.String()
}

func TestVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Pages []json.RawMessage `json:"pages"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Pages) < 150 {
		t.Fatalf("%d vectors", len(file.Pages))
	}
	for i, raw := range file.Pages {
		var v vector
		var rates struct {
			WER          *float64 `json:"wer"`
			BowPrecision float64  `json:"bow_precision"`
			BowRecall    float64  `json:"bow_recall"`
			BowF1        float64  `json:"bow_f1"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &rates); err != nil {
			t.Fatal(err)
		}
		g, err := Extract("gt.txt", []byte(v.GT), ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		o, err := Extract("ocr.txt", []byte(v.OCR), ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g.Text != v.GTText || o.Text != v.OCRText {
			t.Errorf("vector %d: texts %q / %q, want %q / %q", i, g.Text, o.Text, v.GTText, v.OCRText)
			continue
		}
		p, err := ScorePage(g.Text, o.Text, AlignLimits{})
		if err != nil {
			t.Fatal(err)
		}
		got := []any{p.GTChars, p.OCRChars, p.CharEdits, p.GTWords, p.OCRWords, p.WordEdits, p.BowMatched,
			deref(p.CER), deref(p.WER), p.BowPrecision, p.BowRecall, p.BowF1, opString(p.CharOps), opString(p.WordOps)}
		want := []any{v.GTChars, v.OCRChars, v.CharEdits, v.GTWords, v.OCRWords, v.WordEdits, v.BowMatched,
			deref(v.CER), deref(rates.WER), rates.BowPrecision, rates.BowRecall, rates.BowF1, v.CharOps, v.WordOps}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("vector %d (%q / %q):\n got %v\nwant %v", i, v.GT, v.OCR, got, want)
		}
		if !reflect.DeepEqual(p.GTWordList, v.Words) && len(v.Words)+len(p.GTWordList) > 0 {
			t.Errorf("vector %d: words %q, want %q", i, p.GTWordList, v.Words)
		}
	}
}

// deref is a rate, or -1 for undefined.
func deref(f *float64) float64 {
	if f == nil {
		return -1
	}
	return *f
}
