package runfile

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestPercentile(t *testing.T) {
	// Expected values are NumPy's default (linear) percentiles.
	cases := []struct {
		sorted []float64
		p      float64
		want   float64
	}{
		{[]float64{1}, 50, 1},
		{[]float64{1}, 99, 1},
		{[]float64{1, 2}, 50, 1.5},
		{[]float64{1, 2}, 90, 1.9},
		{[]float64{1, 2}, 99, 1.99},
		{[]float64{1, 2, 3, 4}, 0, 1},
		{[]float64{1, 2, 3, 4}, 50, 2.5},
		{[]float64{1, 2, 3, 4}, 90, 3.7},
		{[]float64{1, 2, 3, 4}, 99, 3.97},
		{[]float64{1, 2, 3, 4}, 100, 4},
		{[]float64{0.1, 0.5, 1.5, 2, 3, 3.5, 7, 8, 9, 10}, 50, 3.25},
		{[]float64{0.1, 0.5, 1.5, 2, 3, 3.5, 7, 8, 9, 10}, 90, 9.1},
		{[]float64{0.1, 0.5, 1.5, 2, 3, 3.5, 7, 8, 9, 10}, 99, 9.91},
		{[]float64{1, 2}, 150, 2},
		{[]float64{1, 2}, -5, 1},
	}
	for _, c := range cases {
		if got := Percentile(c.sorted, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Percentile(%v, %v) = %v, want %v", c.sorted, c.p, got, c.want)
		}
	}
	if !math.IsNaN(Percentile(nil, 50)) {
		t.Error("the percentile of nothing is a number")
	}
}

func TestPhaseConcurrency(t *testing.T) {
	for phase, want := range map[string]int{"c1": 1, "c4": 4, "c64": 64, "warmup": 1, "c0": 0, "c04": 0, "cx": 0, "fast": 0, "c": 0} {
		got, ok := PhaseConcurrency(phase)
		if got != want || ok != (want > 0) {
			t.Errorf("PhaseConcurrency(%q) = %d, %v", phase, got, ok)
		}
	}
}

// statsRun is a run with a resumed c4 phase: four overlapping requests,
// a pause of about 100 s, one more request, and a cancelled one.
const statsRun = `{"type":"run","run_id":"r","planned":{"phases":["c1","c4"],"sample_ids":["a","b","c","d","e","f"]}}
{"type":"request","phase":"warmup","sample_id":"a","status":"ok","finish_reason":"stop","output":"x","latency_s":2,"started_at":"2026-01-01T00:00:00Z","usage":{"prompt_tokens":10,"completion_tokens":5}}
{"type":"request","phase":"c1","sample_id":"a","status":"ok","finish_reason":"stop","output":"x","latency_s":0.5,"started_at":"2026-01-01T00:00:10Z","usage":{"prompt_tokens":10,"completion_tokens":5}}
{"type":"request","phase":"c1","sample_id":"b","status":"ok","finish_reason":"length","output":"x","latency_s":1.5,"started_at":"2026-01-01T00:00:10.5Z","usage":{"prompt_tokens":10,"completion_tokens":100}}
{"type":"request","phase":"c1","sample_id":"c","status":"ok","finish_reason":"stop","output":"  ","latency_s":1,"started_at":"2026-01-01T00:00:12Z"}
{"type":"request","phase":"c1","sample_id":"d","status":"timeout","finish_reason":null,"output":null,"latency_s":3,"started_at":"2026-01-01T00:00:13Z","error":"deadline"}
{"type":"request","phase":"c4","sample_id":"a","status":"ok","finish_reason":"stop","output":"x","latency_s":1,"started_at":"2026-01-01T00:01:00Z"}
{"type":"request","phase":"c4","sample_id":"b","status":"http_error","finish_reason":null,"output":null,"latency_s":1,"started_at":"2026-01-01T00:01:00.1Z"}
{"type":"request","phase":"c4","sample_id":"c","status":"ok","finish_reason":"stop","output":"x","latency_s":1,"started_at":"2026-01-01T00:01:00.2Z"}
{"type":"request","phase":"c4","sample_id":"d","status":"transport_error","finish_reason":null,"output":null,"latency_s":1,"started_at":"2026-01-01T00:01:00.3Z"}
{"type":"request","phase":"c4","sample_id":"e","status":"cancelled","finish_reason":null,"output":null,"latency_s":0.05,"started_at":"2026-01-01T00:01:00.4Z"}
{"type":"end","status":"interrupted"}
{"type":"request","phase":"c4","sample_id":"e","status":"ok","finish_reason":"stop","output":"x","latency_s":0.7,"started_at":"2026-01-01T00:02:40Z"}
{"type":"request","phase":"odd","sample_id":"a","status":"ok","finish_reason":"stop","output":"x","latency_s":1}
`

