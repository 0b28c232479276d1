package adversarial

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Generator writes a request body too big to commit, from its kind and
// sizes:
//
//   - "eval-chain": a POST /v1/eval body, one pipeline of N stages where
//     stage i depends on stage i-1 (each with an exact reference, every
//     third one failing);
//   - "receipts-plan": a POST /v1/score/receipts body whose run plans N
//     phases × M samples and holds no records, with one reference;
//   - "receipts-long-text": a receipts body (or, with Page, a
//     POST /v1/receipts/page body) whose one reference and one model
//     output are each a text of N tokens.
type Generator struct {
	Kind string `json:"kind"`
	N    int    `json:"n"`
	M    int    `json:"m,omitempty"`
	// Page asks for the drill-down request of receipts-long-text.
	Page bool `json:"page,omitempty"`
}

// Body writes the generator's request body.
func (g Generator) Body() ([]byte, error) {
	if g.N <= 0 || g.N > 10_000_000 || g.M < 0 || g.M > 10_000_000 {
		return nil, fmt.Errorf("generate %s: sizes n=%d m=%d out of range", g.Kind, g.N, g.M)
	}
	switch g.Kind {
	case "eval-chain":
		return EvalChain(g.N), nil
	case "receipts-plan":
		return ReceiptsPlan(g.N, g.M), nil
	case "receipts-long-text":
		return ReceiptsLongText(g.N, g.Page), nil
	}
	return nil, fmt.Errorf("generate: unknown kind %q (expected eval-chain, receipts-plan or receipts-long-text)", g.Kind)
}

// file is a request's file.
type file struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only strings, numbers and lists
	}
	return b
}

// EvalChainCases is the cases file of EvalChain: one JSONL line, one
// pipeline of n stages, stage i depending on stage i-1.
func EvalChainCases(n int) string {
	var b strings.Builder
	b.WriteString(`{"pipeline_id": "chain", "stages": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		got := i
		if i%3 == 2 {
			got = -1
		}
		fmt.Fprintf(&b, `{"case_id": "chain", "stage_id": "s%d", "prediction": {"v": %d}, "references": [{"authority": "ground_truth", "kind": "json", "value": {"v": %d}}]`, i, got, i)
		if i > 0 {
			fmt.Fprintf(&b, `, "depends_on": ["s%d"]`, i-1)
		}
		b.WriteString("}")
	}
	b.WriteString("]}\n")
	return b.String()
}

// EvalChain is a POST /v1/eval body of EvalChainCases(n).
func EvalChain(n int) []byte {
	return mustJSON(map[string]any{"cases": file{Name: "chain.jsonl", Text: EvalChainCases(n)}})
}

// refsFile is a references file (JSONL of {"sample_id", "reference"})
// giving sample s0 the reference text.
func refsFile(text string) file {
	return file{Name: "refs.jsonl", Text: string(mustJSON(map[string]any{"sample_id": "s0", "reference": text})) + "\n"}
}

// ReceiptsPlanRun is a run file whose header plans phases × samples and
// which holds no records.
func ReceiptsPlanRun(phases, samples int) string {
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
	return b.String()
}

// ReceiptsPlan is a POST /v1/score/receipts body of ReceiptsPlanRun.
func ReceiptsPlan(phases, samples int) []byte {
	return mustJSON(map[string]any{
		"refs": []file{refsFile("TOTAL 1")},
		"run":  file{Name: "run.jsonl", Text: ReceiptsPlanRun(phases, samples)},
	})
}

// LongText is a text of n one-letter tokens ("a b c … z a b …"): two
// bytes a token, the most tokens a body can hold.
func LongText(n int) string {
	b := make([]byte, 0, 2*n)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, byte('a'+i%26))
	}
	return string(b)
}

// ReceiptsLongText is a receipts body whose one reference and whose one
// model output are each LongText(n); with page, the drill-down request of
// that page.
func ReceiptsLongText(n int, page bool) []byte {
	text := LongText(n)
	run := string(mustJSON(map[string]any{"type": "run", "run_id": "long", "planned": map[string]any{"phases": []string{"c1"}, "sample_ids": []string{"s0"}}})) + "\n" +
		string(mustJSON(map[string]any{"type": "request", "phase": "c1", "sample_id": "s0", "status": "ok", "finish_reason": "stop", "output": text})) + "\n"
	req := map[string]any{
		"refs": []file{refsFile(text)},
		"run":  file{Name: "run.jsonl", Text: run},
	}
	if page {
		req["phase"], req["sample_id"] = "c1", "s0"
	}
	return mustJSON(req)
}
