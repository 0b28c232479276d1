package receipts_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
)

// TestIncompleteErrorAllow: the refusal names no host's switch unless the
// host sets Allow, and then names exactly that one.
func TestIncompleteErrorAllow(t *testing.T) {
	tests := []struct {
		allow, want string
	}{
		{"", "refusing a complete-run summary\n"},
		{"--allow-incomplete", "refusing a complete-run summary (--allow-incomplete scores what is there and labels the report incomplete)\n"},
		{"allow_incomplete: true", "(allow_incomplete: true scores what is there"},
	}
	for _, tt := range tests {
		e := &receipts.IncompleteError{File: "run.jsonl", RunID: "r", Planned: 2, Missing: []receiptsreport.Pair{{Phase: "c1", SampleID: "a"}}, Allow: tt.allow}
		msg := e.Error()
		if !strings.Contains(msg, tt.want) {
			t.Errorf("Allow %q: %q does not hold %q", tt.allow, msg, tt.want)
		}
		if tt.allow == "" && strings.Contains(msg, "allow") {
			t.Errorf("Allow empty: %q names a switch", msg)
		}
	}
}

// planRun is a run whose header plans phases × samples and which records
// only p0/s0.
func planRun(phases, samples int) string {
	var b strings.Builder
	b.WriteString(`{"type": "run", "run_id": "plan", "planned": {"phases": [`)
	for i := 0; i < phases; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"p%d"`, i)
	}
	b.WriteString(`], "sample_ids": [`)
	for i := 0; i < samples; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"s%d"`, i)
	}
	b.WriteString("]}}\n")
	b.WriteString(`{"type": "request", "phase": "p0", "sample_id": "s0", "status": "ok", "finish_reason": "stop", "output": "TOTAL 12"}` + "\n")
	return b.String()
}

// TestMissingPairsAreCounted checks that a plan of 200 phases × 5,000
// samples with one record is counted, not listed: the report and the
// refusal give the count of missing pairs and list the first
// MaxListedPairs, in plan order. Both used to list all 999,999 (the
// report grew to 100 MB for a 23 MB run file, gigabytes over HTTP).
func TestMissingPairsAreCounted(t *testing.T) {
	refs, err := receiptsread.ParseReferences("refs.jsonl", []byte(`{"sample_id": "s0", "reference": "TOTAL 12"}`+"\n"), receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const phases, samples = 200, 5000
	text := planRun(phases, samples)
	want := phases*samples - 1
	check := func(t *testing.T, rep *receiptsreport.Report) {
		t.Helper()
		if rep.MissingCount != want || len(rep.Missing) != receipts.MaxListedPairs {
			t.Fatalf("missing_count %d, %d listed; want %d, %d", rep.MissingCount, len(rep.Missing), want, receipts.MaxListedPairs)
		}
		if first := rep.Missing[0]; first != (receiptsreport.Pair{Phase: "p0", SampleID: "s1"}) {
			t.Errorf("first missing pair %v, want p0/s1", first)
		}
	}
	checkRefusal := func(t *testing.T, err error) {
		t.Helper()
		var inc *receipts.IncompleteError
		if !errors.As(err, &inc) {
			t.Fatalf("error %v, want an IncompleteError", err)
		}
		msg := inc.Error()
		if !strings.Contains(msg, fmt.Sprintf("%d of %d planned phase/sample pairs missing", want, phases*samples)) ||
			!strings.Contains(msg, fmt.Sprintf("… and %d more", want-receipts.MaxListedPairs)) || len(msg) > 4096 {
			t.Fatalf("refusal of %d bytes: %.600s", len(msg), msg)
		}
	}
	t.Run("Score", func(t *testing.T) {
		run, err := runfile.Read(strings.NewReader(text), "run.jsonl", runfile.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := receipts.Score(refs, run, receipts.Options{AllowIncomplete: true})
		if err != nil {
			t.Fatal(err)
		}
		check(t, rep)
		_, err = receipts.Score(refs, run, receipts.Options{})
		checkRefusal(t, err)
	})
	t.Run("Stream", func(t *testing.T) {
		var out bytes.Buffer
		rep, _, err := receipts.Stream(nil, refs, "run.jsonl", strings.NewReader(text), &out, receipts.Options{AllowIncomplete: true}, receipts.StreamOptions{})
		if err != nil {
			t.Fatal(err)
		}
		check(t, rep)
		if out.Len() > 256<<10 { // 200 phases, each with its stats
			t.Errorf("a report of %d bytes for one page", out.Len())
		}
		_, _, err = receipts.Stream(nil, refs, "run.jsonl", strings.NewReader(text), io.Discard, receipts.Options{}, receipts.StreamOptions{})
		checkRefusal(t, err)
	})
}
