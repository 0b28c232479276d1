package runfile_test

import (
	"bytes"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/runfile"
)

// FuzzRead checks that no input panics the run reader and that every
// failure is an input error naming the file.
func FuzzRead(f *testing.F) {
	f.Add([]byte(header + "\n" + req("c1", "s1", "ok") + "\n{\"type\": \"end\", \"status\": \"complete\"}\n"))
	f.Add([]byte(header + "\n{\"type\": \"request\", \"phase\": \"c1\", \"sample_id\": 5}"))
	f.Add([]byte("\ufeff" + header + "\r\n\r\n" + req("warmup", "s2", "timeout")))
	f.Add([]byte("{\"type\": \"run\", \"run_id\": \"x\", \"planned\": {\"phases\": null, \"sample_ids\": [\"\"]}}"))
	f.Add([]byte("not json\n"))
	f.Add([]byte(header + "\n" + req("c1", "s1", "ok") + "\n{\"type\": \"requ"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opts := range []runfile.ReadOptions{{}, {SkipBadLines: true}, {AllowCutLastLine: true}, {SkipBadLines: true, AllowCutLastLine: true}} {
			run, err := runfile.Read(bytes.NewReader(data), "run.jsonl", opts)
			if err != nil {
				e, ok := inputerr.As(err)
				if !ok || e.File != "run.jsonl" {
					t.Fatalf("error %v is not an input error naming the file", err)
				}
				continue
			}
			if run.Cut != nil && (!opts.AllowCutLastLine || run.Cut.File != "run.jsonl" || run.Cut.Line < 2) {
				t.Fatalf("cut line %v under %+v", run.Cut, opts)
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
