package bridge_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/wasm/bridge"
)

var receipts = bridge.New(receiptsapi.Operations())

// sampleRequest is the bundled receipts sample as the page sends it, the
// run named as the golden reports name it.
func receiptsSampleRequest(t *testing.T, run string) receiptsapi.ReceiptsRequest {
	t.Helper()
	names, err := fs.Glob(sample.Receipts, "receipts/refs/*.json")
	if err != nil || len(names) != 24 {
		t.Fatalf("sample refs %v: %v", names, err)
	}
	sort.Strings(names)
	var req receiptsapi.ReceiptsRequest
	for _, n := range names {
		b, _ := fs.ReadFile(sample.Receipts, n)
		req.Refs = append(req.Refs, api.File{Name: "sample/" + n, Text: string(b)})
	}
	b, err := fs.ReadFile(sample.Receipts, "receipts/"+run)
	if err != nil {
		t.Fatal(err)
	}
	req.Run = api.File{Name: "sample/receipts/" + run, Text: string(b)}
	return req
}

func receiptsCall(t *testing.T, method string, req any) (*api.ErrorDetail, json.RawMessage) {
	t.Helper()
	return envelopeOf(t, receipts.Call(method, jsonOf(t, req)))
}

// TestScoreReceiptsIsTheCLIReport: the result string is exactly the golden
// report of the receipt scorer (what "docscore score receipts" writes), in
// every format, for the complete run and, allowed, the incomplete one.
func TestScoreReceiptsIsTheCLIReport(t *testing.T) {
	for _, c := range []struct {
		run, format, golden string
		allow               bool
	}{
		{"run.jsonl", "", "receipts.json", false},
		{"run.jsonl", "json", "receipts.json", false},
		{"run.jsonl", "csv", "receipts.csv", false},
		{"run.jsonl", "md", "receipts.md", false},
		{"run_incomplete.jsonl", "json", "receipts_incomplete.json", true},
		{"run_incomplete.jsonl", "md", "receipts_incomplete.md", true},
	} {
		req := receiptsSampleRequest(t, c.run)
		req.Format, req.AllowIncomplete = c.format, c.allow
		e, res := receiptsCall(t, "scoreReceipts", req)
		if e != nil {
			t.Fatalf("%s: %+v", c.golden, e)
		}
		var got string
		if err := json.Unmarshal(res, &got); err != nil {
			t.Fatalf("%s: result is not a string: %v", c.golden, err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "scoring", "receipts", "testdata", "golden", c.golden))
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s format %q: result differs from %s", c.run, c.format, c.golden)
		}
	}
}

func TestScoreReceiptsErrors(t *testing.T) {
	badRun := receiptsSampleRequest(t, "run.jsonl")
	lines := strings.SplitAfter(badRun.Run.Text, "\n")
	lines[3] = "{oops\n"
	badRun.Run.Text = strings.Join(lines, "")
	badRef := receiptsSampleRequest(t, "run.jsonl")
	badRef.Refs[2].Text = "{\n  \"gt_parse\": [\n"
	for _, c := range []struct {
		name, request       string
		code, file, message string
		line                int
	}{
		{"incomplete run", jsonOf(t, receiptsSampleRequest(t, "run_incomplete.jsonl")), "incomplete", "sample/receipts/run_incomplete.jsonl",
			"missing:    c4/cord-test-0007\n  duplicated: c1/cord-test-0005 recorded 2 times (lines 31, 32)", 0},
		{"bad run line", jsonOf(t, badRun), "input", "sample/receipts/run.jsonl", "", 4},
		{"bad reference", jsonOf(t, badRef), "input", "sample/receipts/refs/cord-test-0002.json", "", 0},
		{"no references", `{"run": {"name": "run.jsonl", "text": ""}}`, "input", "", "no references given", 0},
		{"unknown key", `{"refs": [], "allow_incomplet": true}`, "input", "", `unknown field "allow_incomplet"`, 0},
		{"bad format", jsonOf(t, receiptsapi.ReceiptsRequest{Refs: receiptsSampleRequest(t, "run.jsonl").Refs, Run: receiptsSampleRequest(t, "run.jsonl").Run, Format: "xml"}), "bad_request", "", `format "xml"`, 0},
		{"tabular method", `{}`, "input", "", `unknown method "scoreTabular"`, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			method := "scoreReceipts"
			if c.name == "tabular method" {
				method = "scoreTabular"
			}
			e, _ := envelopeOf(t, receipts.Call(method, c.request))
			if e == nil {
				t.Fatal("no error")
			}
			if file, line := e.Where(); e.Code != c.code || file != c.file || (c.line != 0 && line != c.line) || !strings.Contains(e.Message, c.message) {
				t.Fatalf("error %+v, want code %s file %q line %d message containing %q", e, c.code, c.file, c.line, c.message)
			}
		})
	}
}

func TestReceiptsVersion(t *testing.T) {
	_, res := envelopeOf(t, receipts.Call("version", ""))
	var v bridge.VersionResult
	if err := json.Unmarshal(res, &v); err != nil || strings.Join(v.Methods, ",") != "receiptPage,scoreReceipts,version" {
		t.Fatalf("version %s (%v)", res, err)
	}
}
