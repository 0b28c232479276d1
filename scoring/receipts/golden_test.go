package receipts_test

import (
	"bytes"
	"flag"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// sampleReport scores one of the sample run files against the CORD refs.
func sampleReport(t testing.TB, runFile string, refs receiptsread.References) *receiptsreport.Report {
	t.Helper()
	return sampleReportWith(t, runFile, refs, receipts.Options{AllowIncomplete: true})
}

// sampleReportWith scores one of the sample run files with opts.
func sampleReportWith(t testing.TB, runFile string, refs receiptsread.References, opts receipts.Options) *receiptsreport.Report {
	t.Helper()
	rep, err := receipts.Score(refs, loadSampleRun(t, runFile), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// encodings renders a report in every format.
func encodings(t testing.TB, rep *receiptsreport.Report) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for ext, write := range map[string]func(*bytes.Buffer) error{
		".json":       func(b *bytes.Buffer) error { return rep.WriteJSON(b) },
		".csv":        func(b *bytes.Buffer) error { return rep.WriteCSV(b) },
		".phases.csv": func(b *bytes.Buffer) error { return rep.WritePhasesCSV(b) },
		".md":         func(b *bytes.Buffer) error { return rep.WriteMarkdown(b) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		out[ext] = b.Bytes()
	}
	return out
}

// stamp adds the provenance (SPEC F.8) every host's JSON report ends in,
// as "docscore score receipts --refs sample/receipts/refs --run
// sample/receipts/RUN" writes it from the repository's root (the page's
// sample names its files so): the golden JSON files are those reports,
// byte for byte (with --allow-incomplete, recorded only for the run that
// is incomplete).
func stamp(t testing.TB, report []byte, run string, bootstrap int) []byte {
	t.Helper()
	names, err := fs.Glob(sample.Receipts, "receipts/refs/*.json")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	file := func(name string) api.File {
		b, err := fs.ReadFile(sample.Receipts, name)
		if err != nil {
			t.Fatal(err)
		}
		return api.File{Name: path.Join("sample", name), Text: string(b)}
	}
	req := &receiptsapi.ReceiptsRequest{Run: file("receipts/" + run), AllowIncomplete: true}
	for _, n := range names {
		req.Refs = append(req.Refs, file(n))
	}
	if bootstrap != stats.DefaultReplicates {
		req.Bootstrap = &bootstrap
	}
	// The operation's provenance, as it records it once scored.
	res, err := receiptsapi.ScoreReceiptsOperation().Run(api.NoCancel, req)
	if err != nil {
		t.Fatal(err)
	}
	p, err := provenance.Read(run, res.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	out, err := provenance.Append(report, p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGolden compares the JSON, CSV and Markdown of the sample runs with
// testdata/golden; go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	for _, tc := range []struct {
		run, golden string
		bootstrap   int
	}{
		{"run.jsonl", "receipts", stats.DefaultReplicates},
		{"run_incomplete.jsonl", "receipts_incomplete", stats.DefaultReplicates},
		// --bootstrap 0: the bytes of the reports from before intervals.
		{"run.jsonl", "receipts_bootstrap0", 0},
	} {
		opts := receipts.Options{AllowIncomplete: true, Bootstrap: tc.bootstrap}
		for ext, got := range encodings(t, sampleReportWith(t, tc.run, refs, opts)) {
			if ext == ".json" {
				got = stamp(t, got, tc.run, tc.bootstrap)
			}
			path := filepath.Join("testdata", "golden", tc.golden+ext)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file; run go test -run TestGolden -update and review the diff", path)
			}
		}
	}
}

// TestDeterministic: the same input twice, and the references in another
// order, give identical bytes in every format.
func TestDeterministic(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	first := encodings(t, sampleReport(t, "run_incomplete.jsonl", refs))
	shuffled := append(receiptsread.References(nil), refs...)
	rand.New(rand.NewPCG(5, 5)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for round, r := range []receiptsread.References{refs, shuffled} {
		again := encodings(t, sampleReport(t, "run_incomplete.jsonl", r))
		for ext := range first {
			if !bytes.Equal(first[ext], again[ext]) {
				t.Errorf("round %d: %s output differs between two runs on the same input", round, ext)
			}
		}
	}
}
