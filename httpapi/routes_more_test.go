package httpapi

import (
	"bytes"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	core "github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
)

// sampleReceiptParts is the receipts sample as multipart parts, named as
// the receipts golden files name them.
func sampleReceiptParts(t *testing.T, run string) []part {
	t.Helper()
	names, _ := fs.Glob(sample.Receipts, "receipts/refs/*.json")
	sort.Strings(names)
	var parts []part
	for _, n := range names {
		b, _ := fs.ReadFile(sample.Receipts, n)
		parts = append(parts, part{"refs", n, string(b)})
	}
	b, _ := fs.ReadFile(sample.Receipts, "receipts/"+run)
	return append(parts, part{"run", run, string(b)})
}

func TestScoreReceiptsRoute(t *testing.T) {
	h := New(Options{})
	body, ct := multipartBody(t, sampleReceiptParts(t, "run.jsonl")...)
	rec := do(h, http.MethodPost, "/v1/score/receipts?format=md", ct, body)
	want, _ := os.ReadFile(filepath.Join("..", "scoring", "receipts", "testdata", "golden", "receipts.md"))
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), want) {
		t.Fatalf("status %d, body differs from the golden Markdown:\n%s", rec.Code, rec.Body.String())
	}
	body, ct = multipartBody(t, sampleReceiptParts(t, "run_incomplete.jsonl")...)
	rec = do(h, http.MethodPost, "/v1/score/receipts", ct, body)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "c4/cord-test-0007") {
		t.Fatalf("incomplete run: status %d, %s", rec.Code, rec.Body.String())
	}
	// The refusal names the API's switch, not the command line's flag.
	if msg := rec.Body.String(); !strings.Contains(msg, "(allow_incomplete: true scores what is there") || strings.Contains(msg, "--allow-incomplete") {
		t.Errorf("incomplete run: the message does not name the field allow_incomplete alone: %s", msg)
	}
	rec = do(h, http.MethodPost, "/v1/score/receipts?allow_incomplete=true", ct, body)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"incomplete": true`) {
		t.Fatalf("allow_incomplete: status %d, %.300s", rec.Code, rec.Body.String())
	}
	rec = do(h, http.MethodPost, "/v1/score/receipts", "application/json", mustJSON(t, receiptsapi.ReceiptsRequest{Run: core.File{Name: "r.jsonl", Text: "{}"}}))
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `missing field \"refs\"`) {
		t.Fatalf("missing refs: status %d, %s", rec.Code, rec.Body.String())
	}
}

func TestEvalRoute(t *testing.T) {
	h := New(Options{})
	cases := `{"case_id": "total", "prediction": {"total": 12},
	  "references": [{"artifact_id": "gt", "authority": "ground_truth", "kind": "json", "value": {"total": 13}}]}`
	rec := do(h, http.MethodPost, "/v1/eval", "application/json", mustJSON(t, evalapi.EvalRequest{Cases: core.File{Name: "cases.json", Text: cases}}))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"verdict": "fail"`) {
		t.Fatalf("status %d, %s", rec.Code, rec.Body.String())
	}
	rec = do(h, http.MethodPost, "/v1/eval", "application/json", mustJSON(t, evalapi.EvalRequest{Cases: core.File{Name: "cases.json", Text: "{\"case_id\": \"a\",\n\"prediction\": 1, \"bogus\": 2}"}}))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"file": "cases.json"`) || !strings.Contains(rec.Body.String(), `"line": 2`) {
		t.Fatalf("bad cases: status %d, %s", rec.Code, rec.Body.String())
	}
	rec = do(h, http.MethodPost, "/v1/eval?format=csv", "application/json", mustJSON(t, evalapi.EvalRequest{Cases: core.File{Name: "cases.json", Text: cases}}))
	if rec.Code != http.StatusBadRequest {
		t.Fatalf("csv: status %d", rec.Code)
	}
}
