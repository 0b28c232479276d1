package runfile_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/runfile"
)

const header = `{"type": "run", "run_id": "r1", "planned": {"phases": ["c1"], "sample_ids": ["s1", "s2"]}}`

func req(phase, id, status string) string {
	return `{"type": "request", "phase": "` + phase + `", "sample_id": "` + id + `", "status": "` + status + `", "finish_reason": "stop", "output": "x", "latency_s": 1, "error": null}`
}

func TestReadSample(t *testing.T) {
	for _, name := range []string{"run.jsonl", "run_incomplete.jsonl"} {
		data, err := fs.ReadFile(sample.Receipts, "receipts/"+name)
		if err != nil {
			t.Fatal(err)
		}
		run, err := runfile.Read(bytes.NewReader(data), name, runfile.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if run.Header.RunID != "pilot-100" || len(run.Header.Planned.Phases) != 2 || len(run.Header.Planned.SampleIDs) != 24 {
			t.Errorf("%s: header = %+v", name, run.Header)
		}
		if len(run.Requests) != 72 || run.End == nil || run.EndLine != 74 {
			t.Errorf("%s: %d requests, end %+v at line %d; want 72 and an end at 74", name, len(run.Requests), run.End, run.EndLine)
		}
		first := run.Requests[0]
		if first.Line != 2 || first.Phase != runfile.WarmupPhase || first.Usage == nil || first.Usage.CompletionTokens != 349 {
			t.Errorf("%s: first request = %+v", name, first)
		}
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, data string
		line, col  int
		contains   string
	}{
		{"empty", "", 0, 0, "empty run file"},
		{"blank only", "\n\n", 0, 0, "empty run file"},
		{"request first", req("c1", "s1", "ok"), 1, 1, "expected the run header"},
		{"syntax", header + "\n" + `{"type": "request", "phase": "c1",, }`, 2, 35, "invalid JSON"},
		{"not an object", header + "\n[1]", 2, 1, "expected a JSON object (a run, request or end record), found an array"},
		{"a string", header + "\n  \"x\"", 2, 3, "expected a JSON object (a run, request or end record), found a string"},
		{"a number", header + "\n42", 2, 1, "found a number"},
		{"null", header + "\nnull", 2, 1, "found null"},
		{"not UTF-8", header + "\n" + `{"type": "request", "phase": "c1", "sample_id": "s` + "\xff" + `", "status": "ok"}`, 2, 51, "expected UTF-8 text"},
		{"no type", header + "\n{\"phase\": \"c1\"}", 2, 1, `"type" member`},
		{"unknown type", header + "\n{\"type\": \"progress\"}", 2, 1, `unknown record type "progress"`},
		{"bad status", header + "\n" + req("c1", "s1", "done"), 2, 1, `"status" is "done"`},
		{"no phase", header + "\n" + req("", "s1", "ok"), 2, 1, `"phase"`},
		{"no sample", header + "\n" + req("c1", "", "ok"), 2, 1, `"sample_id"`},
		{"latency type", header + "\n" + `{"type": "request", "phase": "c1", "sample_id": "s1", "status": "ok", "latency_s": "3"}`, 2, 84, `member "latency_s" is a string: expected a number`},
		{"output type", header + "\n" + `{"type": "request", "phase": "c1", "sample_id": "s1", "status": "ok", "output": 3}`, 2, 81, `member "output" is a number: expected a string`},
		{"header without plan", `{"type": "run", "run_id": "r"}`, 1, 1, `"planned"`},
		{"header without run_id", `{"type": "run", "planned": {"phases": [], "sample_ids": []}}`, 1, 1, `"run_id"`},
		{"empty phase in plan", `{"type": "run", "run_id": "r", "planned": {"phases": [""], "sample_ids": []}}`, 1, 1, "planned.phases[0]"},
		{"another run", header + "\n" + strings.Replace(header, "r1", "r2", 1), 2, 1, "a second run header"},
		{"end without status", header + "\n{\"type\": \"end\"}", 2, 1, `"status" string`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runfile.Read(strings.NewReader(tc.data), "run.jsonl", runfile.ReadOptions{})
			e, ok := inputerr.As(err)
			if !ok {
				t.Fatalf("err = %v, want an input error", err)
			}
			if e.File != "run.jsonl" || e.Line != tc.line || e.Column != tc.col || !strings.Contains(e.Msg, tc.contains) {
				t.Errorf("err = %q (line %d col %d), want line %d col %d containing %q", e, e.Line, e.Column, tc.line, tc.col, tc.contains)
			}
		})
	}
}

func TestReadTolerates(t *testing.T) {
	data := "\ufeff" + header + "\r\n\n" + req("warmup", "s1", "ok") + "\r\n" +
		`{"type": "end", "status": "interrupted"}` + "\n" + header + "\n" + req("c1", "s1", "timeout") + "\n" +
		`{"type": "end", "status": "complete", "extra": 1}`
	run, err := runfile.Read(strings.NewReader(data), "run.jsonl", runfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Requests) != 2 || run.Requests[1].Line != 6 || run.End.Status != "complete" || run.EndLine != 7 || run.HeaderLine != 1 {
		t.Errorf("run = %+v", run)
	}
}

