package receipts_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
)

// FuzzStreamMatchesInMemory holds Stream to the in-memory path
// (runfile.Read, Score, the format's writer) for any run file against the
// sample's references: with 1 and 3 jobs, the same report bytes or the
// same error text, and no panic. A fuzzed byte picks the format and
// options: bits 0-1 json, csv, md; bit 2 skips bad lines; bit 3 adds
// intervals; bit 4 allows an incomplete run; bits 5-6 the structured
// metrics (auto, off, on). The seeds are under
// testdata/fuzz/FuzzStreamMatchesInMemory: a few lines of the sample run
// each, so that an exec takes milliseconds.
func FuzzStreamMatchesInMemory(f *testing.F) {
	refs := loadSampleRefs(f, receiptsread.ParseOptions{})
	formats := [4]string{"json", "csv", "md", "json"}
	structured := [4]receipts.Structured{receipts.StructuredAuto, receipts.StructuredOff, receipts.StructuredOn, receipts.StructuredAuto}
	f.Fuzz(func(t *testing.T, run []byte, sel uint8) {
		format, skip := formats[sel&3], sel&4 != 0
		opts := receipts.Options{AllowIncomplete: sel&16 != 0, Structured: structured[sel>>5&3]}
		if sel&8 != 0 {
			opts.Bootstrap, opts.Seed = 20, 1
		}
		want, wantErr := inMemory(refs, run, opts, format, skip)
		for _, jobs := range []int{1, 3} {
			got, err := streamed(refs, run, opts, format, skip, jobs)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("%s, %d jobs: error %v, want %v", format, jobs, err, wantErr)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, %d jobs: %d bytes differ from the in-memory path's %d:\n%s", format, jobs, len(got), len(want), firstDiff(got, want))
			}
		}
	})
}
