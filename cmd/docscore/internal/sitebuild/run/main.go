// Command run builds the static site into a folder: "make site" runs
//
//	go run ./cmd/docscore/internal/sitebuild/run -out dist/site
//
// With -embed DIR ("make site" gives cmd/docscore/internal/webui/built) it
// also writes each file there gzip-compressed (NAME.gz, webui's
// WriteCompressed) for the docscore binary to embed. It prints every
// file with its size. With -gcflags it only prints the -gcflags of
// the site's wasm builds, for "make wasm-map" to build with.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/sitebuild"
	"github.com/docscore/docscore/cmd/docscore/internal/webui"
)

func main() {
	out := flag.String("out", "dist/site", "the folder to write (a previous build there is replaced)")
	embed := flag.String("embed", "", "also write the site gzip-compressed into this folder, for the binary to embed")
	gcflags := flag.Bool("gcflags", false, "print the -gcflags of sitebuild.WasmBuildFlags and exit")
	flag.Parse()
	if *gcflags {
		var fl []string
		for _, f := range sitebuild.WasmBuildFlags {
			if strings.HasPrefix(f, "-gcflags=") {
				fl = append(fl, f)
			}
		}
		fmt.Println(strings.Join(fl, " "))
		return
	}
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
