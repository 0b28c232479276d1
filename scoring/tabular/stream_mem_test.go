package tabular_test

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// memoryImages is the large run of TestStreamFlatMemory; the small run
// scores a tenth. make test runs 20,000 (against 2,000; a tenth of both
// under the race detector and WebAssembly); make test-memory runs
// 200,000 (against 20,000).
var memoryImages = flag.Int("memory-images", 20000, "images of TestStreamFlatMemory's large run")

// streamCorpus scores a generated corpus of n images over 10 pages,
// written into a pipe as it is read, with a malformed line before image
// bad (0-based; none when negative), as CSV to nowhere.
func streamCorpus(n, bad, jobs, maxMatches int, skip bool) (*tabularreport.Report, testkit.Run, error) {
	c := tabulartest.New(tabulartest.Large(n, 10))
	pr, pw := io.Pipe()
	opts := tabulartest.RunsOptions{Images: n}
	if bad >= 0 {
		opts.BadLines = []int{bad}
	}
	go func() {
		_, err := c.WriteRuns(pw, opts)
		pw.CloseWithError(err)
	}()
	h := testkit.NewHeapSamples(n)
	start := time.Now()
	rep, err := tabularstream.Stream(nil, tabular.Request{GT: c.GT, Runs: tabular.File{Name: "runs.jsonl"}, SkipBadLines: skip,
		Intervals: tabular.Intervals{Bootstrap: 200}}, pr, io.Discard,
		tabularstream.StreamOptions{Format: "csv", Jobs: jobs, MaxMatches: maxMatches, Progress: h.Progress})
	run := testkit.Run{N: n, Live: h.Live, Time: time.Since(start)}
	pr.CloseWithError(io.ErrClosedPipe)
	return rep, run, err
}

// TestStreamFlatMemory scores -memory-images generated images (a
// malformed line among them, skipped) and a tenth as many, and fails
// when the large run's live heap grows by more than half from its second
// quarter to its last (medians of the samples) or, from 100,000 images
// up, when its peak is more than 20 % over the small run's: the memory of
// a streamed scoring does not grow with the number of images. The malformed line, at image 150,000 (or three quarters in)
// is reported with its line number.
func TestStreamFlatMemory(t *testing.T) {
	large, maxMatches := *memoryImages, 0
	if slowBuild {
		// A tenth, with a smaller memo that the small run fills too.
		large, maxMatches = large/10, 64
	}
	if large < 100000 {
		// The name-match memo (4,096 entries, two generations) is a
		// constant the small run of a short test does not fill: with a
		// memo both runs fill, the comparison sees only what grows with
		// the images. make test-memory keeps the real memo.
		maxMatches = 64
	}
	small := large / 10
	bad := 149999
	if large <= bad {
		bad = large * 3 / 4
	}
	_, smallRun, err := streamCorpus(small, -1, 2, maxMatches, false)
	if err != nil {
		t.Fatal(err)
	}
	rep, largeRun, err := streamCorpus(large, bad, 2, maxMatches, true)
	if err != nil {
		t.Fatal(err)
	}
	// Samples are taken between batches of lines: a short run (the race
	// detector's, WebAssembly's) has fewer than 40. (At 20,000 images the
	// lines in flight are a fifth of the heap, so the peaks of a short
	// run vary by as much as the 20 % allowed: the peaks are compared
	// from 100,000 images up, make test-memory.)
	peak := 0.0
	if large >= 100000 {
		peak = 1.2
	}
	testkit.CheckFlatMemory(t, "images", smallRun, largeRun, peak)
	want := fmt.Sprintf("skipped: runs.jsonl:%d:", bad+1)
	found := false
	for _, w := range rep.Warnings {
		found = found || strings.HasPrefix(w, want)
	}
	if !found {
		t.Errorf("warnings %q; want the malformed line reported as %q", rep.Warnings, want)
	}
	images := 0
	for _, c := range rep.Cells {
		images += c.ImagesOK + c.ImagesFailed
	}
	if images != large {
		t.Errorf("%d images pooled, want %d", images, large)
	}
}
