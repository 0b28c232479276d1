// Command docscore scores what OCR, document-extraction and vision-language
// models read from documents. Run "docscore --help" for the subcommands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/docscore/docscore/cmd/docscore/internal/cli"
)

func main() {
	os.Exit(run())
}

// run executes the command line. The first Ctrl-C (SIGINT) or SIGTERM
// cancels the command's context, so that long work such as a pilot run can
// stop cleanly; the signals then get their default behaviour back, so a
// second Ctrl-C ends the process at once.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	env := cli.OSEnv()
	env.Context = ctx
	return cli.Main(os.Args[1:], env)
}
