package receipts_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/runfile"
)

func ExampleClean() {
	raw := `<x_0.08><y_0.21>\begin{tabular}{|l|c|r|}
\hline
\textbf{Item} & \textbf{Qty} & \textbf{Price} \\
CAFÉ LATTE & 8 & 279000 \\
\multicolumn{3}{c}{TOTAL 584100} \\
\end{tabular}<x_0.79><y_0.23><class_Table>`
	fmt.Println(strings.Join(strings.Fields(receipts.Clean(raw)), " "))
	// Output: Item Qty Price CAFÉ LATTE 8 279000 TOTAL 584100
}

func ExampleTokenize() {
	for _, t := range receipts.Tokenize("Straße TAX 10% -5.000 x2 12:30") {
		kind := "word"
		if t.Numeric {
			kind = "number"
		}
		fmt.Printf("%s %q\n", kind, t.Text)
	}
	// Output:
	// word "strasse"
	// word "tax"
	// number "10"
	// number "-5.000"
	// word "x"
	// number "2"
	// number "12:30"
}

func ExampleRougeL() {
	pred := receipts.Words(receipts.Tokenize("WARUNG BU SRI CAFE LATTE 279000 TOTAL 584100"))
	ref := receipts.Words(receipts.Tokenize("CAFE LATTE 3 279000 TOTAL 584100"))
	r := receipts.RougeL(pred, ref)
	fmt.Printf("LCS %d, P %.3f, R %.3f, F1 %.3f\n", r.LCS, *r.Precision, *r.Recall, *r.F1)
	// Output: LCS 5, P 0.625, R 0.833, F1 0.714
}

func ExampleNumericRecall() {
	n := receipts.NumericRecall(receipts.Tokenize("TOTAL 79,300 CASH 100,000"), receipts.Tokenize("TOTAL 79,500 CASH 100,000"))
	fmt.Printf("%d of %d numbers, missing %q\n", n.Matched, n.Ref, n.Missing)
	// Output: 1 of 2 numbers, missing ["79,500"]
}

