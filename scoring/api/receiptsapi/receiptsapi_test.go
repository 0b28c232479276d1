package receiptsapi

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
)

func sampleReceipts(t *testing.T, run string) ReceiptsRequest {
	t.Helper()
	names, err := fs.Glob(sample.Receipts, "receipts/refs/*.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("sample refs: %v", err)
	}
	sort.Strings(names)
	var req ReceiptsRequest
	for _, n := range names {
		b, _ := fs.ReadFile(sample.Receipts, n)
		req.Refs = append(req.Refs, api.File{Name: "sample/" + n, Text: string(b)})
	}
	b, _ := fs.ReadFile(sample.Receipts, "receipts/"+run)
	req.Run = api.File{Name: "sample/receipts/" + run, Text: string(b)} // named as the receipts golden files name it
	return req
}

func TestScoreReceiptsMatchesGolden(t *testing.T) {
	for _, format := range []string{"json", "csv", "md"} {
		req := sampleReceipts(t, "run.jsonl")
		req.Format = format
		got, err := ScoreReceipts(req)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "receipts", "testdata", "golden", "receipts."+format))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("ScoreReceipts --format %s differs from the receipts golden report", format)
		}
	}
}

func TestScoreReceiptsIncomplete(t *testing.T) {
	req := sampleReceipts(t, "run_incomplete.jsonl")
	_, err := ScoreReceipts(req)
	d := api.DescribeError(err)
	if file, _ := d.Where(); d.Code != "incomplete" || file != "sample/receipts/run_incomplete.jsonl" || !strings.Contains(d.Message, "c4/cord-test-0007") || !strings.Contains(d.Message, "c1/cord-test-0005") {
		t.Fatalf("refusal %+v", d)
	}
	// The file is named once, as the command line names it.
	if !strings.HasPrefix(d.Message, `sample/receipts/run_incomplete.jsonl: run "pilot-100" is incomplete: `) {
		t.Fatalf("refusal message %q", d.Message)
	}
	var inc *receipts.IncompleteError
	if !errors.As(err, &inc) || len(inc.Missing) != 1 || inc.Missing[0] != (receiptsreport.Pair{Phase: "c4", SampleID: "cord-test-0007"}) || len(inc.Duplicated) != 1 {
		t.Fatalf("the scorer's refusal is not in the chain: %v", err)
	}
	req.AllowIncomplete = true
	req.Format = "md"
	out, err := ScoreReceipts(req)
	if err != nil || !bytes.Contains(out, []byte("ncomplete")) {
		t.Fatalf("allowed: %v\n%s", err, out)
	}
}

// TestReceiptPage answers a page's drill-down through the operation, as
// every host calls it: the scores are the report's page's, and a pair the
// run lacks is an input error naming the run.
func TestReceiptPage(t *testing.T) {
	full := sampleReceipts(t, "run.jsonl")
	res, rep, err := ScoreReceiptsReport(api.NoCancel, &full)
	if err != nil || res == nil {
		t.Fatal(err)
	}
	pg := rep.Pages[5]
	req := &ReceiptPageRequest{Refs: full.Refs, Run: full.Run, Phase: pg.Phase, SampleID: pg.SampleID}
	got, err := ReceiptPageOperation().Run(api.NoCancel, req)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := got.Value.(*receipts.PageDetail)
	if !ok || d.SampleID != pg.SampleID || d.Line != pg.Line || *d.F1 != *pg.F1 || d.LCS != pg.LCS || len(d.Reference) == 0 {
		t.Fatalf("page %s/%s: %+v", pg.Phase, pg.SampleID, got.Value)
	}
	req.Phase = "nope"
	if _, err := ReceiptPageOperation().Run(api.NoCancel, req); err == nil || !strings.Contains(err.Error(), "run.jsonl") {
		t.Fatalf("unknown phase: %v", err)
	}
}
