package agreement_test

import (
	"fmt"

	"github.com/docscore/docscore/scoring/agreement"
)

// Three judges rate four stages; one abstains once (Missing).
func ExampleNominalAlpha() {
	a := agreement.NominalAlpha([][]string{
		{"pass", "pass", "pass"},
		{"fail", "fail", "pass"},
		{"pass", agreement.Missing, "pass"},
		{"fail", "fail", "fail"},
	})
	fmt.Printf("α = %.3f over %d units, %d values\n", *a.Alpha, a.Units, a.Values)
	one := agreement.NominalAlpha([][]string{{"pass"}, {"fail"}})
	fmt.Println("one judge:", one.Alpha == nil)
	// Output:
	// α = 0.667 over 4 units, 11 values
	// one judge: true
}

// A judge against the person who reviewed the same stages.
func ExampleCohenKappa() {
	k := agreement.CohenKappa([]agreement.Pair{
		{Judge: "pass", Human: "pass"},
		{Judge: "pass", Human: "fail"},
		{Judge: "fail", Human: "fail"},
		{Judge: "fail", Human: "fail"},
	})
	fmt.Printf("κ = %.2f (po %.2f, pe %.2f)\n", *k.Kappa, k.Observed, k.Expected)
	for _, c := range k.Confusion {
		fmt.Printf("judge %s, human %s: %d\n", c.Judge, c.Human, c.N)
	}
	// Output:
	// κ = 0.50 (po 0.75, pe 0.50)
	// judge fail, human fail: 2
	// judge pass, human fail: 1
	// judge pass, human pass: 1
}

// Each judge against the panel's decision.
func ExampleDissent() {
	d := agreement.Dissent([]string{"a", "b"},
		[][]string{{"pass", "fail"}, {"fail", "fail"}},
		[]string{"pass", "fail"})
	fmt.Println(d["a"].Count, d["a"].N, d["b"].Count, d["b"].N)
	// Output: 0 2 1 2
}

// One judge asked three times about each of two stages.
func ExampleChanges() {
	r := agreement.Changes([][]string{{"pass", "pass", "pass"}, {"pass", "fail", "pass"}})
	fmt.Printf("%d of %d changed (%.2f)\n", r.Count, r.N, *r.Rate)
	// Output: 1 of 2 changed (0.50)
}
