package pilotreport_test

import (
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/pilotreport"
	"github.com/docscore/docscore/scoring/runfile"
)

func ExampleBuild() {
	// A run interrupted during c4; its header carries the samples' labels.
	file := `{"type": "run", "run_id": "pilot-7", "planned": {"phases": ["c1", "c4"], "sample_ids": ["r1"]}, "samples": [{"sample_id": "r1", "image_sha256": "ab", "image_bytes": 2, "reference": "TOTAL 174,600"}]}
{"type": "request", "phase": "warmup", "sample_id": "r1", "status": "ok", "finish_reason": "stop", "output": "TOTAL 174,600", "latency_s": 1.5, "started_at": "2026-01-01T00:00:00Z"}
{"type": "request", "phase": "c1", "sample_id": "r1", "status": "ok", "finish_reason": "stop", "output": "TOTAL 174,500", "latency_s": 1.2, "started_at": "2026-01-01T00:00:02Z"}
{"type": "end", "status": "interrupted", "reason": "interrupted by a signal (Ctrl-C or SIGTERM)"}
`
	run, err := runfile.Read(strings.NewReader(file), "run.jsonl", runfile.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := pilotreport.Build(run, pilotreport.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("complete: %v, unattempted: %v, references from the %s\n", rep.Complete, rep.Unattempted, rep.ReferencesFrom)
	for _, p := range rep.Phases {
		fmt.Printf("%s: %d requests\n", p.Phase, p.Requests)
	}
	c1 := rep.Scores.Phases[0]
	fmt.Printf("c1 ROUGE-L F1 %.2f, numeric recall %.2f\n", *c1.RougeLF1Mean, *c1.NumericRecall)
	// Output:
	// complete: false, unattempted: [{c4 r1}], references from the run header
	// warmup: 1 requests
	// c1: 1 requests
	// c4: 0 requests
	// c1 ROUGE-L F1 0.50, numeric recall 0.00
}
