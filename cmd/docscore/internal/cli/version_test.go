package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionStamps checks what "docscore version" prints for each way a
// binary is built: a release build's -ldflags stamps, "go install
// …@version" (the module version and Go's VCS stamps), and a plain build.
func TestVersionStamps(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "3f9a61c2d4e5f60718293a4b5c6d7e8f90a1b2c3"}, {Key: "vcs.time", Value: "2026-05-01T10:00:00Z"}}
	cases := []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  string
	}{
		{"release build", "1.2.0", "abcdef0123456789", "2026-06-01T00:00:00Z",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			"docscore 1.2.0 (commit abcdef012345, built 2026-06-01T00:00:00Z, go1.26.8)"},
		{"go install @version", "dev", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}},
			"docscore v1.2.0 (commit unknown, built unknown, go1.26.8)"},
		{"go build in a checkout", "dev", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			"docscore dev (commit 3f9a61c2d4e5, built 2026-05-01T10:00:00Z, go1.26.8)"},
		{"no build information", "dev", "", "", nil,
			"docscore dev (commit unknown, built unknown, unknown)"},
	}
	for _, c := range cases {
		if got := versionInfo(c.version, c.commit, c.date, c.bi).String(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	code, stdout, stderr := run(t, "version")
	if code != 0 || !regexp.MustCompile(`^docscore \S+ \(commit \S+, built \S+, go1\.\S+\)\n$`).MatchString(stdout) {
		t.Fatalf("docscore version: exit %d, %q %q", code, stdout, stderr)
	}
	if !strings.HasPrefix(stdout, "docscore "+currentBuild().Version+" ") {
		t.Errorf("docscore version: %q, want the version %q", stdout, currentBuild().Version)
	}
}

// TestReleaseStampsTheseVariables checks that the -ldflags -X of
// .goreleaser.yaml name this package's Version, Commit and Date: -X of a
// missing symbol is silently ignored by the linker, and goreleaser check
// does not look.
func TestReleaseStampsTheseVariables(t *testing.T) {
	cfg, err := os.ReadFile(filepath.Join("..", "..", "..", "..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	pkg := reflect.TypeFor[buildInfo]().PkgPath()
	stamps := regexp.MustCompile(`-X ([^\s=]+)\.(\w+)=\{\{ \.(\w+) \}\}`).FindAllStringSubmatch(string(cfg), -1)
	want := map[string]string{"Version": "Version", "Commit": "Commit", "Date": "CommitDate"}
	got := map[string]string{}
	for _, s := range stamps {
		if s[1] != pkg {
			t.Errorf("-X %s.%s: the package is %s", s[1], s[2], pkg)
		}
		got[s[2]] = s[3]
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf(".goreleaser.yaml stamps %v, want %v", got, want)
	}
}
