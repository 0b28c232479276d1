package pilotrun_test

import (
	"bytes"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/pilotrun"
)

// FuzzRead checks that no input panics the run reader and that every
// failure is an input error naming the file.
func FuzzRead(f *testing.F) {
	f.Add([]byte(header + "\n" + req("c1", "s1", "ok") + "\n{\"type\": \"end\", \"status\": \"complete\"}\n"))
	f.Add([]byte(header + "\n{\"type\": \"request\", \"phase\": \"c1\", \"sample_id\": 5}"))
	f.Add([]byte("\ufeff" + header + "\r\n\r\n" + req("warmup", "s2", "timeout")))
	f.Add([]byte("{\"type\": \"run\", \"run_id\": \"x\", \"planned\": {\"phases\": null, \"sample_ids\": [\"\"]}}"))
	f.Add([]byte("not json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, skip := range []bool{false, true} {
			run, err := pilotrun.Read(bytes.NewReader(data), "run.jsonl", pilotrun.ReadOptions{SkipBadLines: skip})
			if err != nil {
				e, ok := inputerr.As(err)
				if !ok || e.File != "run.jsonl" {
					t.Fatalf("error %v is not an input error naming the file", err)
				}
				continue
			}
			if run.HeaderLine == 0 || run.Header.RunID == "" {
				t.Fatalf("a run without a header: %+v", run)
			}
			for _, r := range run.Requests {
				if r.Phase == "" || r.SampleID == "" || !r.Status.Valid() || r.Line < 1 {
					t.Fatalf("an invalid request got through: %+v", r)
				}
			}
		}
	})
}
