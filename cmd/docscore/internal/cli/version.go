package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version, Commit and Date describe the build. Release builds (GoReleaser,
// see .goreleaser.yaml) set all three with -ldflags -X; a binary built by
// "go install …@v1.2.3" takes the module version and the VCS stamps Go
// records (see versionInfo), and "dev" is left for the rest.
var (
	Version = "dev"
	Commit  = ""
	Date    = ""
)

// buildInfo is what "docscore version" prints.
type buildInfo struct {
	Version, Commit, Date, Go string
}

// versionInfo completes the -ldflags stamps from the build information Go
// embeds: the module version of "go install …@version", the commit and
// commit time of a build inside a git checkout.
func versionInfo(version, commit, date string, bi *debug.BuildInfo) buildInfo {
	info := buildInfo{Version: version, Commit: commit, Date: date, Go: "unknown"}
	if bi == nil {
		return info
	}
	info.Go = bi.GoVersion
	if info.Version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		info.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && info.Commit == "":
			info.Commit = s.Value
		case s.Key == "vcs.time" && info.Date == "":
			info.Date = s.Value
		}
	}
	return info
}

// String is the line "docscore version" prints, such as
// "docscore 1.2.0 (commit 3f9a61c, built 2026-05-01T10:00:00Z, go1.26.8)".
func (b buildInfo) String() string {
	commit := b.Commit
	if commit == "" {
		commit = "unknown"
	} else if len(commit) > 12 {
		commit = commit[:12]
	}
	date := b.Date
	if date == "" {
		date = "unknown"
	}
	return fmt.Sprintf("docscore %s (commit %s, built %s, %s)", b.Version, commit, date, b.Go)
}

// currentBuild is this binary's buildInfo.
func currentBuild() buildInfo {
	bi, _ := debug.ReadBuildInfo()
	return versionInfo(Version, Commit, Date, bi)
}

func init() {
	register("", func(env *Env) *cobra.Command {
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
