package text_test

import (
	"fmt"

	"github.com/docscore/docscore/scoring/text"
)

func ExampleNormalizeName() {
	fmt.Println(text.NormalizeName("Leon q.m. Iacob Tedesco"))
	fmt.Println(text.NormalizeName("Leon  QUONDAM, Iacob Tedesco"))
	fmt.Println(text.NormalizeName("Pavel (?)"))
	// Output:
	// leon qm iacob tedesco
	// leon qm iacob tedesco
	// pavel ?
}

func ExampleWildcardAligner() {
	var w text.WildcardAligner
	gt := []rune("kin?gsech")
	for _, model := range []string{"kinzgsech", "kingsech"} {
		m := []rune(model)
		fmt.Printf("%s: resolved %s, %d edit(s)\n", model, string(w.Resolve(gt, m)), w.Distance(gt, m))
	}
	// Output:
	// kinzgsech: resolved kinzgsech, 0 edit(s)
	// kingsech: resolved kinngsech, 1 edit(s)
}
