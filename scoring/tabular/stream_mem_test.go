package tabular_test

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

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
func streamCorpus(n, bad, jobs, maxMatches int, skip bool) (*tabularreport.Report, []uint64, time.Duration, error) {
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
	var live []uint64
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	step, next := max(n/40, 1), max(n/40, 1)
	progress := func(images int) {
		if images < next {
			return
		}
		next += step
		runtime.GC()
		metrics.Read(sample)
		live = append(live, sample[0].Value.Uint64())
	}
	start := time.Now()
	rep, err := tabularstream.Stream(nil, tabular.Request{GT: c.GT, Runs: tabular.File{Name: "runs.jsonl"}, SkipBadLines: skip,
		Intervals: tabular.Intervals{Bootstrap: 200}}, pr, io.Discard,
		tabularstream.StreamOptions{Format: "csv", Jobs: jobs, MaxMatches: maxMatches, Progress: progress})
	el := time.Since(start)
	pr.CloseWithError(io.ErrClosedPipe)
	return rep, live, el, err
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
	_, smallLive, smallTime, err := streamCorpus(small, -1, 2, maxMatches, false)
	if err != nil {
		t.Fatal(err)
	}
	rep, largeLive, largeTime, err := streamCorpus(large, bad, 2, maxMatches, true)
	if err != nil {
		t.Fatal(err)
	}
	// Samples are taken between batches of lines: a short run (the race
	// detector's, WebAssembly's) has fewer than 40.
	if len(smallLive) == 0 || len(largeLive) < 8 {
		t.Fatalf("%d and %d samples of the live heap, want at least 1 and 8", len(smallLive), len(largeLive))
	}
	smallPeak, largePeak := slices.Max(smallLive), slices.Max(largeLive)
	// Within the large run, the median live heap of its last quarter
	// against that of its second (past the warm-up): a heap that grows
	// with the images is higher late, while the lines in flight, which
	// come and go, move a median little. (At 20,000 images the lines in
	// flight are a fifth of the heap, so the peaks of a short run vary by
	// as much as the 20 % allowed: the peaks are compared from 100,000
	// images up, make test-memory.)
	q := len(largeLive) / 4
	midMed, lateMed := median(largeLive[q:2*q]), median(largeLive[3*q:])
	t.Logf("live heap, %d images (%.1f s): peak %.2f MB; %d images (%.1f s): medians of the second and last quarters %.2f and %.2f MB (×%.3f), peak %.2f MB (×%.3f)",
		small, smallTime.Seconds(), float64(smallPeak)/1e6, large, largeTime.Seconds(),
		float64(midMed)/1e6, float64(lateMed)/1e6, float64(lateMed)/float64(midMed), float64(largePeak)/1e6, float64(largePeak)/float64(smallPeak))
	// 1.5: the medians of one run vary by about 20 % here; a scoring
	// that kept what an image row holds (half a kilobyte and more) would
	// double the heap between the two quarters.
	if float64(lateMed) > 1.5*float64(midMed) {
		t.Errorf("live heap %d bytes in the last quarter of %d images, over 1.5 × %d bytes in the second: memory grows with the images", lateMed, large, midMed)
	}
	if large >= 100000 && float64(largePeak) > 1.2*float64(smallPeak) {
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

// median is the middle of v (the upper of the two middles).
func median(v []uint64) uint64 {
	w := slices.Clone(v)
	slices.Sort(w)
	return w[len(w)/2]
}