func TestStats(t *testing.T) {
	run, err := Read(strings.NewReader(statsRun), "run.jsonl", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st := Stats(run)
	var names []string
	for _, p := range st {
		names = append(names, p.Phase)
	}
	if strings.Join(names, ",") != "warmup,c1,c4,odd" {
		t.Fatalf("phases %v", names)
	}
	f := func(p *float64) string {
		if p == nil {
			return "null"
		}
		return fmt.Sprintf("%.6g", *p)
	}
	lat := func(l *Latency) string {
		return fmt.Sprintf("{N:%d Mean:%.6g P50:%.6g P90:%.6g P99:%.6g Max:%.6g}", l.N, l.Mean, l.P50, l.P90, l.P99, l.Max)
	}
	c1, c4, odd := st[1], st[2], st[3]
	got := fmt.Sprintf("c1: n=%d conc=%d %+v finish=%v empty=%d trunc=%d lat=%+v busy=%s wall=%s rps=%s usage=%d/%d/%d tps=%s",
		c1.Requests, *c1.Concurrency, c1.Statuses, c1.FinishReasons, c1.EmptyOutputs, c1.Truncated, lat(c1.LatencyS),
		f(c1.BusyS), f(c1.WallS), f(c1.RequestsPerS), c1.Usage.Requests, c1.Usage.PromptTokens, c1.Usage.CompletionTokens, f(c1.Usage.CompletionTokensPerS))
	// c1: requests [10, 10.5] [10.5, 12] [12, 13] [13, 16]: busy 6 s.
	want := "c1: n=4 conc=1 {OK:3 Timeout:1 HTTPError:0 TransportError:0 Cancelled:0} finish=map[length:1 null:1 stop:2] empty=1 trunc=1 " +
		"lat={N:4 Mean:1.5 P50:1.25 P90:2.55 P99:2.955 Max:3} busy=6 wall=6 rps=0.666667 usage=2/20/105 tps=17.5"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// c4: [60, 61.3] then [160, 160.7]; the cancelled request is left out.
	got = fmt.Sprintf("c4: n=%d %+v lat=%+v busy=%s wall=%s rps=%s tps=%s failed=%d", c4.Requests, c4.Statuses, lat(c4.LatencyS),
		f(c4.BusyS), f(c4.WallS), f(c4.RequestsPerS), f(c4.Usage.CompletionTokensPerS), c4.Statuses.Failed())
	want = "c4: n=6 {OK:3 Timeout:0 HTTPError:1 TransportError:1 Cancelled:1} lat={N:5 Mean:0.94 P50:1 P90:1 P99:1 Max:1} busy=2 wall=100.7 rps=2.5 tps=null failed=3"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if odd.Concurrency != nil || odd.BusyS != nil || odd.RequestsPerS != nil || odd.LatencyS == nil || odd.LatencyS.N != 1 {
		t.Errorf("a phase without timing: %+v", odd)
	}
	// A planned phase without records is listed, empty.
	run.Header.Planned.Phases = append(run.Header.Planned.Phases, "c8")
	st = Stats(run)
	if last := st[3]; last.Phase != "c8" || last.Requests != 0 || last.LatencyS != nil || last.RequestsPerS != nil {
		t.Errorf("empty planned phase %+v", last)
	}
}
