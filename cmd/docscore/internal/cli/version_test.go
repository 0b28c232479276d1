package cli

import (
	"encoding/json"
	"github.com/docscore/docscore/scoring/provenance"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/docscore/docscore/httpapi"
)

// TestVersionCommand checks that "docscore version", "docscore --version"
// and "docscore -v" print one line: version, commit, build date and Go
// (buildinfo's tests cover each way a binary is built).
func TestVersionCommand(t *testing.T) {
	want := currentBuild().String() + "\n"
	if !regexp.MustCompile(`^docscore \S+ \(commit \S+, built \S+, go1\.\S+\)\n$`).MatchString(want) {
		t.Fatalf("the version line %q", want)
	}
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		code, stdout, stderr := run(t, args...)
		if code != 0 || stdout != want || stderr != "" {
			t.Errorf("docscore %v: exit %d, %q %q; want %q", args, code, stdout, stderr, want)
		}
	}
}

// TestVersionLineIsMains: the three version lines main answers before
// building the command tree print what Main prints for them, and every
// other line (more arguments, a flag beside, a prefix) is left to Main.
func TestVersionLineIsMains(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		_, want, _ := run(t, args...)
		if got, ok := VersionLine(args); !ok || got != want {
			t.Errorf("VersionLine(%q) = %q, %v; Main prints %q", args, got, ok, want)
		}
	}
	for _, args := range [][]string{{}, {"--version", "--help"}, {"version", "extra"}, {"--versio"}, {"-V"}, {"--", "version"}, {"score", "--version"}} {
		if got, ok := VersionLine(args); ok {
			t.Errorf("VersionLine(%q) = %q, true; want it left to Main", args, got)
		}
	}
}

// TestReleaseStampsTheseVariables checks that the -ldflags -X of
// .goreleaser.yaml name this package's Version, Commit and Date, and the
// version reports record (provenance.Version): -X of a missing symbol is
// silently ignored by the linker, and goreleaser check does not look.
func TestReleaseStampsTheseVariables(t *testing.T) {
	cfg, err := os.ReadFile(filepath.Join("..", "..", "..", "..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	pkg := reflect.TypeFor[Env]().PkgPath()
	stamps := regexp.MustCompile(`-X ([^\s=]+)\.(\w+)=\{\{ \.(\w+) \}\}`).FindAllStringSubmatch(string(cfg), -1)
	want := map[string]string{"Version": "Version", "Commit": "Commit", "Date": "CommitDate", "provenance.Version": "Version"}
	got := map[string]string{}
	for _, s := range stamps {
		switch s[1] {
		case pkg:
			got[s[2]] = s[3]
		case reflect.TypeFor[provenance.Provenance]().PkgPath():
			got["provenance."+s[2]] = s[3]
		default:
			t.Errorf("-X %s.%s: the package is neither %s nor provenance's", s[1], s[2], pkg)
		}
	}

	if !reflect.DeepEqual(got, want) {
		t.Errorf(".goreleaser.yaml stamps %v, want %v", got, want)
	}
}

// TestServeReportsTheBuild: GET /v1/version of "docscore serve" carries the
// version, commit and date "docscore version" prints.
func TestServeReportsTheBuild(t *testing.T) {
	srv := httptest.NewServer(newServeMux(serveOptions{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/version")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v httpapi.VersionInfo
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	b := currentBuild()
	if v.Docscore != b.Version || v.Commit != b.Commit || v.Date != b.Date {
		t.Fatalf("/v1/version %+v, want %+v", v, b)
	}
}
