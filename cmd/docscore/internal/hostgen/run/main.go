// Command run writes the hosts generated from docscore's operation
// registry (package hostgen): npm's functions and types and Python's
// functions.
//
//	go run ./cmd/docscore/internal/hostgen/run
//
// (make generate), run from the module root.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/docscore/docscore/cmd/docscore/internal/hostgen"
)

func main() {
	files, err := hostgen.Files()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostgen:", err)
		os.Exit(1)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := os.WriteFile(filepath.FromSlash(p), files[p], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "hostgen:", err)
			os.Exit(1)
		}
		fmt.Println(p)
	}
}
