package textapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/pagetext"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const dh = "../../pagetext/testdata/dinglehopper/"

func file(t *testing.T, path, name string) api.File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return api.File{Name: name, Text: string(data)}
}

// twoPages is a folder of two ground-truth pages, one OCR partner each,
// and a page on each side without a partner.
func twoPages(t *testing.T) *TextRequest {
	return &TextRequest{
		GT: []api.File{
			file(t, dh+"test-gt.page2018.xml", "gt/hartkopf.gt.xml"),
			file(t, dh+"lorem-ipsum/lorem-ipsum-scan-bad.gt.page.xml", "gt/lorem.gt.page.xml"),
			{Name: "gt/lonely.gt.txt", Text: "no OCR for me"},
		},
		OCR: []api.File{
			file(t, dh+"test-fake-ocr.page2018.xml", "ocr/hartkopf.fake.xml"),
			file(t, dh+"lorem-ipsum/lorem-ipsum-scan-bad.ocr.tesseract.alto.xml", "ocr/lorem.tesseract.alto.xml"),
			{Name: "ocr/stray.txt", Text: "no GT for me"},
		},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update to rewrite):\n%s", name, got)
	}
}

func TestGoldenReports(t *testing.T) {
	for _, format := range []string{"json", "csv", "md"} {
		req := twoPages(t)
		req.Format = format
		b := 200
		req.Bootstrap = &b
		res, err := ScoreTextOperation().Run(api.NoCancel, req)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "two-pages."+format, res.Bytes)
	}
}

func TestReportHoldsDinglehoppersNumbers(t *testing.T) {
	zero := 0
	req := twoPages(t)
	req.Bootstrap = &zero
	rep, err := Report(api.NoCancel, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Pages) != 2 || len(rep.Cells) != 1 {
		t.Fatalf("%d pages, %d cells", len(rep.Pages), len(rep.Cells))
	}
	h, l := rep.Pages[0], rep.Pages[1]
	if h.Page != "hartkopf" || h.CharEdits != 2 || h.WordEdits != 2 || l.Page != "lorem" || l.CharEdits != 8 || l.GTChars != 591 || l.WordEdits != 7 || l.GTWords != 100 {
		t.Errorf("rows %+v %+v", h, l)
	}
	c := rep.Cells[0]
	if want := float64(10) / float64(h.GTChars+591); c.CER == nil || *c.CER != want {
		t.Errorf("micro CER %v, want %v", c.CER, want)
	}
	if want := (*h.CER + *l.CER) / 2; c.CERMacro == nil || *c.CERMacro != want {
		t.Errorf("macro CER %v, want %v", c.CERMacro, want)
	}
	if strings.Join(rep.Unpaired.GTOnly, ",") != "lonely" || strings.Join(rep.Unpaired.OCROnly, ",") != "stray" {
		t.Errorf("unpaired %+v", rep.Unpaired)
	}
	found := false
	for _, x := range c.CharConfusions {
		if x.GT == "ſ" && x.OCR == "f" && x.Count >= 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("char confusions %+v lack ſ → f", c.CharConfusions)
	}
	if rep.Cells[0].CI != nil {
		t.Error("bootstrap 0 still gave intervals")
	}
}

func TestRunsFile(t *testing.T) {
	gt := []api.File{{Name: "p1.gt.txt", Text: "Lorem ipsum dolor"}, {Name: "p2.gt.txt", Text: "sit amet"}, {Name: "p3.gt.txt", Text: ""}}
	runs := strings.Join([]string{
		`{"model":"a","phase":"c1","run":1,"page":"p1","text":"Lorem ipsum dolor"}`,
		`{"model":"a","phase":"c1","run":1,"page":"p2","text":"sit arnet"}`,
		`{"model":"b","phase":"c1","run":1,"page":"p1","text":"Lorern ipsum"}`,
		`{"model":"b","phase":"c1","run":2,"page":"p1","text":"Lorem ipsum dolor"}`,
		`{"model":"b","phase":"c1","run":"x","page":"p3","text":"ghost"}`,
		`{"model":"b","phase":"c1","run":1,"page":"p9","text":"no page"}`,
		``,
	}, "\n")
	zero := 0
	req := &TextRequest{GT: gt, Runs: &api.File{Name: "runs.jsonl", Text: runs}, IntervalOptions: api.IntervalOptions{Bootstrap: &zero}}
	rep, err := Report(api.NoCancel, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cells) != 2 || rep.Cells[0].Model != "a" || rep.Cells[1].Model != "b" {
		t.Fatalf("cells %+v", rep.Cells)
	}
	b := rep.Cells[1]
	// b: p1 twice ("Lorern ipsum": m → rn and " dolor" deleted, 8 edits; then 0), p3 an empty GT, 5 OCR chars.
	if b.Pages != 2 || b.Rows != 3 || b.CharEdits != 8+0+5 || b.GTChars != 17+17 {
		t.Errorf("cell b %+v", b)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], `page "p3"`) {
		t.Errorf("warnings %q", rep.Warnings)
	}
	if strings.Join(rep.Unpaired.OCROnly, ",") != "p9" || len(rep.Unpaired.GTOnly) != 0 {
		t.Errorf("unpaired %+v", rep.Unpaired)
	}
	if rep.Pages[4].CER != nil {
		t.Error("empty ground truth gave a CER")
	}
}

