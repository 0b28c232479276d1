package npmpkg

import (
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/sitebuild"
)

// TestWasmAddsCompareOnce: the package carries the page's files and
// compare.wasm once, whether or not the page's list has it.
func TestWasmAddsCompareOnce(t *testing.T) {
	count := func(files []sitebuild.WasmFile) (n int) {
		for _, f := range files {
			if f.Name == "compare.wasm" {
				n++
			}
		}
		return n
	}
	if got := count(Wasm); got != 1 || len(Wasm) < 4 || Wasm[0].Name != "docscore.wasm" {
		t.Fatalf("Wasm %v: want the page's files and compare.wasm once", Wasm)
	}
	page := []sitebuild.WasmFile{{Name: "docscore.wasm", Package: "./wasm/site"}, {Name: "compare.wasm", Package: "./wasm/site/compare"}}
	if got := withCompare(page); len(got) != 2 || count(got) != 1 {
		t.Fatalf("withCompare of a list with compare.wasm: %v", got)
	}
	if len(page) != 2 || len(withCompare(page[:1])) != 2 {
		t.Fatal("withCompare changed its argument or did not add compare.wasm")
	}
}
