// Package buildinfo says which docscore a binary is: its version, the
// commit it was built from and that commit's date. Release builds stamp
// all three with -ldflags -X (see .goreleaser.yaml and "make worker");
// Complete fills what is missing from the build information Go embeds, so
// that "go install …@v1.2.3" and a "go build" in a git checkout report
// something true too. The command line prints it ("docscore version",
// "docscore --version") and the HTTP API serves it (GET /v1/version),
// natively and in the Worker.
package buildinfo

import (
	"fmt"
	"runtime/debug"
)

// Info describes one build. Commit and Date are "" when unknown.
type Info struct {
	Version string // "1.2.0", "v1.2.0" (go install) or "dev"
	Commit  string // the full commit hash
	Date    string // the commit's date, RFC 3339
	Go      string // the Go that compiled it ("go1.26.8"), "unknown" without build information
}

// Complete returns the Info of the stamps version, commit and date,
// completed from bi: the module version of "go install …@version" when
// version is "dev" (or ""), and the VCS revision and time Go records for a
// build inside a git checkout where commit or date are "". A nil bi leaves
// the stamps as they are.
func Complete(version, commit, date string, bi *debug.BuildInfo) Info {
	if version == "" {
		version = "dev"
	}
	info := Info{Version: version, Commit: commit, Date: date, Go: "unknown"}
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

// Current is Complete of the stamps with this binary's build information.
func Current(version, commit, date string) Info {
	bi, _ := debug.ReadBuildInfo()
	return Complete(version, commit, date, bi)
}

// String is the line the command line prints, such as
// "docscore 1.2.0 (commit 3f9a61c2d4e5, built 2026-05-01T10:00:00Z, go1.26.8)":
// the commit shortened to 12 characters, "unknown" for what is not known.
func (b Info) String() string {
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
