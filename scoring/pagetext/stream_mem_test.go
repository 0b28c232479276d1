package pagetext

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/docscore/docscore/internal/testkit"
)

// memoryLines is the large run of TestStreamRunsFlatMemory; the small run
// scores a tenth. make test runs 20,000 lines (a quarter under the race
// detector and WebAssembly); make test-memory runs 200,000.
var memoryLines = flag.Int("memory-lines", 20000, "runs lines of TestStreamRunsFlatMemory's large run")

// streamLines streams n generated runs lines over 40 ground-truth pages
// of about 300 characters (two models, two phases, runs numbered on) as
// JSON to nowhere, its rows spooled to nowhere (the command line's spool
// is a file), and samples the live heap 40 times.
func streamLines(n int) (testkit.Run, *Report, error) {
	const pages = 40
	r := rand.New(rand.NewPCG(21, 22))
	texts := make([]string, pages)
	gt := make([]Input, pages)
	for p := range pages {
		texts[p] = strings.Join(benchText(r, 250+r.IntN(100)), "")
		gt[p] = Input{Name: fmt.Sprintf("p%02d.gt.txt", p), Data: []byte(texts[p])}
	}
	// A few OCR readings a page, drawn from as the lines go: the texts in
	// flight stay the same size whatever n is.
	ocr := make([][]string, pages)
	for p := range pages {
		for range 4 {
			ocr[p] = append(ocr[p], jsonString(strings.Join(withErrors(r, Clusters(texts[p]), 0.03), "")))
		}
	}
	pr, pw := io.Pipe()
	go func() {
		var b strings.Builder
		for i := range n {
			p := i % pages
			fmt.Fprintf(&b, `{"model":"m%d","phase":"c%d","run":%d,"page":"p%02d","text":%s}`+"\n", i/pages%2, i/pages/2%2, i/(4*pages), p, ocr[p][i/pages%4])
			if b.Len() > 32<<10 || i == n-1 {
				if _, err := io.WriteString(pw, b.String()); err != nil {
					return
				}
				b.Reset()
			}
		}
		pw.Close()
	}()
	h := testkit.NewHeapSamples(n)
	start := time.Now()
	rep, err := StreamRuns(context.Background(), gt, "runs.jsonl", pr, ReportOptions{NoIntervals: true}, io.Discard,
		StreamOptions{Format: "json", Progress: h.Progress, Spool: func() (Spool, error) { return discardSpool{}, nil }})
	pr.CloseWithError(io.ErrClosedPipe)
	return testkit.Run{N: n, Live: h.Live, Time: time.Since(start)}, rep, err
}

// TestStreamRunsFlatMemory streams -memory-lines runs lines and a tenth as
// many, and fails when the large run's live heap grows by more than half
// from its second quarter to its last (medians of the samples), or when
// its peak is more than 1.5 times the small run's: the memory of a
// streamed page-text scoring does not grow with the number of lines. (A
// scoring that kept its rows took the peak to 5.3 times the small run's.)
func TestStreamRunsFlatMemory(t *testing.T) {
	large := *memoryLines
	if slowBuild {
		large /= 4
	}
	small := large / 10
	smallRun, _, err := streamLines(small)
	if err != nil {
		t.Fatal(err)
	}
	largeRun, rep, err := streamLines(large)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, c := range rep.Cells {
		rows += c.Rows
	}
	if rows != large {
		t.Fatalf("%d rows pooled, want %d", rows, large)
	}
	testkit.CheckFlatMemory(t, "lines", smallRun, largeRun, 1.5)
}

// discardSpool keeps nothing of what is written to it.
type discardSpool struct{}

func (discardSpool) Write(p []byte) (int, error)  { return len(p), nil }
func (discardSpool) Contents() (io.Reader, error) { return strings.NewReader(""), nil }
