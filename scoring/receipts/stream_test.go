package receipts_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/receipts/receiptstest"
	"github.com/docscore/docscore/scoring/runfile"
	"github.com/docscore/docscore/scoring/stats"
)

// inMemory is the report of the whole-file path: runfile.Read, Score and
// the format's writer, or the first error.
func inMemory(refs receiptsread.References, run []byte, opts receipts.Options, format string, skip bool) ([]byte, error) {
	rep, err := scoreInMemory(refs, run, opts, skip)
	return writeInMemory(rep, err, format)
}

// scoreInMemory is the whole-file path's report: runfile.Read and Score.
func scoreInMemory(refs receiptsread.References, run []byte, opts receipts.Options, skip bool) (*receiptsreport.Report, error) {
	r, err := runfile.Read(bytes.NewReader(run), "run.jsonl", runfile.ReadOptions{SkipBadLines: skip})
	if err != nil {
		return nil, err
	}
	return receipts.Score(refs, r, opts)
}

// writeInMemory is rep in a format, by its writer, or err when the
// scoring failed.
func writeInMemory(rep *receiptsreport.Report, err error, format string) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	switch format {
	case "json":
		err = rep.WriteJSON(&b)
	case "csv":
		err = rep.WriteCSV(&b)
	case "md":
		err = rep.WriteMarkdown(&b)
	}
	return b.Bytes(), err
}

func streamed(refs receiptsread.References, run []byte, opts receipts.Options, format string, skip bool, jobs int) ([]byte, error) {
	var b bytes.Buffer
	_, _, err := receipts.Stream(nil, refs, "run.jsonl", bytes.NewReader(run), &b, opts,
		receipts.StreamOptions{Format: format, Jobs: jobs, SkipBadLines: skip})
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sameAsInMemory fails when the streamed scoring's bytes or error differ
// from the in-memory path's, in any format, with 1 and 8 jobs. The
// in-memory report is scored once and written in each format (its
// writers only read it).
func sameAsInMemory(t *testing.T, what string, refs receiptsread.References, run []byte, opts receipts.Options, skip bool) {
	t.Helper()
	rep, repErr := scoreInMemory(refs, run, opts, skip)
	for _, format := range []string{"json", "csv", "md"} {
		want, wantErr := writeInMemory(rep, repErr, format)
		for _, jobs := range []int{1, 8} {
			got, err := streamed(refs, run, opts, format, skip, jobs)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%s %s jobs %d: error %v, want %v", what, format, jobs, err, wantErr)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s jobs %d: %d bytes differ from the in-memory path's %d:\n%s", what, format, jobs, len(got), len(want), firstDiff(got, want))
			}
		}
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("got  …%q…\nwant …%q…", a[lo:min(len(a), i+200)], b[lo:min(len(b), i+200)])
}

