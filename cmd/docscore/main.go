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

// run executes the command line. The first Ctrl-C (SIGINT), SIGTERM or
// SIGHUP (the terminal closed) cancels the command's context, so that
// long work such as a pilot run stops starting new work and finishes
// cleanly (a file being written is removed, not left half-written); the second cancels its
// abort context (what is still in flight is cancelled at once); the
// signals then get their default behaviour back, so a third ends the
// process.
func run() int {
	if line, ok := cli.VersionLine(os.Args[1:]); ok {
		os.Stdout.WriteString(line)
		return 0
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	abort, abortNow := context.WithCancel(context.Background())
	defer abortNow()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	go func() {
		<-sigs
		stop()
		<-sigs
		abortNow()
		signal.Stop(sigs)
	}()
	env := cli.OSEnv()
	env.Context, env.Abort = ctx, abort
	return cli.Main(os.Args[1:], env)
}