func ExampleScore() {
	refs, err := receiptsread.ParseReferences("refs.jsonl", []byte(
		`{"sample_id": "cord-test-0000", "reference": "CAFE LATTE 2 60,000 TOTAL 60,000"}
{"sample_id": "cord-test-0001", "reference": "ICE TEA 1 8,000 TOTAL 8,000"}
`), receiptsread.ParseOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	run, err := runfile.Read(strings.NewReader(
		`{"type": "run", "run_id": "demo", "planned": {"phases": ["c1"], "sample_ids": ["cord-test-0000", "cord-test-0001"]}}
{"type": "request", "phase": "c1", "sample_id": "cord-test-0000", "status": "ok", "finish_reason": "stop", "output": "<p>CAFE LATTE x2 60,000</p><p>TOTAL 60.000</p>"}
{"type": "request", "phase": "c1", "sample_id": "cord-test-0001", "status": "timeout", "finish_reason": null, "output": null, "error": "deadline of 120 s exceeded"}
{"type": "end", "status": "complete"}
`), "run.jsonl", runfile.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := receipts.Score(refs, run, receipts.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range rep.Pages {
		fmt.Printf("%s/%s %s: F1 %.3f, numbers %d/%d, missing %q\n", p.Phase, p.SampleID, p.Status, *p.F1, p.NumericMatched, p.NumericRef, p.MissingNumbers)
	}
	ph := rep.Phases[0]
	fmt.Printf("%s: mean F1 %.3f, numeric recall %.3f\n", ph.Phase, *ph.RougeLF1Mean, *ph.NumericRecall)
	// Output:
	// c1/cord-test-0000 ok: F1 0.769, numbers 2/3, missing ["60,000"]
	// c1/cord-test-0001 timeout: F1 0.000, numbers 0/3, missing ["1" "8,000" "8,000"]
	// c1: mean F1 0.385, numeric recall 0.333
}

func ExampleIncompleteError() {
	refs := receiptsread.References{{SampleID: "s1", Text: "TOTAL 10"}, {SampleID: "s2", Text: "CASH 5"}}
	run, _ := runfile.Read(strings.NewReader(
		`{"type": "run", "run_id": "demo", "planned": {"phases": ["c1", "c4"], "sample_ids": ["s1", "s2"]}}
{"type": "request", "phase": "c1", "sample_id": "s1", "status": "ok", "finish_reason": "stop", "output": "TOTAL 10"}
{"type": "request", "phase": "c1", "sample_id": "s1", "status": "ok", "finish_reason": "stop", "output": "TOTAL 10"}
{"type": "request", "phase": "c1", "sample_id": "s2", "status": "ok", "finish_reason": "stop", "output": "CASH 5"}
{"type": "request", "phase": "c4", "sample_id": "s2", "status": "ok", "finish_reason": "stop", "output": "CASH 5"}
`), "run.jsonl", runfile.ReadOptions{})
	_, err := receipts.Score(refs, run, receipts.Options{})
	fmt.Println(err)
	// Output:
	// run.jsonl: run "demo" is incomplete: 1 of 4 planned phase/sample pairs missing, 1 pair recorded more than once; refusing a complete-run summary
	//   missing:    c4/s1
	//   duplicated: c1/s1 recorded 2 times (lines 2, 3)
}

func ExampleReport_WriteMarkdown() {
	refs := receiptsread.References{{SampleID: "s1", Text: "TOTAL 10"}}
	run, _ := runfile.Read(strings.NewReader(
		`{"type": "run", "run_id": "demo", "planned": {"phases": ["c1"], "sample_ids": ["s1"]}}
{"type": "request", "phase": "c1", "sample_id": "s1", "status": "ok", "finish_reason": "stop", "output": "<b>TOTAL</b> 1O"}
{"type": "end", "status": "complete"}
`), "run.jsonl", runfile.ReadOptions{})
	rep, _ := receipts.Score(refs, run, receipts.Options{})
	rep.WriteMarkdown(os.Stdout)
	// Output:
	// # Receipt OCR scores: run demo
	//
	// references in annotation order · run end status: complete
	//
	// **Complete:** each of the planned phase/sample pairs (1) was recorded exactly once.
	//
	// ## Phases
	//
	// ROUGE-L F1 is the mean of the page F1s; numeric recall pools every reference number of the phase. Pages whose request did not end with status `ok` and finish reason `stop` are scored as empty predictions.
	//
	// | phase | pages | ROUGE-L F1 | numeric recall | numbers matched | text scored | empty outputs | truncated | statuses |
	// |---|---:|---:|---:|---:|---:|---:|---:|---|
	// | c1 (primary) | 1 | 0.4000 | 0.0000 | 0 / 1 | 1 | 0 | 0 | ok 1 |
	//
	// ## Lowest-scoring pages
	//
	// Pages by ROUGE-L F1, lowest first (at most 10, all phases together).
	//
	// | phase | sample | status | finish | flags | F1 | numeric | missing numbers |
	// |---|---|---|---|---|---:|---:|---|
	// | c1 | s1 | ok | stop |  | 0.4000 | 0 / 1 | `10` |
}

func ExampleLCS() {
	pred := strings.Fields("cafe latte 2 60,000 total 60,000")
	ref := strings.Fields("cafe latte 60,000 tax total 60,000")
	fmt.Println(receipts.LCS(pred, ref), receipts.LCSDP(pred, ref))
	// Output: 5 5
}

func ExampleParseCORD() {
	file := `{"ground_truth": "{\"gt_parse\": {\"total\": {\"total_price\": \"60,000\"}}, \"valid_line\": [{\"words\": [{\"text\": \"TOTAL\"}, {\"text\": \"60,000\"}]}]}"}`
	ref, err := receiptsread.ParseCORD("refs/cord-test-0004.json", []byte(file), receiptsread.ParseOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %q, gt_parse %s\n", ref.SampleID, ref.Text, ref.GTParse)

	_, err = receiptsread.ParseCORD("refs/bad.json", []byte(`{"valid_line": [{"words": [{"text": 5}]}]}`), receiptsread.ParseOptions{})
	fmt.Println(err)
	// Output:
	// cord-test-0004: "TOTAL 60,000", gt_parse {"total": {"total_price": "60,000"}}
	// refs/bad.json:1:37: valid_line[0].words[0].text: expected a string, got number
	//     1 | {"valid_line": [{"words": [{"text": 5}]}]}
	//       |                                     ^
}
