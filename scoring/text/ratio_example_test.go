package text_test

import (
	"fmt"

	"github.com/docscore/docscore/scoring/text"
)

func ExampleRatio() {
	// The ground-truth name first, the model reading second.
	fmt.Println(text.Ratio("Leon qm Iacob Tedesco", "Leon q. Iacob Todesco"))
	fmt.Println(text.Ratio("Francesco Kin?gsech", "Francesco Kiningsech"))
	fmt.Println(text.Ratio("", ""))
	// Output:
	// 0.9047619047619048
	// 0.9230769230769231
	// 1
}

func ExampleMatcher() {
	gt := []rune("Niccolò Lelingen")
	readings := []string{"Nicolo Lelingen", "Niccolò Lelinger", "Marco Lelingen"}
	var m text.Matcher // reused: no allocations once its buffers have grown
	for _, r := range readings {
		b := []rune(r)
		fmt.Printf("%-17s quick %.4f ratio %.4f M %d\n", r, m.QuickRatio(gt, b), m.Ratio(gt, b), m.MatchingCharacters(gt, b))
	}
	// Output:
	// Nicolo Lelingen   quick 0.9032 ratio 0.9032 M 14
	// Niccolò Lelinger  quick 0.9375 ratio 0.9375 M 15
	// Marco Lelingen    quick 0.7333 ratio 0.7333 M 11
}