func TestBadInputs(t *testing.T) {
	for _, c := range []struct {
		req  *TextRequest
		want string
	}{
		{&TextRequest{GT: []api.File{{Name: "g.xml", Text: "<PcGts>\n<Page>\n</Pag>"}}, OCR: []api.File{{Name: "o.txt", Text: "x"}}}, "g.xml:3:"},
		{&TextRequest{GT: []api.File{{Name: "g.txt", Text: "a"}}, Runs: &api.File{Name: "r.jsonl", Text: "{\"model\":\"m\"}\n"}}, `r.jsonl:1:1: no "phase"`},
		{&TextRequest{GT: []api.File{{Name: "g.txt", Text: "a"}}, Runs: &api.File{Name: "r.jsonl", Text: "\n[1]\n"}}, `r.jsonl:2:1: expected a JSON object`},
		{&TextRequest{GT: []api.File{{Name: "a.txt", Text: "a"}, {Name: "a.gt.txt", Text: "b"}}, OCR: []api.File{{Name: "o.txt"}, {Name: "p.txt"}}}, `a.gt.txt: page "a" is also a.txt`},
		{&TextRequest{GT: []api.File{{Name: "g.txt", Text: "a"}}}, "no OCR given"},
		{&TextRequest{GT: []api.File{{Name: "g.txt", Text: "\xff"}}, OCR: []api.File{{Name: "o.txt"}}}, "g.txt:1:1: invalid UTF-8"},
		{&TextRequest{GT: []api.File{{Name: "g.xml", Text: "<html/>"}}, OCR: []api.File{{Name: "o.txt"}}}, "g.xml:1:1: root element <html>"},
	} {
		_, err := ScoreTextOperation().Run(api.NoCancel, c.req)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
			continue
		}
		if _, ok := inputerr.As(err); !ok {
			t.Errorf("%v is not an input error", err)
		}
	}
	for _, req := range []*TextRequest{{Level: "word"}, {Normalize: "nfkc"}, {Format: "xml"}} {
		req.GT = []api.File{{Name: "g.txt"}}
		req.OCR = []api.File{{Name: "o.txt"}}
		_, err := ScoreTextOperation().Run(api.NoCancel, req)
		if _, ok := err.(*api.ParamError); !ok {
			t.Errorf("%+v: %v, want a ParamError", req, err)
		}
	}
}

func TestTextPage(t *testing.T) {
	res, err := TextPageOperation().Run(api.NoCancel, &TextPageRequest{GT: api.File{Name: "p.gt.txt", Text: "Dies ist eine Tst!"}, OCR: &api.File{Name: "p.ocr.txt", Text: "Dies ist ein Test."}})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Value
	got, err := jsonMarshal(v)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "page-view.json", got)
}

