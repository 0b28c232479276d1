// Command run builds the static site into a folder: "make site" runs
//
//	go run ./cmd/docscore/internal/sitebuild/run -out dist/site
//
// and then copies the folder into cmd/docscore/internal/webui/built for
// the docscore binary to embed. It prints every file with its size.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/docscore/docscore/cmd/docscore/internal/sitebuild"
)

func main() {
	out := flag.String("out", "dist/site", "the folder to write (a previous build there is replaced)")
	flag.Parse()
	res, err := sitebuild.Build(context.Background(), sitebuild.Options{Out: *out, Log: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, a := range res.Assets {
		fmt.Printf("%-40s %9d bytes  %9d gzip (Go, level 9)\n", a.Path, a.Size, a.Gzip)
	}
	fmt.Printf("site: wrote %d files to %s\n", len(res.Assets), *out)
}
