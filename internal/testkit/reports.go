package testkit

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
)

// CompactReport is the saved report at path cut short, on one line: six
// images or pages, without what compare does not read (pairs, missing
// numbers). It is a fuzz seed small enough for the fuzzer to mutate
// quickly (whole reports run at a few executions a second).
func CompactReport(f testing.TB, path string) string {
	f.Helper()
	rep := ReadJSONObject(f, path)
	for _, rows := range []string{"images", "pages"} {
		list, ok := rep[rows].([]any)
		if !ok {
			continue
		}
		list = list[:min(6, len(list))]
		for _, row := range list {
			delete(row.(map[string]any), "pairs")
			delete(row.(map[string]any), "missing_numbers")
		}
		rep[rows] = list
	}
	out, err := json.Marshal(rep)
	if err != nil {
		f.Fatal(err)
	}
	return string(out)
}

// PageSources are two one-page reference images (page-001.png and
// page-002.png, five bytes each, with their page in the metadata): the
// sources a judging or ground-truth test hands its providers.
func PageSources(t testing.TB) []evalcase.ReferenceArtifact {
	t.Helper()
	var out []evalcase.ReferenceArtifact
	for i, b := range [][]byte{{0x89, 'P', 'N', 'G', 1}, {0x89, 'P', 'N', 'G', 2}} {
		a, err := evalcase.ArtifactFromBytes(fmt.Sprintf("page-%03d.png", i+1), b, evalcase.ArtifactOptions{ArtifactID: fmt.Sprintf("page-%03d", i+1), Metadata: map[string]any{"page": i + 1}})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// StatementFields are the fields of the bank-statement cases the judging
// and ground-truth tests read.
var StatementFields = []string{"$.currency", "$.amount", "$.account_name", "$.date"}

// ReadJSONObject reads the JSON object of the file at path (a saved
// report, say) as a map, failing the test when it cannot.
func ReadJSONObject(t testing.TB, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}
