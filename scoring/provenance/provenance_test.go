package provenance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

func sample() *Provenance {
	seed, reps, perms := uint64(7), 2000, 10000
	return &Provenance{Version: "dev", Spec: Spec, Operation: "compare",
		Inputs:      []Input{NewInput("base", "/tmp/x/a.json", []byte("{}\n")), NewInput("rules", "sample/tabular/EQUIVALENCES.md", []byte("# r\n"))},
		RulesSHA256: "abc", Seed: &seed, Replicates: &reps, Permutations: &perms,
		Options: []Option{{"within", json.RawMessage("true")}, {"effect", json.RawMessage("0.01")}}}
}

func TestAppendThenRead(t *testing.T) {
	report := []byte("{\n  \"kind\": \"comparison\"\n}\n")
	out, err := Append(report, sample())
	if err != nil {
		t.Fatal(err)
	}
	var any map[string]any
	if err := json.Unmarshal(out, &any); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "{\n  \"kind\": \"comparison\",\n  \"provenance\": {\n    \"version\": \"dev\",") || !strings.HasSuffix(string(out), "\n  }\n}\n") {
		t.Errorf("layout:\n%s", out)
	}
	p, err := Read("r.json", out)
	if err != nil {
		t.Fatal(err)
	}
	want := sample()
	if fmt.Sprint(p.Inputs) != fmt.Sprint(want.Inputs) || *p.Seed != 7 || *p.Permutations != 10000 || p.RulesSHA256 != "abc" ||
		len(p.Options) != 2 || p.Options[1].Name != "effect" || string(p.Options[1].Value) != "0.01" {
		t.Errorf("read back %+v", p)
	}
	// The sha256 of "{}\n".
	if p.Inputs[0].SHA256 != "ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356" || p.Inputs[0].Bytes != 3 {
		t.Errorf("input %+v", p.Inputs[0])
	}
}

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/x/a.json":             "a.json",
		`C:\data\runs.jsonl`:        "runs.jsonl",
		"a.json":                    "a.json",
		"sample/tabular/runs.jsonl": "sample/tabular/runs.jsonl",
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRefusals(t *testing.T) {
	if _, err := Append([]byte("[1, 2]\n"), sample()); err == nil {
		t.Error("Append to a JSON array: no error")
	}
	for _, bad := range []string{"", "{", `{"kind": "comparison"}`, `{"provenance": {"operation": ""}}`, `{"provenance": {"operation": "x", "options": [1]}}`} {
		if _, err := Read("r.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "r.json") {
			t.Errorf("Read(%q): %v, want an error naming the file", bad, err)
		}
	}
}

func FuzzRead(f *testing.F) {
	out, _ := Append([]byte("{\n  \"kind\": \"x\"\n}\n"), sample())
	for _, s := range []string{string(out), "{}", `{"provenance": null}`, `{"provenance": {"operation": "plan", "options": {"a": 1}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Read("f.json", data)
		if err == nil && p.Operation == "" {
			t.Fatal("no operation, no error")
		}
	})
}

func ExampleAppend() {
	report := []byte("{\n  \"kind\": \"plan\"\n}\n")
	out, _ := Append(report, &Provenance{Version: "dev", Spec: Spec, Operation: "plan",
		Inputs: []Input{NewInput("report", "runs/report.json", []byte("{}\n"))}})
	fmt.Print(string(out))
	// Output:
	// {
	//   "kind": "plan",
	//   "provenance": {
	//     "version": "dev",
	//     "spec": "2026-12 (F.7, F.8, G, H)",
	//     "operation": "plan",
	//     "inputs": [
	//       {
	//         "role": "report",
	//         "name": "report.json",
	//         "bytes": 3,
	//         "sha256": "ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356"
	//       }
	//     ],
	//     "rules_sha256": null,
	//     "options": {}
	//   }
	// }
}

// TestTailWriter: a report streamed in pieces of every size comes out as
// Append writes it, and a report that does not end in "\n}\n" is refused.
func TestTailWriter(t *testing.T) {
	report := []byte("{\n  \"kind\": \"comparison\",\n  \"n\": 12345\n}\n")
	want, err := Append(report, sample())
	if err != nil {
		t.Fatal(err)
	}
	for size := 1; size <= len(report); size++ {
		var out strings.Builder
		tw := NewTailWriter(&out)
		for i := 0; i < len(report); i += size {
			if _, err := tw.Write(report[i:min(i+size, len(report))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Finish(sample()); err != nil {
			t.Fatal(err)
		}
		if out.String() != string(want) {
			t.Fatalf("pieces of %d: got\n%s\nwant\n%s", size, out.String(), want)
		}
	}
	tw := NewTailWriter(io.Discard)
	tw.Write([]byte("[1]\n"))
	if err := tw.Finish(sample()); err == nil {
		t.Error("a report ending in ]: no error")
	}
}

// TestTailWriterReadFrom: a report whose middle comes through ReadFrom
// (a spool file copied within the kernel) comes out as Append writes
// it, to a destination with ReadFrom (bytes.Buffer) and without
// (strings.Builder), for cuts around the first bytes ReadFrom writes
// itself and around the close; when the close comes through ReadFrom,
// the report is right or refused, never cut short.
func TestTailWriterReadFrom(t *testing.T) {
	report := []byte("{\n  \"kind\": \"comparison\",\n  \"pad\": \"" + strings.Repeat("x", 1500) + "\",\n  \"n\": 12345\n}\n")
	want, err := Append(report, sample())
	if err != nil {
		t.Fatal(err)
	}
	var cuts []int
	for _, base := range []int{0, 510, len(report) - 520, len(report) - 6} {
		for d := range 8 {
			cuts = append(cuts, min(base+d, len(report)))
		}
	}
	for _, i := range cuts {
		for _, j := range cuts {
			if j < i {
				continue
			}
			for _, dest := range []interface {
				io.Writer
				String() string
			}{&bytes.Buffer{}, &strings.Builder{}} {
				tw := NewTailWriter(dest)
				tw.Write(report[:i])
				// A reader without WriteTo, as a spool's chunks are: io.Copy
				// hands it to tw.ReadFrom.
				if _, err := io.Copy(tw, struct{ io.Reader }{bytes.NewReader(report[i:j])}); err != nil {
					t.Fatal(err)
				}
				tw.Write(report[j:])
				err := tw.Finish(sample())
				if err != nil && j > len(report)-3 && j > i {
					continue // the close came through ReadFrom: refused
				}
				if err != nil {
					t.Fatalf("cut %d:%d to %T: %v", i, j, dest, err)
				}
				if dest.String() != string(want) {
					t.Fatalf("cut %d:%d to %T: got a report of %d bytes, want %d", i, j, dest, len(dest.String()), len(want))
				}
			}
		}
	}
}

// TestHash: the streamed description is NewInput's.
func TestHash(t *testing.T) {
	data := []byte("line 1\nline 2\n")
	h := NewHash("runs", "/tmp/runs.jsonl")
	if _, err := io.Copy(io.Discard, h.Reader(bytes.NewReader(data))); err != nil {
		t.Fatal(err)
	}
	if got, want := h.Input(), NewInput("runs", "runs.jsonl", data); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
