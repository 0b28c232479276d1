package casefold_test

import (
	"fmt"

	"github.com/docscore/docscore/scoring/internal/casefold"
)

func ExampleString() {
	fmt.Println(casefold.String("Straße CAFÉ ﬁne"))
	// Output: strasse café fine
}
