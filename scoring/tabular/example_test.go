package tabular_test

import (
	"fmt"

	"github.com/docscore/docscore/scoring/tabular"
)

func ExampleScoreRequest() {
	gt := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
		"Leon q.m. Iacob Tedesco,,February 9 1769,,San Zaccaria,Praga,N,N,2\n" +
		"Anzola Benetti,,February 1 1769,,San Geremia,Rovigo,Y,N,0\n"
	runs := `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": [` +
		`{"name": "Leon qm Iacob Tedesco", "arrival_date": "February 09 1769", "place_of_stay": "S. Zaccaria", "with_spouse": false, "children_count": 2},` +
		`{"name": "Marco Polo"}]}`
	rep, err := tabular.ScoreRequest(tabular.Request{
		GT:   []tabular.File{{Name: "gt_page_27.csv", Data: []byte(gt)}},
		Runs: tabular.File{Name: "runs.jsonl", Data: []byte(runs)},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := rep.Cells[0]
	fmt.Printf("matched %d of %d GT rows, %d model rows: F1 %.3f\n", c.Matched, c.NGT, c.NModel, c.F1)
	arrival, _ := c.Fields.Get("arrival_date")
	fmt.Printf("arrival_date accuracy %.2f on %d scorable pairs\n", *arrival.Accuracy, arrival.Scored)
	fmt.Println("misses:", rep.Images[0].UnmatchedGT, "extras:", rep.Images[0].UnmatchedModel)
	// Output:
	// matched 1 of 2 GT rows, 2 model rows: F1 0.500
	// arrival_date accuracy 1.00 on 1 scorable pairs
	// misses: [Anzola Benetti] extras: [Marco Polo]
}
