package receipts_test

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"path"
	"strconv"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptstest"
	"github.com/docscore/docscore/scoring/runfile"
)

// longPages returns two 20,000-token receipt-like pages: the prediction is
// the reference with about one token in eight replaced, dropped or
// doubled, over a vocabulary of words and amounts.
func longPages() (pred, ref []string) {
	rng := rand.New(rand.NewPCG(20000, 1))
	vocab := make([]string, 0, 600)
	for i := 0; i < 300; i++ {
		vocab = append(vocab, "word"+strconv.Itoa(i), strconv.Itoa(1000*(i+1))+",000")
	}
	ref = make([]string, 20000)
	for i := range ref {
		ref[i] = vocab[rng.IntN(len(vocab))]
	}
	for _, t := range ref {
		switch rng.IntN(24) {
		case 0:
			pred = append(pred, vocab[rng.IntN(len(vocab))])
		case 1:
			// dropped
		case 2:
			pred = append(pred, t, t)
		default:
			pred = append(pred, t)
		}
	}
	for len(pred) < 20000 {
		pred = append(pred, vocab[rng.IntN(len(vocab))])
	}
	return pred[:20000], ref
}

// BenchmarkRougeLLongPages compares the bit-parallel LCS with the DP oracle
// on two 20,000-token pages; the issue asks for at least 20× between them.
func BenchmarkRougeLLongPages(b *testing.B) {
	pred, ref := longPages()
	want := receipts.LCSDP(pred, ref)
	b.Run("bitparallel", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if receipts.RougeL(pred, ref).LCS != want {
				b.Fatal("bit-parallel LCS differs from the DP oracle")
			}
		}
	})
	b.Run("dp", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if receipts.LCSDP(pred, ref) != want {
				b.Fatal("DP changed")
			}
		}
	})
}

// BenchmarkScoreSampleRun scores the whole sample run (48 measured pages
// against 24 references, the issue asks for under 5 ms): "score" from
// parsed inputs to the report, "end_to_end" from the input bytes to the
// JSON report bytes.
func BenchmarkScoreSampleRun(b *testing.B) {
	refs := loadSampleRefs(b, receiptsread.ParseOptions{})
	run := loadSampleRun(b, "run.jsonl")
	b.Run("score", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := receipts.Score(refs, run, receipts.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	files := map[string][]byte{}
	entries, _ := fs.ReadDir(sample.Receipts, "receipts/refs")
	for _, e := range entries {
		name := path.Join("receipts/refs", e.Name())
		files[name], _ = fs.ReadFile(sample.Receipts, name)
	}
	runBytes, _ := fs.ReadFile(sample.Receipts, "receipts/run.jsonl")
	b.Run("end_to_end", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var refs receiptsread.References
			for name, data := range files {
				r, err := receiptsread.ParseReferences(name, data, receiptsread.ParseOptions{})
				if err != nil {
					b.Fatal(err)
				}
				refs = append(refs, r...)
			}
			run, err := runfile.Read(bytes.NewReader(runBytes), "run.jsonl", runfile.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			rep, err := receipts.Score(refs, run, receipts.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if err := rep.WriteJSON(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStreamJobs streams a generated run of 4,800 records (held in
// memory) as JSON with 1 and 2 jobs: records/s (make bench-stream).
func BenchmarkStreamJobs(b *testing.B) {
	benchStream(b, loadSampleRefs(b, receiptsread.ParseOptions{}), 4800, 1000)
}

// BenchmarkStream100k streams a generated run of 100,000 records over
// 1,000 references (as "gencorpus -kind receipts -records 100000" writes
// it, held in memory) as JSON with 2,000 replicates, with 1 and 2 jobs:
// the target of --jobs 2 over --jobs 1 is ×1.6 on a quiet machine
// (make bench-stream-receipts; a few seconds a run).
func BenchmarkStream100k(b *testing.B) {
	refs := receiptstest.Repeat(loadSampleRefs(b, receiptsread.ParseOptions{}), 1000)
	benchStream(b, refs, 100000, 2000)
}

// benchStream streams a run of n records over refs, generated and held
// in memory, as JSON with bootstrap replicates, with 1 and 2 jobs.
func benchStream(b *testing.B, refs receiptsread.References, n, bootstrap int) {
	var run bytes.Buffer
	if _, err := receiptstest.WriteRun(&run, refs, receiptstest.Options{Records: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.SetBytes(int64(run.Len()))
			for b.Loop() {
				if _, _, err := receipts.Stream(nil, refs, "run.jsonl", bytes.NewReader(run.Bytes()), io.Discard, receipts.Options{Bootstrap: bootstrap}, receipts.StreamOptions{Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
