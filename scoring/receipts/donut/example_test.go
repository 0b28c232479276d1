package donut_test

import (
	"fmt"

	"github.com/docscore/docscore/scoring/receipts/donut"
)

func ExampleAccuracy() {
	gt, _ := donut.Parse([]byte(`{"menu": [{"nm": "CAFE LATTE", "cnt": "2"}], "total": {"total_price": "60,000"}}`))
	pred, _ := donut.Parse([]byte(`{"menu": [{"nm": "CAFE LATTE", "cnt": "3"}], "total": {"total_price": "60,000"}}`))
	acc, _ := donut.Accuracy(pred, gt)
	fmt.Printf("TED accuracy %.4f\n", acc)
	// Output: TED accuracy 0.9583
}

func ExampleFieldCounts() {
	gt, _ := donut.Parse([]byte(`{"menu": [{"nm": "CAFE LATTE", "cnt": "2"}], "total": {"total_price": "60,000"}}`))
	pred, _ := donut.Parse([]byte(`{"menu": [{"nm": "CAFE LATTE", "cnt": "3"}], "total": {"total_price": "60,000"}}`))
	matched, nPred, nGT := donut.FieldCounts(pred, gt)
	f1, _ := donut.F1(matched, nPred, nGT)
	fmt.Printf("%d of %d fields, F1 %.4f\n", matched, nGT, f1)
	// Output: 2 of 3 fields, F1 0.6667
}

func ExampleFlatten() {
	v, _ := donut.Parse([]byte(`{"total": {"total_price": "60,000"}, "menu": [{"nm": "TEA", "cnt": 2}]}`))
	for _, f := range donut.Flatten(donut.Normalize(v)) {
		fmt.Printf("%s = %s\n", f.Key, f.Value)
	}
	// Output:
	// menu.nm = TEA
	// menu.cnt = 2
	// total.total_price = 60,000
}
