package tables

import (
	"encoding/json"
	"os"
	"testing"
)

// TestGriTSMatchesTableTransformer holds GriTS to testdata/grits_vectors.json,
// which testdata/oracle/grits_oracle.py wrote by running
// table-transformer's own grits.py (numpy and PyMuPDF from Debian) on
// PubTabNet's 20 sample pairs and testdata/grits_extra.json (spans, th,
// a ragged grid, an empty prediction, inline tags, a cell long enough for
// difflib's autojunk), bit for bit.
func TestGriTSMatchesTableTransformer(t *testing.T) {
	var vec map[string]map[string]float64
	b, err := os.ReadFile("testdata/grits_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vec); err != nil {
		t.Fatal(err)
	}
	pairs := loadSamples(t)
	var extra map[string]struct{ GT, Pred string }
	b, err = os.ReadFile("testdata/grits_extra.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &extra); err != nil {
		t.Fatal(err)
	}
	for k, e := range extra {
		pairs[k] = samplePair{gt: e.GT, pred: e.Pred}
	}
	if len(vec) != len(pairs) || len(pairs) != 25 {
		t.Fatalf("%d vectors for %d pairs, want 25", len(vec), len(pairs))
	}
	for k, p := range pairs {
		got, err := GriTS(mustTable(t, p.pred), mustTable(t, p.gt), GriTSOptions{})
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		w := vec[k]
		want := GriTSScores{
			Top: w["top"], TopPrecision: w["top_precision"], TopRecall: w["top_recall"], TopUpperBound: w["top_upper_bound"],
			Con: w["con"], ConPrecision: w["con_precision"], ConRecall: w["con_recall"], ConUpperBound: w["con_upper_bound"],
		}
		if got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", k, got, want)
		}
	}
}
