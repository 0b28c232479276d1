// Command docscore scores what OCR, document-extraction and vision-language
// models read from documents. Run "docscore --help" for the subcommands.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
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
	if os.Getenv("GOGC") == "" && !slices.Contains(os.Args[1:], "serve") {
		// A scoring run allocates far more than it keeps (a streamed
		// run's live heap is flat), and at Go's default the collector
		// ran every few megabytes: twice the heap saves 10 % of the CPU
		// of 100,000 streamed images for 31 MB more peak RSS (95 → 126
		// MB), and 9 % of the 450-image corpus's (docs/performance.md).
		// The HTTP server (any line naming serve) keeps the default, and
		// GOGC still decides.
		debug.SetGCPercent(200)
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