func sampleRun(t *testing.T, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(sample.Receipts, "receipts/"+name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStreamSamples: the bundled runs, complete and incomplete, with and
// without intervals, structured metrics off, auto and on, give the same
// bytes streamed.
func TestStreamSamples(t *testing.T) {
	// CPU-bound on inputs of its own: it runs beside the other parallel
	// tests, once the sequential ones (TestStreamFlatMemory) are done.
	t.Parallel()
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	for _, run := range []string{"run.jsonl", "run_incomplete.jsonl"} {
		data := sampleRun(t, run)
		for _, allow := range []bool{false, true} {
			for _, bs := range []int{0, stats.DefaultReplicates} {
				for _, mode := range []receipts.Structured{receipts.StructuredAuto, receipts.StructuredOff, receipts.StructuredOn} {
					opts := receipts.Options{AllowIncomplete: allow, Bootstrap: bs, Structured: mode}
					sameAsInMemory(t, fmt.Sprintf("%s allow=%v bootstrap=%d structured=%d", run, allow, bs, mode), refs, data, opts, false)
				}
			}
		}
	}
}

// generated is a generated run of n records over the sample's
// references.
func generated(t testing.TB, refs receiptsread.References, n int, bad ...int) []byte {
	var b bytes.Buffer
	if _, err := receiptstest.WriteRun(&b, refs, receiptstest.Options{Records: n, BadLines: bad, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestStreamGenerated: a generated run with failures, JSON parses,
// duplicates, unplanned pairs and malformed lines gives the in-memory
// bytes and errors.
func TestStreamGenerated(t *testing.T) {
	// CPU-bound on inputs of its own: it runs beside the other parallel
	// tests, once the sequential ones (TestStreamFlatMemory) are done.
	t.Parallel()
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	n := 720
	if slowBuild {
		n = 240
	}
	run := generated(t, refs, n, 100, n-50)
	opts := receipts.Options{AllowIncomplete: true, Bootstrap: 200}
	sameAsInMemory(t, "generated, skipping", refs, run, opts, true)
	sameAsInMemory(t, "generated, not skipping", refs, run, opts, false)

	dup := withDuplicates(t, refs)
	sameAsInMemory(t, "duplicates", refs, dup, opts, false)
	sameAsInMemory(t, "duplicates, refused", refs, dup, receipts.Options{}, false)

	// A sample without a reference before a bad line: the bad line wins.
	noRef := strings.Replace(string(run), `"sample_id": "cord-test-0005"`, `"sample_id": "cord-test-9999"`, 3)
	sameAsInMemory(t, "no reference", refs, []byte(noRef), opts, false)
	sameAsInMemory(t, "no reference, skipping", refs, []byte(noRef), opts, true)
	// Two references for one sample.
	twice := append(append(receiptsread.References(nil), refs...), refs[2])
	sameAsInMemory(t, "two references", twice, run, opts, true)
	// Broken gt_parse of a reference.
	broken := append(receiptsread.References(nil), refs...)
	broken[3].GTParse = []byte(`{"menu": [`)
	sameAsInMemory(t, "broken gt_parse", broken, run, opts, true)
	// Not a header first; empty.
	sameAsInMemory(t, "no header", refs, []byte(strings.Join(strings.Split(string(generated(t, refs, 500)), "\n")[1:], "\n")), opts, true)
	sameAsInMemory(t, "empty", refs, []byte("\n\n"), opts, true)
}

// withDuplicates is a generated run of 500 records with three records
// again (two pairs of one phase and one of another), an unplanned phase
// and sample, an end record moved and a header repeated.
func withDuplicates(t testing.TB, refs receiptsread.References) []byte {
	lines := strings.Split(strings.TrimSuffix(string(generated(t, refs, 500)), "\n"), "\n")
	extra := []string{lines[40], lines[41], lines[300],
		`{"type": "request", "phase": "c99", "sample_id": "cord-test-0003", "status": "ok", "finish_reason": "stop", "output": "TOTAL 10.000", "error": null}`,
		`{"type": "end", "status": "interrupted", "reason": "killed"}`,
		lines[0],
	}
	return []byte(strings.Join(append(append(lines[:len(lines)-1:len(lines)-1], extra...), lines[len(lines)-1]), "\n") + "\n")
}

// TestStreamBadLineFarIn: a malformed line far into a generated file is
// reported with its line number, and skipped under SkipBadLines.
func TestStreamBadLineFarIn(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	n, bad := 12000, 11000
	if slowBuild {
		n, bad = 2400, 2200
	}
	run := generated(t, refs, n, bad)
	// The header, a warmup per sample, the records before.
	line := 1 + len(refs) + bad + 1
	var out bytes.Buffer
	_, _, err := receipts.Stream(nil, refs, "run.jsonl", bytes.NewReader(run), &out, receipts.Options{}, receipts.StreamOptions{Jobs: 4})
	if want := fmt.Sprintf("run.jsonl:%d:", line); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want one at %s", err, want)
	}
	if out.Len() != 0 {
		t.Errorf("%d bytes written before the error", out.Len())
	}
	rep, skipped, err := receipts.Stream(nil, refs, "run.jsonl", bytes.NewReader(run), &out, receipts.Options{}, receipts.StreamOptions{Jobs: 4, SkipBadLines: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Line != line || len(rep.SkippedLines) != 1 {
		t.Errorf("skipped %v, want line %d", skipped, line)
	}
	if rep.ScoredRecords != n || !rep.Complete {
		t.Errorf("%d pages scored, complete %v; want %d, complete", rep.ScoredRecords, rep.Complete, n)
	}
}

// TestStreamCancel: a cancelled scoring stops with the context's error
// and writes nothing.
func TestStreamCancel(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	run := generated(t, refs, 3000)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	_, _, err := receipts.Stream(ctx, refs, "run.jsonl", bytes.NewReader(run), &out, receipts.Options{}, receipts.StreamOptions{
		Jobs: 2, Progress: func(int) { cancel() }})
	if !errors.Is(err, context.Canceled) || out.Len() != 0 {
		t.Errorf("error %v and %d bytes, want context.Canceled and none", err, out.Len())
	}
}
