package buildinfo

import (
	"fmt"
	"runtime/debug"
	"testing"
)

// TestComplete checks the Info of each way a binary is built: a release
// build's -ldflags stamps, "go install …@version" (the module version),
// a plain build in a git checkout (Go's VCS stamps) and no build
// information at all.
func TestComplete(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "3f9a61c2d4e5f60718293a4b5c6d7e8f90a1b2c3"}, {Key: "vcs.time", Value: "2026-05-01T10:00:00Z"}}
	cases := []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  Info
		line                  string
	}{
		{"release build", "1.2.0", "abcdef0123456789", "2026-06-01T00:00:00Z",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			Info{"1.2.0", "abcdef0123456789", "2026-06-01T00:00:00Z", "go1.26.8"},
			"docscore 1.2.0 (commit abcdef012345, built 2026-06-01T00:00:00Z, go1.26.8)"},
		{"go install @version", "dev", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}},
			Info{"v1.2.0", "", "", "go1.26.8"},
			"docscore v1.2.0 (commit unknown, built unknown, go1.26.8)"},
		{"go build in a checkout", "dev", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			Info{"dev", "3f9a61c2d4e5f60718293a4b5c6d7e8f90a1b2c3", "2026-05-01T10:00:00Z", "go1.26.8"},
			"docscore dev (commit 3f9a61c2d4e5, built 2026-05-01T10:00:00Z, go1.26.8)"},
		{"a stamped version, Go's commit", "1.2.0", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.1.0"}, Settings: vcs},
			Info{"1.2.0", "3f9a61c2d4e5f60718293a4b5c6d7e8f90a1b2c3", "2026-05-01T10:00:00Z", "go1.26.8"},
			"docscore 1.2.0 (commit 3f9a61c2d4e5, built 2026-05-01T10:00:00Z, go1.26.8)"},
		{"no build information", "", "", "", nil,
			Info{"dev", "", "", "unknown"},
			"docscore dev (commit unknown, built unknown, unknown)"},
	}
	for _, c := range cases {
		got := Complete(c.version, c.commit, c.date, c.bi)
		if got != c.want || got.String() != c.line {
			t.Errorf("%s: %+v %q, want %+v %q", c.name, got, got.String(), c.want, c.line)
		}
	}
}

func ExampleInfo_String() {
	fmt.Println(Info{Version: "1.2.0", Commit: "3f9a61c2d4e5f60718293a4b5c6d7e8f90a1b2c3", Date: "2026-05-01T10:00:00Z", Go: "go1.26.8"})
	// Output: docscore 1.2.0 (commit 3f9a61c2d4e5, built 2026-05-01T10:00:00Z, go1.26.8)
}
