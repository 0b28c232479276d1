package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
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
		req.Refs = append(req.Refs, File{Name: n, Text: string(b)})
	}
	b, _ := fs.ReadFile(sample.Receipts, "receipts/"+run)
	req.Run = File{Name: run, Text: string(b)} // named as the receipts golden files name it
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
		want, err := os.ReadFile(filepath.Join("..", "receipts", "testdata", "golden", "receipts."+format))
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
	d := DescribeError(err)
	if d.Code != "input" || !strings.Contains(d.Message, "c4/cord-test-0007") || !strings.Contains(d.Message, "c1/cord-test-0005") {
		t.Fatalf("refusal %+v", d)
	}
	req.AllowIncomplete = true
	req.Format = "md"
	out, err := ScoreReceipts(req)
	if err != nil || !bytes.Contains(out, []byte("ncomplete")) {
		t.Fatalf("allowed: %v\n%s", err, out)
	}
}

func TestEvaluate(t *testing.T) {
	cases := `{"case_id": "total", "prediction": {"total": 12},
	  "references": [{"artifact_id": "gt", "authority": "ground_truth", "kind": "json", "path": "gt.json"}]}`
	req := EvalRequest{Cases: File{Name: "cases.json", Text: cases}, Files: []File{{Name: "gt.json", Base64: base64.StdEncoding.EncodeToString([]byte(`{"total": 12}`))}}}
	out, err := Evaluate(context.Background(), req)
	if err != nil || !bytes.Contains(out, []byte(`"verdict": "pass"`)) {
		t.Fatalf("%v\n%s", err, out)
	}
	req.Format = "md"
	if out, err := Evaluate(context.Background(), req); err != nil || !bytes.HasPrefix(out, []byte("#")) {
		t.Fatalf("markdown: %v\n%s", err, out)
	}
	req.Files[0].Base64 = "!!"
	if _, err := Evaluate(context.Background(), req); err == nil || DescribeError(err).File != "gt.json" {
		t.Fatalf("bad base64: %v", err)
	}
}
