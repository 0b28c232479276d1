package pilotreport_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/pilotreport"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

func sampleRun(t testing.TB, name string) *runfile.Run {
	t.Helper()
	data, err := sample.Receipts.ReadFile("receipts/" + name)
	if err != nil {
		t.Fatal(err)
	}
	run, err := runfile.Read(bytes.NewReader(data), name, runfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func sampleRefs(t testing.TB) receiptsread.References {
	t.Helper()
	data, err := sample.Receipts.ReadFile("receipts/refs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	refs, err := receiptsread.ParseReferences("refs.jsonl", data, receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return refs
}

func labelledRun(t testing.TB) *runfile.Run {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "labelled.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := runfile.Read(bytes.NewReader(data), "labelled.jsonl", runfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestGolden compares the JSON and Markdown reports with testdata/golden;
// go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	cases := []struct {
		golden string
		run    *runfile.Run
		opts   pilotreport.Options
	}{
		{"sample", sampleRun(t, "run.jsonl"), pilotreport.Options{References: sampleRefs(t), ReferencesFrom: "refs.jsonl"}},
		{"incomplete", sampleRun(t, "run_incomplete.jsonl"), pilotreport.Options{References: sampleRefs(t), ReferencesFrom: "refs.jsonl"}},
		{"labelled", labelledRun(t), pilotreport.Options{}},
		{"no_refs", sampleRun(t, "run.jsonl"), pilotreport.Options{}},
	}
	for _, c := range cases {
		rep, err := pilotreport.Build(c.run, c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.golden, err)
		}
		for ext, write := range map[string]func(*bytes.Buffer) error{
			".json": func(b *bytes.Buffer) error { return rep.WriteJSON(b) },
			".md":   func(b *bytes.Buffer) error { return rep.WriteMarkdown(b) },
		} {
			var got bytes.Buffer
			if err := write(&got); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", c.golden+ext)
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s differs from the golden file; run go test -run TestGolden -update and review the diff", path)
			}
		}
	}
}

func TestReportFacts(t *testing.T) {
	// The interrupted sample run: incomplete, with its unattempted pair.
	rep, err := pilotreport.Build(sampleRun(t, "run_incomplete.jsonl"), pilotreport.Options{References: sampleRefs(t), ReferencesFrom: "refs.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Complete || !rep.Incomplete || len(rep.Unattempted) != 1 || rep.Unattempted[0] != (receiptsreport.Pair{Phase: "c4", SampleID: "cord-test-0007"}) ||
		len(rep.Duplicated) != 1 || rep.Duplicated[0].Count != 2 || rep.Recorded != 47 || rep.Planned != 48 {
		t.Errorf("completeness: complete %v, unattempted %v, duplicated %v, %d/%d", rep.Complete, rep.Unattempted, rep.Duplicated, rep.Recorded, rep.Planned)
	}
	if rep.Scores == nil || !rep.Scores.Incomplete || len(rep.Scores.Missing) != 1 {
		t.Errorf("scores of an incomplete run: %+v", rep.Scores)
	}
	var md bytes.Buffer
	rep.WriteMarkdown(&md)
	for _, want := range []string{"**INCOMPLETE:** 47 of 48 planned phase/sample pairs recorded, 1 unattempted, 1 recorded more than once", "Unattempted: c4/cord-test-0007"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}

	// Labels in the header are the references; phases carry the timing.
	rep, err = pilotreport.Build(labelledRun(t), pilotreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ReferencesFrom != "run header" || rep.Scores == nil || len(rep.Scores.Pages) != 4 || !rep.Complete {
		t.Fatalf("labelled run: from %q, scores %v", rep.ReferencesFrom, rep.Scores)
	}
	if p := rep.Phases[2]; p.Phase != "c4" || p.Statuses.Timeout != 1 || p.LatencyS.Max != 120 || *p.BusyS != 120 || p.Usage.Requests != 1 {
		t.Errorf("c4 stats %+v", p)
	}
	// Without labels and without --refs there are no scores, and the
	// report says why.
	rep, err = pilotreport.Build(sampleRun(t, "run.jsonl"), pilotreport.Options{})
	if err != nil || rep.Scores != nil || !strings.Contains(rep.ScoresNote, "give --refs") {
		t.Errorf("no references: %v, %+v", err, rep)
	}
}

func TestReportErrors(t *testing.T) {
	run := labelledRun(t)
	// A record made on another image than the header's is refused.
	run.Requests[2].ImageSHA256 = strings.Repeat("c", 64)
	if _, err := pilotreport.Build(run, pilotreport.Options{}); err == nil || !strings.Contains(err.Error(), "the run was made on another image") {
		t.Errorf("image mismatch: %v", err)
	}
	// A broken label is an input error naming the header line.
	run = labelledRun(t)
	run.Header.Samples[0].Label = []byte(`{"valid_line": 5}`)
	_, err := pilotreport.Build(run, pilotreport.Options{})
	if e, ok := inputerr.As(err); !ok || e.File != "labelled.jsonl" || e.Line != 1 || !strings.Contains(e.Msg, "sample cord-test-0000: label:") {
		t.Errorf("broken label: %v", err)
	}
	// Reading order needs CORD quads, which a plain reference lacks.
	_, err = pilotreport.Build(labelledRun(t), pilotreport.Options{Order: receiptsread.ReadingOrder})
	if err == nil || !strings.Contains(err.Error(), "sample plain: reading order needs CORD annotations") {
		t.Errorf("reading order: %v", err)
	}
}

// TestUnattemptedPairsAreCounted checks that a plan of 200 phases × 5,000
// samples with no record is counted, not listed: unattempted_count holds
// all million pairs, unattempted the first receipts.MaxListedPairs (it
// listed every one).
func TestUnattemptedPairsAreCounted(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type": "run", "run_id": "plan", "planned": {"phases": [`)
	for i := 0; i < 200; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"p` + strconv.Itoa(i) + `"`)
	}
	b.WriteString(`], "sample_ids": [`)
	for i := 0; i < 5000; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"s` + strconv.Itoa(i) + `"`)
	}
	b.WriteString("]}}\n")
	run, err := runfile.Read(strings.NewReader(b.String()), "run.jsonl", runfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := pilotreport.Build(run, pilotreport.Options{References: receiptsread.References{}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.UnattemptedCount != 1_000_000 || len(rep.Unattempted) != receipts.MaxListedPairs || rep.Complete {
		t.Fatalf("unattempted_count %d, %d listed, complete %v", rep.UnattemptedCount, len(rep.Unattempted), rep.Complete)
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "… and 999980 more") || md.Len() > 64<<10 {
		t.Fatalf("Markdown of %d bytes lacks the count of the rest: %.600s", md.Len(), md.String())
	}
}
