package tabular_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/tabular"
)

// FuzzStreamMatchesScoreRequest holds Stream to ScoreRequest for any runs
// file against the bundled sample's ground truth and rule file: with 1
// and 3 jobs, in the format a fuzzed byte picks (bits 0-1: json, csv, md;
// bit 2 skips bad lines; bit 3 adds intervals), the same report bytes or
// the same error text, and no panic. The seeds, under
// testdata/fuzz/FuzzStreamMatchesScoreRequest, are a few lines of the
// sample each: the whole file (36 images, 210 KB, TestStreamSample's)
// takes 60 ms an exec, and the fuzzer's minimizing of so large an input
// would use up a short fuzzing run.
func FuzzStreamMatchesScoreRequest(f *testing.F) {
	files, err := sample.TabularRequest(true)
	if err != nil {
		f.Fatal(err)
	}
	formats := [4]string{"json", "csv", "md", "json"}
	f.Fuzz(func(t *testing.T, runs []byte, sel uint8) {
		req := tabular.Request{GT: files.GT, Rules: files.Rules, Runs: tabular.File{Name: "runs.jsonl", Data: runs}, SkipBadLines: sel&4 != 0}
		if sel&8 != 0 {
			req.Intervals = tabular.Intervals{Bootstrap: 20, Seed: 1}
		}
		format := formats[sel&3]
		want, wantErr := inMemory(req, format)
		for _, jobs := range []int{1, 3} {
			got, err := streamed(req, format, jobs)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("%s, %d jobs: error %v, want %v", format, jobs, err, wantErr)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, %d jobs: %d bytes differ from ScoreRequest's %d bytes", format, jobs, len(got), len(want))
			}
		}
	})
}
