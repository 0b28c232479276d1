package bridge_test

import (
	"encoding/json"
	"fmt"

	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/wasm/bridge"
)

func ExampleNew_receipts() {
	receipts := bridge.New(receiptsapi.Operations())
	run := `{"type": "run", "run_id": "r1", "planned": {"phases": ["c1"], "sample_ids": ["s1", "s2"]}}
{"type": "request", "phase": "c1", "sample_id": "s1", "status": "ok", "finish_reason": "stop", "output": "TOTAL 12.000"}
`
	req, _ := json.Marshal(map[string]any{
		"refs": []map[string]string{{"name": "refs.jsonl", "text": `{"sample_id": "s1", "reference": "TOTAL 12.000"}` + "\n" +
			`{"sample_id": "s2", "reference": "CASH 5"}` + "\n"}},
		"run": map[string]string{"name": "run.jsonl", "text": run},
	})
	var env struct {
		Error *struct{ Code, Message, File string } `json:"error"`
	}
	json.Unmarshal([]byte(bridge.AsEnvelope(receipts.Call("scoreReceipts", string(req)))), &env)
	fmt.Println(env.Error.Code, env.Error.File)
	fmt.Println(env.Error.Message)
	// Output:
	// incomplete run.jsonl
	// run.jsonl: run "r1" is incomplete: 1 of 2 planned phase/sample pairs missing; refusing a complete-run summary
	//   missing:    c1/s2
}
