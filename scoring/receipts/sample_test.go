package receipts_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/runfile"
)

// loadSampleRefs parses every CORD file of the embedded sample.
func loadSampleRefs(t testing.TB, opts receiptsread.ParseOptions) receiptsread.References {
	t.Helper()
	entries, err := fs.ReadDir(sample.Receipts, "receipts/refs")
	if err != nil {
		t.Fatal(err)
	}
	var refs receiptsread.References
	for _, e := range entries {
		name := path.Join("receipts/refs", e.Name())
		data, err := fs.ReadFile(sample.Receipts, name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := receiptsread.ParseReferences(name, data, opts)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, r...)
	}
	return refs
}

// loadSampleRun reads one of the embedded run files.
func loadSampleRun(t testing.TB, file string) *runfile.Run {
	t.Helper()
	data, err := fs.ReadFile(sample.Receipts, "receipts/"+file)
	if err != nil {
		t.Fatal(err)
	}
	run, err := runfile.Read(bytes.NewReader(data), file, runfile.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// expectedKey maps a key of the expected reports onto ours: the
// independent implementation names a null finish reason "None".
func expectedKey(k string) string {
	if k == "None" {
		return "null"
	}
	return k
}

// compareNumbers checks that every value of want appears in got, numbers
// within 1e-9; got may hold extra keys.
func compareNumbers(t *testing.T, where string, want, got any) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			t.Errorf("%s: got %T, want an object", where, got)
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[expectedKey(k)]
			if !ok {
				t.Errorf("%s.%s: missing", where, k)
				continue
			}
			compareNumbers(t, where+"."+k, w[k], gv)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			t.Errorf("%s: got %v, want %d elements", where, got, len(w))
			return
		}
		for i := range w {
			compareNumbers(t, fmt.Sprintf("%s[%d]", where, i), w[i], g[i])
		}
	case float64:
		g, ok := got.(float64)
		if !ok || math.Abs(g-w) > 1e-9 {
			t.Errorf("%s: got %v, want %v", where, got, w)
		}
	default:
		if fmt.Sprint(want) != fmt.Sprint(got) {
			t.Errorf("%s: got %v, want %v", where, got, want)
		}
	}
}

func TestSampleAgreesWithExpected(t *testing.T) {
	refs := loadSampleRefs(t, receiptsread.ParseOptions{})
	for _, tc := range []struct {
		run, expected string
		allow         bool
	}{
		{"run.jsonl", "receipts.json", false},
		{"run_incomplete.jsonl", "receipts_incomplete_allowed.json", true},
	} {
		t.Run(tc.expected, func(t *testing.T) {
			rep, err := receipts.Score(refs, loadSampleRun(t, tc.run), receipts.Options{AllowIncomplete: tc.allow})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := rep.WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile("testdata/expected/" + tc.expected)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			compareNumbers(t, "report", want, got)
		})
	}
}

// The sample's CORD files and its JSONL hold the same reference texts.
func TestSampleCORDMatchesJSONL(t *testing.T) {
	cord := loadSampleRefs(t, receiptsread.ParseOptions{})
	data, err := fs.ReadFile(sample.Receipts, "receipts/refs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	jsonl, err := receiptsread.ParseReferences("refs.jsonl", data, receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cord) != 24 || len(jsonl) != 24 {
		t.Fatalf("got %d CORD and %d JSONL references, want 24 each", len(cord), len(jsonl))
	}
	for i := range cord {
		if cord[i].SampleID != jsonl[i].SampleID || cord[i].Text != jsonl[i].Text {
			t.Errorf("sample %d: CORD %q %q, JSONL %q %q", i, cord[i].SampleID, cord[i].Text, jsonl[i].SampleID, jsonl[i].Text)
		}
	}
	// Reading order reorders the scrambled words of receipt 0: JAWA is left of MIE.
	ro := loadSampleRefs(t, receiptsread.ParseOptions{Order: receiptsread.ReadingOrder})
	if !strings.HasPrefix(ro[0].Text, "CAFÉ LATTE 3 93000 279000 JAWA MIE GORENG") {
		t.Errorf("reading order of cord-test-0000 = %q", ro[0].Text)
	}
}
