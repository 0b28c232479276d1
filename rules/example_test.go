package rules_test

import (
	"fmt"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/schema"
)

func ExampleParse() {
	src := `# Rules

## 1. Ignore rules

| field | token | position | side | status | witness |
|---|---|---|---|---|---|
| name | conte / co. | leading | model | settled | titles added before the name |
| name | da venezia | trailing | model | OPEN | |

## 2. Equivalences

| field | forms | canonical | status | witness |
|---|---|---|---|---|
| title | ab. / abb. / abate | abate | settled | |
`
	f, err := rules.Parse("EQUIVALENCES.md", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range f.Rows {
		fmt.Printf("line %d: %s %s %q\n", r.Line, r.Status, r.Kind, r.Forms)
	}
	for _, w := range f.Warnings {
		fmt.Println("warning:", w) // and the line
	}
	fmt.Println("check errors:", len(rules.Check(f, schema.Default(), nil)))
	// Output:
	// line 7: settled ignore ["conte" "co."]
	// line 8: OPEN ignore ["da venezia"]
	// line 14: settled equivalence ["ab." "abb." "abate"]
	// warning: EQUIVALENCES.md:14: settled row without a witness
	//    14 | | title | ab. / abb. / abate | abate | settled | |
	// check errors: 0
}
