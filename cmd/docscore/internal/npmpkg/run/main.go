// Command run builds the npm package @docscore/core and packs it:
//
//	go run ./cmd/docscore/internal/npmpkg/run -out dist/npm
//
// (make npm-package), run from the module root. It prints the tarball's
// path and the size of it and of each file in it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"

	"github.com/docscore/docscore/cmd/docscore/internal/npmpkg"
)

func main() {
	out := flag.String("out", "dist/npm", "the folder to write the tarball to")
	flag.Parse()
	r, err := npmpkg.Pack(context.Background(), npmpkg.Options{Root: ".", Out: *out, Log: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d bytes\n", r.Tarball, r.Size)
	paths := make([]string, 0, len(r.Files))
	for p := range r.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Printf("  %-22s %9d bytes\n", p, r.Files[p])
	}
}
