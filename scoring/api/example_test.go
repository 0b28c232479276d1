package api_test

import (
	"encoding/json"
	"fmt"

	"github.com/docscore/docscore/scoring/api"
)

func ExampleTabularDetail() {
	gt := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
		"Anzola Benetti,,February 1 1769,,San Geremia,Rovigo,Y,N,0\n" +
		"Zuane Rizzo,,March 3 1769,,San Moisè,Vienna,N,N,1\n"
	runs := `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": [{"name": "Anzola Benetti", "place_of_stay": "S. Geremia"}, {"name": "Marco Polo"}]}`
	d, err := api.TabularDetail(api.TabularDetailRequest{
		TabularRequest: api.TabularRequest{GT: []api.File{{Name: "gt_page_27.csv", Text: gt}}, Runs: api.File{Name: "runs.jsonl", Text: runs}},
		Line:           1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	stay := d.Pairs[0].Fields[3]
	fmt.Printf("%s: %q read as %q, score %.3f\n", stay.Name, stay.GTCompared, stay.ModelCompared, *stay.Score)
	fmt.Println("misses:", d.Misses[0].Key, "extras:", d.Extras[0].Key)
	// Output:
	// place_of_stay: "san geremia" read as "s geremia", score 0.818
	// misses: Zuane Rizzo extras: Marco Polo
}

func ExampleDropTabular() {
	gt := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
		"Anzola Benetti,,February 1 1769,,San Geremia,Rovigo,Y,N,0\n" +
		"Zuane Rizzo,,March 3 1769,,San Moisè,Vienna,N,N,1\n"
	runs := `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": [{"name": "Anzola Benetti"}, {"name": "Marco Polo"}]}`
	out, err := api.DropTabular(api.TabularRequest{GT: []api.File{{Name: "gt_page_27.csv", Text: gt}}, Runs: api.File{Name: "runs.jsonl", Text: runs}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var drop struct {
		Rules   *api.RulesCheckResult `json:"rules"`
		Error   *api.ErrorDetail      `json:"error"`
		Summary struct {
			Images []map[string]any `json:"images"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out, &drop); err != nil {
		fmt.Println(err)
		return
	}
	im := drop.Summary.Images[0]
	_, hasPairs := im["pairs"]
	fmt.Printf("rules %v, error %v; matched %v of %v, f1 %v, pairs in the summary: %v\n",
		drop.Rules, drop.Error, im["matched"], im["n_gt"], im["f1"], hasPairs)
	// Output:
	// rules <nil>, error <nil>; matched 1 of 2, f1 0.5, pairs in the summary: false
}
