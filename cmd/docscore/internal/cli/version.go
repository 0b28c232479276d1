package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version is the docscore version; release builds set it with -ldflags.
var Version = "dev"

func init() {
	register("", func(env *Env) *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print the docscore version and the Go version it was built with",
			Args:  cobra.NoArgs,
			RunE: func(c *cobra.Command, args []string) error {
				goVersion := "unknown"
				if bi, ok := debug.ReadBuildInfo(); ok {
					goVersion = bi.GoVersion
				}
				fmt.Fprintf(env.Stdout, "docscore %s (%s)\n", Version, goVersion)
				return nil
			},
		}
	})
}
