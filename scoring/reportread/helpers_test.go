package reportread

import (
	"encoding/json"
	"os"
	"testing"
)

// tabularReport is the tabular sample's golden JSON report.
const tabularReport = "../tabular/testdata/golden/sample.json"

// compact is a sample report cut short, on one line: a seed small enough
// for the fuzzer to mutate quickly (the whole reports run at a few
// executions a second).
func compact(f testing.TB, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	var rep map[string]any
	if err := json.Unmarshal(b, &rep); err != nil {
		f.Fatal(err)
	}
	// Six images or pages of two cells, without what compare does not
	// read (pairs, missing numbers).
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
