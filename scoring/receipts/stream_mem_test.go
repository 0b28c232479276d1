package receipts_test

import (
	"flag"
	"io"
	"os"
	"testing"
	"time"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/receipts/receiptstest"
)

// memoryRecords is the large run of TestStreamFlatMemory; the small run
// scores a tenth. make test runs 20,000 (against 2,000); make
// test-memory runs 200,000 (against 20,000).
var memoryRecords = flag.Int("memory-records", 20000, "records of TestStreamFlatMemory's large run")

// streamRecords scores a generated run of n records over refs, written
// into a pipe as it is read, as Markdown to nowhere with intervals (its
// spools in files, as the command line's), and samples the live heap
// after a full collection at 40 evenly spaced points.
func streamRecords(t *testing.T, refs receiptsread.References, n, bad int) (*receiptsreport.Report, testkit.Run) {
	pr, pw := io.Pipe()
	go func() {
		_, err := receiptstest.WriteRun(pw, refs, receiptstest.Options{Records: n, BadLines: []int{bad}, Seed: 1})
		pw.CloseWithError(err)
	}()
	h := testkit.NewHeapSamples(n)
	start := time.Now()
	rep, _, err := receipts.Stream(nil, refs, "run.jsonl", pr, io.Discard, receipts.Options{Bootstrap: 200}, receipts.StreamOptions{
		Format: "md", Jobs: 2, SkipBadLines: true, Spool: func() (receipts.Spool, error) { return newFileSpool(t) },
		Progress: h.Progress})
	pr.CloseWithError(io.ErrClosedPipe)
	if err != nil {
		t.Fatal(err)
	}
	return rep, testkit.Run{N: n, Live: h.Live, Time: time.Since(start)}
}

// TestStreamFlatMemory scores -memory-records generated records and a
// tenth as many (Markdown, with intervals) and fails when the
// large run's live heap grows by more than half from its second quarter
// to its last, or, from 100,000 records up, when its peak is more than
// 20 % over the small run's.
func TestStreamFlatMemory(t *testing.T) {
	// CORD-v2's size, as make bench-million-receipts: the phases (the
	// report's cells, each kept as its sums) grow a tenth as fast as
	// over the 24 bundled references.
	large := *memoryRecords
	if slowBuild {
		large /= 10
	}
	// At least 20 phases in the large run: the references' caches
	// (tokens, parses) fill during the first phase.
	refs := receiptstest.Repeat(loadSampleRefs(t, receiptsread.ParseOptions{}), min(1000, max(24, large/20)))
	small := large / 10
	_, smallRun := streamRecords(t, refs, small, small/2)
	rep, largeRun := streamRecords(t, refs, large, large*3/4)
	peak := 0.0
	if large >= 100000 {
		peak = 1.2
	}
	testkit.CheckFlatMemory(t, "records", smallRun, largeRun, peak)
	if want := receiptstest.Phases(large, len(refs)) * len(refs); rep.ScoredRecords != want || len(rep.SkippedLines) != 1 {
		t.Errorf("%d pages scored, %d lines skipped; want %d and 1", rep.ScoredRecords, len(rep.SkippedLines), want)
	}
}

// fileSpool is a receipts.Spool in a file.
type fileSpool struct{ f *os.File }

func newFileSpool(t *testing.T) (*fileSpool, error) {
	f, err := os.CreateTemp(t.TempDir(), "spool-*")
	if err == nil {
		t.Cleanup(func() { f.Close() })
	}
	return &fileSpool{f}, err
}

func (s *fileSpool) Write(p []byte) (int, error) { return s.f.Write(p) }

func (s *fileSpool) Contents() (io.Reader, error) {
	_, err := s.f.Seek(0, io.SeekStart)
	return s.f, err
}
