package stats_test

import (
	"encoding/json"
	"fmt"

	"github.com/docscore/docscore/scoring/stats"
)

// page adds one image's sums to a tabular cell of one field, title.
func page(b *stats.Builder, id string, matched, nModel, nGT, edits, chars, titleSum, titleScored float64) {
	if err := b.Add(id, []float64{matched, nModel, nGT, edits, chars, titleSum, titleScored}); err != nil {
		panic(err)
	}
}

func ExampleInterval() {
	s := stats.TabularSchema([]string{"title"})
	b := stats.NewBuilder(stats.TabularID("gpt-x", "G"), s)
	page(b, "27", 20, 21, 20, 12, 330, 18.5, 20)
	page(b, "28", 15, 15, 18, 4, 250, 14, 15)
	page(b, "28", 16, 16, 18, 3, 250, 15, 16) // a second run of page 28
	page(b, "29", 9, 12, 10, 9, 160, 6, 9)
	b.Unit("30") // every image of page 30 failed: a unit contributing nothing

	o := stats.DefaultOptions()
	o.Replicates = 1000
	ci, err := stats.Interval(b.Build(), o)
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal(ci)
	fmt.Println(string(out))
	// Output:
	// {"level":0.95,"replicates":1000,"seed":0,"unit":"page","units":4,"few_units":true,"precision":[0.75,1],"recall":[0.8611111111111112,1],"f1":[0.8181818181818182,0.975609756097561],"name_cer":[0.014,0.05625],"fields":{"title":[0.6666666666666666,0.9354838709677419]},"kept":{"precision":1000,"recall":1000,"f1":1000,"name_cer":998,"fields":{"title":998}}}
}

func ExampleCompare() {
	s := stats.ReceiptsSchema(false)
	phase := func(id string, f1 ...float64) *stats.Cell {
		b := stats.NewBuilder(id, s)
		for i, v := range f1 {
			// ROUGE-L F1 (v, 1), numeric matched and reference counts.
			if err := b.Add(fmt.Sprintf("cord-%d", i), []float64{v, 1, 4 * v, 4}); err != nil {
				panic(err)
			}
		}
		return b.Build()
	}
	a := phase("base:"+stats.ReceiptsID("c1"), 0.5, 0.625, 0.75, 0.375, 0.875, 0.5, 0.625, 0.75)
	b := phase("new:"+stats.ReceiptsID("c1"), 0.75, 0.875, 0.75, 0.625, 1, 0.75, 0.625, 0.875)
	o := stats.DefaultOptions()
	o.Replicates, o.Permutations = 1000, 2000
	c, err := stats.Compare(a, b, o)
	if err != nil {
		panic(err)
	}
	c.A, c.B = stats.ReceiptsSide("c1", a.ID), stats.ReceiptsSide("c1", b.ID)
	r, err := stats.NewReport("receipts", o, []*stats.Comparison{c})
	if err != nil {
		panic(err)
	}
	f1, _ := c.Get("rouge_l_f1_mean")
	fmt.Printf("delta %.4f, interval [%.4f, %.4f], p %.4f, better %s\n", *f1.Delta, f1.CI[0], f1.CI[1], *f1.P, *f1.Better)
	fmt.Printf("rose %v, fell %v, same %d; regressed %v\n", c.Movement.Rose, c.Movement.Fell, c.Movement.Same, r.Regressed())
	// Output:
	// delta 0.1562, interval [0.0781, 0.2188], p 0.0290, better b
	// rose [cord-0 cord-1 cord-3 cord-5 cord-4 cord-7], fell [], same 2; regressed false
}

func ExampleHolmAdjust() {
	fmt.Println(stats.HolmAdjust([]float64{0.01, 0.04, 0.03, 0.005}))
	// Output: [0.03 0.06 0.06 0.02]
}

func ExampleStream() {
	g := stats.Stream(0, "ci:tabular/gpt-x/G")
	fmt.Println(g.Index(10), g.Index(10), g.Coin())
	fmt.Printf("%#x\n", stats.FNV1a64("foobar"))
	// Output:
	// 1 6 false
	// 0x85944171f73967e8
}
