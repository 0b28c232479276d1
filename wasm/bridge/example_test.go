package bridge_test

import (
	"encoding/json"
	"fmt"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/wasm/bridge"
)

func ExampleDispatcher_Call() {
	core := bridge.New(api.TabularOperations())
	gt := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
		"Anzola Benetti,,February 1 1769,,San Geremia,Rovigo,Y,N,0\n"
	runs := `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": [{"name": "Anzola Benetti"}]}`
	req, _ := json.Marshal(map[string]any{
		"gt":     []map[string]string{{"name": "gt_page_27.csv", "text": gt}},
		"runs":   map[string]string{"name": "runs.jsonl", "text": runs},
		"format": "csv",
	})
	var env struct {
		Error  any    `json:"error"`
		Result string `json:"result"`
	}
	json.Unmarshal([]byte(bridge.AsEnvelope(core.Call("scoreTabular", string(req)))), &env)
	fmt.Println("error:", env.Error)
	fmt.Print(env.Result[:60], "…\n")

	json.Unmarshal([]byte(bridge.AsEnvelope(core.Call("scoreTabular", `{"runs": {}}`))), &env)
	fmt.Println("error:", env.Error)
	// Output:
	// error: <nil>
	// table,model,phase,run,page,status,line,failure,images_ok,ima…
	// error: map[code:input column:<nil> file:<nil> line:<nil> message:no ground-truth CSV given (expected gt_page_NN.csv files) source_line:<nil>]
}

func ExampleDispatcher_Answer() {
	core := bridge.New(api.TabularOperations())
	gt := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
		"Anzola Benetti,,February 1 1769,,San Geremia,Rovigo,Y,N,0\n"
	runs := `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": [{"name": "Anzola Benetti"}]}`
	// The texts travel beside the request, named by part; the rule
	// check (null: no rule file), the error (null) and the summary come
	// back as bytes beside the envelope.
	req := `{"gt": [{"name": "gt_page_27.csv", "part": 1}], "runs": {"name": "runs.jsonl", "part": 2}}`
	a := core.Answer("dropTabular", req, gt, runs)
	fmt.Println(a.Envelope)
	fmt.Printf("%d bytes, raw %v: %.71s…\n", len(a.Raw), a.IsRaw, a.Raw)
	// Output:
	// {"error":null,"result":null,"raw":true}
	// 2822 bytes, raw true: {
	//   "rules": null,
	//   "error": null,
	//   "summary": {
	//   "kind": "tabular",…
}
