package bridge_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/wasm/bridge"
)

func ExampleNew_harness() {
	harness := bridge.New(evalapi.Operations())
	cases := `{"case_id": "invoice-7", "input_data": {"items": [{"qty": 2, "price": 3}]}, "prediction": {"total": 6},
	  "metrics": [{"name": "total", "expression": "prediction.total == sum(input.items, .qty * .price)"}]}`
	req, _ := json.Marshal(map[string]any{"cases": map[string]string{"name": "cases.json", "text": cases}, "format": "md"})
	var env struct {
		Error  any    `json:"error"`
		Result string `json:"result"`
	}
	json.Unmarshal([]byte(bridge.AsEnvelope(harness.Call("evaluate", string(req)))), &env)
	fmt.Println("error:", env.Error)
	for _, line := range strings.Split(env.Result, "\n") {
		if strings.HasPrefix(line, "| (case)") {
			fmt.Println(line)
		}
	}
	// Output:
	// error: <nil>
	// | (case) | invoice-7 |  | ✅ pass | — | — | total 1 |
}
