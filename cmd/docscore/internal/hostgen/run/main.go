// Command run writes the hosts generated from docscore's operation
// registry (package hostgen): npm's functions and types and Python's
// functions.
//
//	go run ./cmd/docscore/internal/hostgen/run
//
// (make generate, or go generate ./scoring/api/registry), run from the
// module root or given it with -root.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/docscore/docscore/cmd/docscore/internal/hostgen"
)

func main() {
	root := flag.String("root", ".", "the module's root, where the files are written")
	flag.Parse()
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
		if err := os.WriteFile(filepath.Join(*root, filepath.FromSlash(p)), files[p], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "hostgen:", err)
			os.Exit(1)
		}
		fmt.Println(p)
	}
}
