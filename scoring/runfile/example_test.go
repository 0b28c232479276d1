package runfile_test

import (
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/runfile"
)

func ExampleRead() {
	file := `{"type": "run", "run_id": "pilot-1", "planned": {"phases": ["c1"], "sample_ids": ["cord-test-0000"]}}
{"type": "request", "phase": "warmup", "sample_id": "cord-test-0000", "status": "ok", "finish_reason": "stop", "output": "TOTAL 10", "latency_s": 3.2, "error": null}
{"type": "request", "phase": "c1", "sample_id": "cord-test-0000", "status": "timeout", "finish_reason": null, "output": null, "latency_s": 120, "error": "deadline of 120 s exceeded"}
{"type": "end", "status": "complete"}
`
	run, err := runfile.Read(strings.NewReader(file), "run.jsonl", runfile.ReadOptions{})
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
	_, err := runfile.Read(strings.NewReader(file), "run.jsonl", runfile.ReadOptions{})
	fmt.Println(err)
	// Output:
	// run.jsonl:2:1: request: "status" is "done": expected one of ok, timeout, http_error, transport_error, cancelled
	//     2 | {"type": "request", "phase": "c1", "sample_id": "a", "status": "done"}
	//       | ^
}

func ExampleStats() {
	file := `{"type": "run", "run_id": "pilot-1", "planned": {"phases": ["c4"], "sample_ids": ["a", "b", "c"]}}
{"type": "request", "phase": "c4", "sample_id": "a", "status": "ok", "finish_reason": "stop", "output": "x", "latency_s": 2, "started_at": "2026-01-01T00:00:00Z", "usage": {"prompt_tokens": 100, "completion_tokens": 40}}
{"type": "request", "phase": "c4", "sample_id": "b", "status": "ok", "finish_reason": "length", "output": "y", "latency_s": 3, "started_at": "2026-01-01T00:00:00Z", "usage": {"prompt_tokens": 100, "completion_tokens": 60}}
{"type": "request", "phase": "c4", "sample_id": "c", "status": "timeout", "finish_reason": null, "output": null, "latency_s": 4, "started_at": "2026-01-01T00:00:01Z"}
`
	run, _ := runfile.Read(strings.NewReader(file), "run.jsonl", runfile.ReadOptions{})
	for _, p := range runfile.Stats(run) {
		fmt.Printf("%s: %d requests, %d failed, %d truncated, p50 %.1f s, max %.1f s, busy %.1f s, %.2f req/s, %d completion tokens\n",
			p.Phase, p.Requests, p.Statuses.Failed(), p.Truncated, p.LatencyS.P50, p.LatencyS.Max, *p.BusyS, *p.RequestsPerS, p.Usage.CompletionTokens)
	}
	// Output:
	// c4: 3 requests, 1 failed, 1 truncated, p50 3.0 s, max 4.0 s, busy 5.0 s, 0.60 req/s, 100 completion tokens
}

func ExamplePercentile() {
	latencies := []float64{0.8, 1.0, 1.1, 1.4, 3.0} // sorted
	fmt.Printf("p50 %.2f, p90 %.2f, p99 %.3f\n",
		runfile.Percentile(latencies, 50), runfile.Percentile(latencies, 90), runfile.Percentile(latencies, 99))
	// Output: p50 1.10, p90 2.36, p99 2.936
}
