package npmpkg

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/sitebuild"
)

// TestWasmIsThePages: the package carries the page's files, docscore.wasm
// first, and no compare.wasm (the comparison is in docscore.wasm).
func TestWasmIsThePages(t *testing.T) {
	if len(Wasm) != len(sitebuild.Wasm) || len(Wasm) < 4 || Wasm[0].Name != "docscore.wasm" {
		t.Fatalf("Wasm %v: want the page's files, docscore.wasm first", Wasm)
	}
	for _, f := range Wasm {
		if f.Name == "compare.wasm" {
			t.Fatalf("Wasm %v lists compare.wasm", Wasm)
		}
	}
}

// TestTarballCarriesTheLicence packs the package's sources (without the
// WebAssembly, which takes minutes to build) with npm and checks that the
// tarball holds the repository's LICENSE and that package.json names it.
func TestTarballCarriesTheLicence(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatalf("npm is not installed (scripts/deps.sh): %v", err)
	}
	root := filepath.Join("..", "..", "..", "..")
	stage := t.TempDir()
	if err := stageSources(root, stage); err != nil {
		t.Fatal(err)
	}
	r, err := npmPack(context.Background(), stage, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Files["LICENSE"] != int64(len(want)) || r.Files["package.json"] == 0 || r.Files["dist/index.d.ts"] == 0 {
		t.Fatalf("the tarball holds %v: want LICENSE (%d bytes), package.json and dist/", r.Files, len(want))
	}
	var pkg struct {
		License string `json:"license"`
	}
	b, err := os.ReadFile(filepath.Join(stage, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.License != "MIT" {
		t.Fatalf("package.json license %q (%v), want MIT", pkg.License, err)
	}
}
