// Command docscore scores what OCR, document-extraction and vision-language
// models read from documents. Run "docscore --help" for the subcommands.
package main

import (
	"os"

	"github.com/docscore/docscore/cmd/docscore/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.OSEnv()))
}