func TestReadSkipBadLines(t *testing.T) {
	data := header + "\n" + req("c1", "s1", "ok") + "\n{broken\n" + req("c1", "s2", "nope") + "\n" + req("c1", "s2", "ok") + "\n"
	if _, err := runfile.Read(strings.NewReader(data), "run.jsonl", runfile.ReadOptions{}); err == nil {
		t.Fatal("a bad line without SkipBadLines: no error")
	}
	run, err := runfile.Read(strings.NewReader(data), "run.jsonl", runfile.ReadOptions{SkipBadLines: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Requests) != 2 || len(run.Skipped) != 2 || run.Skipped[0].Line != 3 || run.Skipped[1].Line != 4 {
		t.Errorf("requests %d, skipped %v", len(run.Requests), run.Skipped)
	}
	// A bad header is never skipped.
	if _, err := runfile.Read(strings.NewReader("{\n"+header), "run.jsonl", runfile.ReadOptions{SkipBadLines: true}); err == nil {
		t.Error("a bad first line under SkipBadLines: no error")
	}
}

// The runner writes the same types with encoding/json; they read back
// unchanged.
func TestWriteReadRoundTrip(t *testing.T) {
	temp := 0.0
	stop, out := runfile.FinishStop, "TOTAL 10"
	h := runfile.NewHeader("r9", runfile.Planned{Phases: []string{"c1", "c4"}, SampleIDs: []string{"a"}})
	h.Dataset = &runfile.Dataset{Name: "naver-clova-ix/cord-v2", Revision: "7f01", Split: "test"}
	h.Model = &runfile.Model{Name: "m", MaxTokens: 4096, Temperature: &temp}
	h.DeadlineS = 120
	reqs := []runfile.Request{
		{Type: runfile.TypeRequest, Phase: "c1", SampleID: "a", ImageSHA256: "ab", Status: runfile.StatusOK,
			FinishReason: &stop, Output: &out, LatencyS: 1.5, Usage: &runfile.Usage{PromptTokens: 3, CompletionTokens: 4}, StartedAt: "2026-01-01T00:00:00Z"},
		{Type: runfile.TypeRequest, Phase: "c4", SampleID: "a", Status: runfile.StatusTransportError},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, v := range []any{h, reqs[0], reqs[1], runfile.NewEnd(runfile.EndComplete)} {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(buf.String(), `"finish_reason":null,"output":null`) {
		t.Errorf("a failed request should write null finish_reason and output:\n%s", buf.String())
	}
	run, err := runfile.Read(&buf, "run.jsonl", runfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(run.Header, h) {
		t.Errorf("header = %+v, want %+v", run.Header, h)
	}
	for i := range reqs {
		if !reflect.DeepEqual(run.Requests[i].Request, reqs[i]) {
			t.Errorf("request %d = %+v, want %+v", i, run.Requests[i].Request, reqs[i])
		}
	}
	if run.End == nil || run.End.Status != runfile.EndComplete {
		t.Errorf("end = %+v", run.End)
	}
	if !run.Requests[0].Stopped() || run.Requests[1].Stopped() {
		t.Error("Stopped: want true for ok+stop only")
	}
}

func TestStatusValid(t *testing.T) {
	for _, s := range []runfile.Status{"ok", "timeout", "http_error", "transport_error", "cancelled"} {
		if !s.Valid() {
			t.Errorf("%q: not valid", s)
		}
	}
	for _, s := range []runfile.Status{"", "OK", "error", "failed"} {
		if s.Valid() {
			t.Errorf("%q: valid", s)
		}
	}
}

// TestReadCutLastLine: under AllowCutLastLine a last line with no newline
// that is not JSON is left out in Run.Cut; anything else is read as
// without the option.
func TestReadCutLastLine(t *testing.T) {
	ok := req("c1", "s1", "ok")
	tests := []struct {
		name, data string
		cutLine    int    // 0: no cut line
		requests   int    // read when there is no error
		err        string // the error, under AllowCutLastLine too
	}{
		{"cut request", header + "\n" + ok + "\n" + ok[:20], 3, 1, ""},
		{"cut end record", header + "\n" + ok + "\n{\"type\": \"end\", \"st", 3, 1, ""},
		{"whole last line without newline", header + "\n" + ok, 0, 1, ""},
		{"cut line with its newline", header + "\n" + ok[:20] + "\n", 0, 0, "run.jsonl:2:"},
		{"bad line in the middle", header + "\n" + ok[:20] + "\n" + ok + "\n", 0, 0, "run.jsonl:2:"},
		{"cut header", header[:30], 0, 0, "run.jsonl:1:"},
		{"valid JSON, bad record, no newline", header + "\n" + `{"type": "request"}`, 0, 0, "run.jsonl:2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run, err := runfile.Read(strings.NewReader(tt.data), "run.jsonl", runfile.ReadOptions{AllowCutLastLine: true})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Requests) != tt.requests {
				t.Errorf("%d requests, want %d", len(run.Requests), tt.requests)
			}
			if tt.cutLine == 0 {
				if run.Cut != nil {
					t.Errorf("cut %v, want none", run.Cut)
				}
				return
			}
			if run.Cut == nil || run.Cut.Line != tt.cutLine || !strings.Contains(run.Cut.Error(), "cut short") {
				t.Errorf("cut %v, want line %d", run.Cut, tt.cutLine)
			}
			// Without the option it is an error, as before.
			if _, err := runfile.Read(strings.NewReader(tt.data), "run.jsonl", runfile.ReadOptions{}); err == nil {
				t.Error("read without AllowCutLastLine")
			}
		})
	}
}
