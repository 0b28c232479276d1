package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// TestLicence checks that docscore is MIT-licensed, copyright "The
// docscore authors", and that each way it ships says so and carries
// LICENSE: the release archives (.goreleaser.yaml's archive files), the
// npm package (package.json's license; npmpkg's tests check the tarball)
// and the Python wheel (pyproject.toml's license; scripts/python-wheel.sh
// copies LICENSE in and python/tests/test_licence.py checks the wheel).
func TestLicence(t *testing.T) {
	root := moduleRoot(t)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	licence := read("LICENSE")
	if !strings.HasPrefix(licence, "MIT License\n\nCopyright (c) ") || !strings.Contains(licence, " The docscore authors\n") ||
		!strings.Contains(licence, "THE SOFTWARE IS PROVIDED \"AS IS\"") {
		t.Errorf("LICENSE is not the MIT licence of The docscore authors:\n%s", licence)
	}

	// The archives' files: the items under "files:" in "archives:".
	release := read(".goreleaser.yaml")
	archives := release[strings.Index(release, "\narchives:"):]
	files := regexp.MustCompile(`(?m)^ +files:\n((?: +(?:- .*|#.*)\n)+)`).FindStringSubmatch(archives)
	if files == nil || !regexp.MustCompile(`(?m)^ +- LICENSE$`).MatchString(files[1]) {
		t.Errorf(".goreleaser.yaml's archives do not list LICENSE in their files: %q", files)
	}

	if !regexp.MustCompile(`(?m)^  "license": "MIT",$`).MatchString(read("npm/package.json")) {
		t.Error(`npm/package.json lacks "license": "MIT"`)
	}
	var py struct {
		Project struct{ License string }
	}
	if err := toml.Unmarshal([]byte(read("python/pyproject.toml")), &py); err != nil || py.Project.License != "MIT" {
		t.Errorf("python/pyproject.toml: [project] license %q (%v), want MIT", py.Project.License, err)
	}
	if !strings.Contains(read("scripts/python-wheel.sh"), `cp LICENSE "$work/"`) {
		t.Error("scripts/python-wheel.sh does not copy LICENSE into the wheel's sources")
	}
}
