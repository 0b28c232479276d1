package tabular_test

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/docscore/docscore/scoring/tabular"
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
func streamCorpus(n, bad, jobs, maxMatches int, skip bool) (*tabular.Report, uint64, time.Duration, error) {
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
	// The live heap is read after a full collection at 40 evenly spaced
	// points of the run, so that both runs are sampled as often: the
	// largest of more samples taken after every collection would grow
	// with the run's length alone.
	var live uint64
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	step, next := max(n/40, 1), max(n/40, 1)
	progress := func(images int) {
		if images < next {
			return
		}
		next += step
		runtime.GC()
		metrics.Read(sample)
		live = max(live, sample[0].Value.Uint64())
	}
	start := time.Now()
	rep, err := tabular.Stream(nil, tabular.Request{GT: c.GT, Runs: tabular.File{Name: "runs.jsonl"}, SkipBadLines: skip,
		Intervals: tabular.Intervals{Bootstrap: 200}}, pr, io.Discard,
		tabular.StreamOptions{Format: "csv", Jobs: jobs, MaxMatches: maxMatches, Progress: progress})
	el := time.Since(start)
	pr.CloseWithError(io.ErrClosedPipe)
	return rep, live, el, err
}

// TestStreamFlatMemory scores -memory-images generated images (a
// malformed line among them, skipped) and a tenth as many, and fails
// when the large run's peak live heap is more than 20 % over the small
// run's: the memory of a streamed scoring does not grow with the number
// of images. The malformed line, at image 150,000 (or three quarters in)
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
	_, smallPeak, smallTime, err := streamCorpus(small, -1, 2, maxMatches, false)
	if err != nil {
		t.Fatal(err)
	}
	rep, largePeak, largeTime, err := streamCorpus(large, bad, 2, maxMatches, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("peak live heap: %d images %.1f MB (%.1f s), %d images %.1f MB (%.1f s): ×%.3f",
		small, float64(smallPeak)/1e6, smallTime.Seconds(), large, float64(largePeak)/1e6, largeTime.Seconds(), float64(largePeak)/float64(smallPeak))
	if float64(largePeak) > 1.2*float64(smallPeak) {
		t.Errorf("peak live heap %d bytes for %d images, over 1.2 × %d bytes for %d: memory grows with the images", largePeak, large, smallPeak, small)
	}
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
