package pagetext

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/stats"
)

// runsCorpus is a ground truth of pages pages and a runs file of n lines
// over them (two models, two phases, runs numbered), the OCR at 2 %
// errors; every ninth ground-truth page is empty and one page no record
// names, so that warnings and unpaired pages are written too.
func runsCorpus(pages, n int) ([]Input, string) {
	r := rand.New(rand.NewPCG(11, uint64(pages)))
	var gt []Input
	texts := make([]string, pages)
	for p := range pages {
		var g []string
		if p%9 != 8 {
			g = benchText(r, 200+r.IntN(300))
		}
		texts[p] = strings.Join(g, "")
		gt = append(gt, Input{Name: fmt.Sprintf("p%04d.gt.txt", p), Data: []byte(texts[p])})
	}
	gt = append(gt, Input{Name: "lonely.gt.txt", Data: []byte("nobody reads me")})
	var b strings.Builder
	for i := range n {
		p := i % pages
		ocr := strings.Join(withErrors(r, Clusters(texts[p]), 0.02), "")
		run := fmt.Sprint(i / pages / 4)
		if i%5 == 0 {
			run = `"r` + run + `"`
		}
		fmt.Fprintf(&b, `{"model":"m%d","phase":"c%d","run":%s,"page":"p%04d","text":%s}`+"\n", i/pages%2, i/pages/2%2, run, p, jsonString(ocr))
	}
	fmt.Fprintf(&b, `{"model":"m0","phase":"c0","run":1,"page":"stray","text":"x"}`+"\n")
	return gt, b.String()
}

// TestStreamRunsIsScoreRuns: the streamed report is, byte for byte, what
// ScoreRuns' report writes in each format, with and without intervals,
// with and without rows; a Tail replaces the JSON's close.
func TestStreamRunsIsScoreRuns(t *testing.T) {
	iv, err := stats.IntervalOptions(200, 0.95, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		pages, n  int
		intervals bool
	}{{"rows", 10, 80, true}, {"no intervals", 7, 30, false}, {"no rows", 3, 0, true}} {
		gt, runs := runsCorpus(c.pages, c.n)
		opts := ReportOptions{Intervals: iv, NoIntervals: !c.intervals}
		want, err := ScoreRuns(context.Background(), gt, "runs.jsonl", strings.NewReader(runs), opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"json", "csv", "md"} {
			var w bytes.Buffer
			switch format {
			case "json":
				err = want.WriteJSON(&w)
			case "csv":
				err = want.WriteCSV(&w)
			default:
				err = want.WriteMarkdown(&w)
			}
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			lines := 0
			rep, err := StreamRuns(context.Background(), gt, "runs.jsonl", strings.NewReader(runs), opts, &got,
				StreamOptions{Format: format, Progress: func(n int) { lines = n }})
			if err != nil {
				t.Fatalf("%s, %s: %v", c.name, format, err)
			}
			if !bytes.Equal(got.Bytes(), w.Bytes()) {
				t.Fatalf("%s, %s: the streamed report differs from ScoreRuns':\n%s", c.name, format, firstLineDiff(got.String(), w.String()))
			}
			if rep.Pages != nil || len(rep.Cells) != len(want.Cells) || len(rep.Warnings) != len(want.Warnings) {
				t.Errorf("%s: the returned report has %d rows, %d cells", c.name, len(rep.Pages), len(rep.Cells))
			}
			if c.n >= 256 && lines == 0 {
				t.Errorf("%s: no progress", c.name)
			}
		}
		var got bytes.Buffer
		if _, err := StreamRuns(context.Background(), gt, "runs.jsonl", strings.NewReader(runs), opts, &got, StreamOptions{
			Tail: func(*Report) ([]byte, error) { return []byte(",\n  \"x\": 1\n}\n"), nil },
		}); err != nil {
			t.Fatal(err)
		}
		var w bytes.Buffer
		want.WriteJSON(&w)
		if want := strings.TrimSuffix(w.String(), "\n}\n") + ",\n  \"x\": 1\n}\n"; got.String() != want {
			t.Fatalf("%s: with a tail:\n%s", c.name, firstLineDiff(got.String(), want))
		}
	}
}

func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n  got  %q\n  want %q", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}
