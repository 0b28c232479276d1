package tabular_test

import (
	"testing"

	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
)

// gtHeader is the default schema's header line.
const gtHeader = "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n"

// TestScorePageIDs checks that run pages find GT pages as strings, then as
// integers: gt_page_07.csv is page "07", matched by "7" and 7 alike.
func TestScorePageIDs(t *testing.T) {
	pages, err := tabularread.ReadGT("gt_page_07.csv", []byte(gtHeader+"Karl Müller,,,,,,,,\nNicolò Valier,,,,,,,,\n"), schema.Default())
	if err != nil {
		t.Fatal(err)
	}
	const recs = `"records":[{"name":"Karl Müller"},{"name":"Nicolo Valier"},{"title":"a record without a name"}]`
	runsData := `{"model":"m","phase":"G","run":1,"page":"7",` + recs + "}\n" +
		`{"model":"m","phase":"G","run":2,"page":7,` + recs + "}\n" +
		`{"model":"m","phase":"G","run":3,"page":"07",` + recs + "}\n" +
		`{"model":"m","phase":"G","run":4,"page":"007",` + recs + "}\n"
	runs, err := tabularread.ReadRuns("runs.jsonl", []byte(runsData), schema.Default(), tabularread.RunsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := tabular.Score(tabular.Input{Pages: pages, Runs: runs})
	if err != nil {
		t.Fatalf("Score: %v", err)
	}
	if len(rep.Images) != 4 {
		t.Fatalf("%d images, want 4", len(rep.Images))
	}
	for _, im := range rep.Images {
		if im.Status != "ok" || im.Matched != 2 || im.NModel != 3 || im.NGT != 2 {
			t.Errorf("run %s page %s: status %s matched %d n_model %d n_gt %d; want ok 2 3 2", im.Run, im.Page, im.Status, im.Matched, im.NModel, im.NGT)
		}
	}

	runs, err = tabularread.ReadRuns("runs.jsonl", []byte(runsData+`{"model":"m","phase":"G","run":5,"page":"8","records":[]}`+"\n"), schema.Default(), tabularread.RunsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tabular.Score(tabular.Input{Pages: pages, Runs: runs})
	const want = "runs.jsonl:5: page 8 has no ground-truth file (expected gt_page_8.csv or a row with page 8; pages given: 07)"
	if err == nil || err.Error() != want {
		t.Errorf("Score error = %v, want %s", err, want)
	}
}

// TestScoreEmptyPage checks that a GT file with a header and no rows is a
// page with no travelers: every record a model returns is an extra.
func TestScoreEmptyPage(t *testing.T) {
	pages, err := tabularread.ReadGT("gt_page_31.csv", []byte(gtHeader), schema.Default())
	if err != nil {
		t.Fatal(err)
	}
	runs, err := tabularread.ReadRuns("runs.jsonl", []byte(`{"model":"m","run":1,"page":31,"records":[{"name":"A"}]}`+"\n"), schema.Default(), tabularread.RunsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := tabular.Score(tabular.Input{Pages: pages, Runs: runs})
	if err != nil {
		t.Fatalf("Score: %v", err)
	}
	im := rep.Images[0]
	if im.Matched != 0 || im.NModel != 1 || im.NGT != 0 || im.Precision != 0 || im.Recall != 0 || im.F1 != 0 {
		t.Errorf("empty page: matched %d n_model %d n_gt %d P %v R %v F1 %v; want 0 1 0 0 0 0", im.Matched, im.NModel, im.NGT, im.Precision, im.Recall, im.F1)
	}
}
