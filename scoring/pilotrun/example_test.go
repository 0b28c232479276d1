package pilotrun_test

import (
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/pilotrun"
)

func ExampleRead() {
	file := `{"type": "run", "run_id": "pilot-1", "planned": {"phases": ["c1"], "sample_ids": ["cord-test-0000"]}}
{"type": "request", "phase": "warmup", "sample_id": "cord-test-0000", "status": "ok", "finish_reason": "stop", "output": "TOTAL 10", "latency_s": 3.2, "error": null}
{"type": "request", "phase": "c1", "sample_id": "cord-test-0000", "status": "timeout", "finish_reason": null, "output": null, "latency_s": 120, "error": "deadline of 120 s exceeded"}
{"type": "end", "status": "complete"}
`
	run, err := pilotrun.Read(strings.NewReader(file), "run.jsonl", pilotrun.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range run.Requests {
		fmt.Printf("line %d: %s/%s %s, scored text: %v\n", r.Line, r.Phase, r.SampleID, r.Status, r.Stopped())
	}
	fmt.Println("end:", run.End.Status)
	// Output:
	// line 2: warmup/cord-test-0000 ok, scored text: true
	// line 3: c1/cord-test-0000 timeout, scored text: false
	// end: complete
}

func ExampleRead_error() {
	file := `{"type": "run", "run_id": "pilot-1", "planned": {"phases": ["c1"], "sample_ids": ["a"]}}
{"type": "request", "phase": "c1", "sample_id": "a", "status": "done"}
`
	_, err := pilotrun.Read(strings.NewReader(file), "run.jsonl", pilotrun.ReadOptions{})
	fmt.Println(err)
	// Output: run.jsonl:2: request: "status" is "done": expected one of ok, timeout, http_error, transport_error, cancelled
}
