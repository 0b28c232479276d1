package testkit

import (
	"runtime"
	"runtime/metrics"
	"slices"
	"testing"
	"time"
)

// HeapSamples reads the live heap after a full collection at 40 evenly
// spaced points of a streamed run of n units (images, records, lines),
// so that a short run and a long one are sampled as often: the largest
// of more samples taken after every collection would grow with the run's
// length alone. Pass Progress as the stream's progress callback.
type HeapSamples struct {
	Live       []uint64
	step, next int
	sample     []metrics.Sample
}

// NewHeapSamples returns the sampler of a run of n units.
func NewHeapSamples(n int) *HeapSamples {
	step := max(n/40, 1)
	return &HeapSamples{step: step, next: step, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
}

// Progress samples the live heap when done units have passed the next
// point.
func (h *HeapSamples) Progress(done int) {
	if done < h.next {
		return
	}
	h.next += h.step
	runtime.GC()
	metrics.Read(h.sample)
	h.Live = append(h.Live, h.sample[0].Value.Uint64())
}

// Run is one streamed run's samples: its size in units and its time.
type Run struct {
	N    int
	Live []uint64
	Time time.Duration
}

// CheckFlatMemory compares a streamed run with one of a tenth of its
// size and fails t when the large run's live heap grows by more than half
// from its second quarter to its last (medians of the samples: a heap
// that grows with the units is higher late, while what is in flight, which
// comes and goes, moves a median little) or, when peak is above 0, when
// its peak is more than peak times the small run's. unit names the units
// in the log and the errors.
func CheckFlatMemory(t *testing.T, unit string, small, large Run, peak float64) {
	t.Helper()
	if len(small.Live) == 0 || len(large.Live) < 8 {
		t.Fatalf("%d and %d samples of the live heap, want at least 1 and 8", len(small.Live), len(large.Live))
	}
	smallPeak, largePeak := slices.Max(small.Live), slices.Max(large.Live)
	q := len(large.Live) / 4
	midMed, lateMed := median(large.Live[q:2*q]), median(large.Live[3*q:])
	t.Logf("live heap, %d %s (%.1f s): peak %.2f MB; %d %s (%.1f s): medians of the second and last quarters %.2f and %.2f MB (×%.3f), peak %.2f MB (×%.3f)",
		small.N, unit, small.Time.Seconds(), float64(smallPeak)/1e6, large.N, unit, large.Time.Seconds(),
		float64(midMed)/1e6, float64(lateMed)/1e6, float64(lateMed)/float64(midMed), float64(largePeak)/1e6, float64(largePeak)/float64(smallPeak))
	if float64(lateMed) > 1.5*float64(midMed) {
		t.Errorf("live heap %d bytes in the last quarter of %d %s, over 1.5 × %d bytes in the second: memory grows with the %s", lateMed, large.N, unit, midMed, unit)
	}
	if peak > 0 && float64(largePeak) > peak*float64(smallPeak) {
		t.Errorf("peak live heap %d bytes for %d %s, over %.1f × %d bytes for %d: memory grows with the %s", largePeak, large.N, unit, peak, smallPeak, small.N, unit)
	}
}

// median is the middle of v (the upper of the two middles).
func median(v []uint64) uint64 {
	w := slices.Clone(v)
	slices.Sort(w)
	return w[len(w)/2]
}
