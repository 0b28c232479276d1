package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/internal/buildinfo"
)

// Version, Commit and Date describe the build. Release builds (GoReleaser,
// see .goreleaser.yaml) set all three with -ldflags -X; a binary built by
// "go install …@v1.2.3" or inside a git checkout takes what Go records
// instead (buildinfo.Complete), and "dev" is left for the rest.
var (
	Version = "dev"
	Commit  = ""
	Date    = ""
)

// currentBuild is this binary's build: what "docscore version" and
// "docscore --version" print and GET /v1/version serves.
func currentBuild() buildinfo.Info {
	return buildinfo.Current(Version, Commit, Date)
}

func init() {
	register("", "version", func(env *Env) *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print the docscore version, commit and build date, and the Go version it was built with",
			Args:  cobra.NoArgs,
			RunE: func(c *cobra.Command, args []string) error {
				fmt.Fprintln(env.Stdout, currentBuild())
				return nil
			},
		}
	})
}

// VersionLine is what "docscore --version", "docscore -v" and "docscore
// version" print, and whether args is one of those three command lines:
// main answers them before it sets up signals or builds the command tree,
// so that a version check costs the process start and little more
// (make bench-start). Any other line, "--version --help" among them, goes
// through Main.
func VersionLine(args []string) (string, bool) {
	if len(args) != 1 || args[0] != "--version" && args[0] != "-v" && args[0] != "version" {
		return "", false
	}
	return currentBuild().String() + "\n", true
}
