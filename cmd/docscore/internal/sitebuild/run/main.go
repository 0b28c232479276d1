// Command run builds the static site into a folder: "make site" runs
//
//	go run ./cmd/docscore/internal/sitebuild/run -out dist/site
//
// With -embed DIR ("make site" gives cmd/docscore/internal/webui/built) it
// also writes each file there gzip-compressed (NAME.gz, webui's
// WriteCompressed) for the docscore binary to embed. It prints every
// file with its size.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/docscore/docscore/cmd/docscore/internal/sitebuild"
	"github.com/docscore/docscore/cmd/docscore/internal/webui"
)

func main() {
	out := flag.String("out", "dist/site", "the folder to write (a previous build there is replaced)")
	embed := flag.String("embed", "", "also write the site gzip-compressed into this folder, for the binary to embed")
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
	if *embed != "" {
		if err := webui.WriteCompressed(os.DirFS(*out), *embed); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("site: wrote them gzip-compressed to %s\n", *embed)
	}
}
