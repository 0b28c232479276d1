package inputfile_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/inputfile"
)

// A Reader with a limit refuses a longer input once the limit is read,
// with an error that says so.
func ExampleReader_ReadAll() {
	rd := inputfile.Reader{Limit: 8}
	b, err := rd.ReadAll("<stdin>", strings.NewReader("short"))
	fmt.Printf("%q %v\n", b, err)
	_, err = rd.ReadAll("<stdin>", strings.NewReader("longer than eight bytes"))
	fmt.Println(err)
	fmt.Println(errors.Is(err, inputfile.ErrTooLarge))
	// Output:
	// "short" <nil>
	// read <stdin>: larger than the 8 bytes input limit
	// true
}