// TestTextPageOfARunsRecord checks that the view of a runs record's text
// (ocr_text) scores as the report's row of that record, for every row of
// the page-text sample (Tesseract's output, lines with trailing spaces
// and form feeds), and that an OCR file is read as a file.
func TestTextPageOfARunsRecord(t *testing.T) {
	const sample = "../../../sample/text/"
	gt := []api.File{file(t, sample+"gt/00000119.gt.xml", "sample/text/gt/00000119.gt.xml"),
		file(t, sample+"gt/462875_0008.gt.txt", "sample/text/gt/462875_0008.gt.txt")}
	runs := file(t, sample+"runs.jsonl", "sample/text/runs.jsonl")
	rep, err := Report(api.NoCancel, &TextRequest{GT: gt, Runs: &runs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(runs.Text), "\n")
	if len(rep.Pages) != len(lines) {
		t.Fatalf("%d rows for %d records", len(rep.Pages), len(lines))
	}
	for _, row := range rep.Pages {
		var rec struct{ Text string }
		if err := json.Unmarshal([]byte(lines[row.Line-1]), &rec); err != nil {
			t.Fatal(err)
		}
		g := gt[0]
		if row.Page != "00000119" {
			g = gt[1]
		}
		res, err := TextPageOperation().Run(api.NoCancel, &TextPageRequest{GT: g, OCRText: &rec.Text})
		if err != nil {
			t.Fatal(err)
		}
		v := res.Value.(*pagetext.PageView)
		if v.CharEdits != row.CharEdits || v.GTChars != row.GTChars || v.OCRChars != row.OCRChars || v.WordEdits != row.WordEdits || *v.CER != *row.CER {
			t.Errorf("%s %s: view %d/%d edits, %d OCR chars, CER %v; row %d/%d, %d, %v", row.Model, row.Page,
				v.CharEdits, v.WordEdits, v.OCRChars, *v.CER, row.CharEdits, row.WordEdits, row.OCRChars, *row.CER)
		}
		// The same text as a file has its lines stripped: other counts.
		res, err = TextPageOperation().Run(api.NoCancel, &TextPageRequest{GT: g, OCR: &api.File{Name: "o.txt", Text: rec.Text}})
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Value.(*pagetext.PageView); f.OCRChars >= v.OCRChars {
			t.Errorf("%s %s: %d OCR chars as a file, %d as a record: expected fewer as a file", row.Model, row.Page, f.OCRChars, v.OCRChars)
		}
	}
	text := "x"
	for _, req := range []*TextPageRequest{{GT: gt[1]}, {GT: gt[1], OCR: &api.File{Name: "o.txt"}, OCRText: &text}} {
		if _, err := TextPageOperation().Run(api.NoCancel, req); err == nil {
			t.Errorf("ocr %v, ocr_text %v: no error", req.OCR, req.OCRText)
		} else if _, ok := err.(*api.ParamError); !ok {
			t.Errorf("%v: not a ParamError", err)
		}
	}
}

// TestWorkLimitsAdmitOCRErrors: under the API's limits, two
// 200,000-character pages align at 5 % and at 20 % errors (as docs/text.md
// says) and are refused (pagetext.WorkLimitError) when unrelated. The
// pages are words of a small vocabulary, as text is: 724f3f0 refused the
// 20 % pair, its first pass's bound being loose on them.
func TestWorkLimitsAdmitOCRErrors(t *testing.T) {
	const n = 200_000
	r := rand.New(rand.NewPCG(5, 6))
	words := strings.Fields("über die vielen Sorgen wegen deſſelben vergaß Hartkopf der Frau Amtmännin das verſprochene zu überliefern")
	ids := map[rune]int32{}
	gt := make([]int32, 0, n+20)
	for len(gt) < n {
		for _, c := range words[r.IntN(len(words))] + " " {
			if _, ok := ids[c]; !ok {
				ids[c] = int32(len(ids))
			}
			gt = append(gt, ids[c])
		}
	}
	gt = gt[:n]
	sub, ins := int32(len(ids)), int32(len(ids)+1)
	for _, rate := range []float64{0.05, 0.2} {
		// Substitutions, insertions and deletions in equal parts, but
		// insertions 6 % more frequent than deletions in the first half
		// and 6 % less in the second: at 20 % the path wanders about 800
		// diagonals off the corners' and comes back, as a page's lines
		// read with extra and then missing characters do.
		ocr := make([]int32, 0, n+n/10)
		for i, x := range gt {
			insShare := 1.0/3 + 0.02
			if i >= n/2 {
				insShare = 1.0/3 - 0.02
			}
			switch p := r.Float64(); {
			case p < rate/3:
				ocr = append(ocr, sub)
			case p < rate/3+rate*insShare:
				ocr = append(ocr, x, ins)
			case p < rate:
			default:
				ocr = append(ocr, x)
			}
		}
		if _, _, err := pagetext.Align(gt, ocr, len(ids)+2, WorkLimits); err != nil {
			t.Fatalf("%v %% errors: %v", 100*rate, err)
		}
	}
	other := make([]int32, n)
	for i := range other {
		other[i] = int32(r.IntN(len(ids)))
	}
	_, _, err := pagetext.Align(gt, other, len(ids)+2, WorkLimits)
	var wl *pagetext.WorkLimitError
	if !errors.As(err, &wl) {
		t.Fatalf("unrelated pages: %v, want a work limit", err)
	}
}
