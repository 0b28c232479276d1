package sitebuild

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestMinify(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"a.css", "body {\n  color: red;\n}\n", "body{color:red}"},
		{"a.js", "export function add(a, b) {\n  return a + b; // sum\n}\n", "export function add(a,b){return a+b}"},
		{"a.js", "import './x.js';\nconst u = new URL('./y.wasm', import.meta.url);\n", `import"./x.js";const u=new URL("./y.wasm",import.meta.url)`},
		{"index.html", "<!doctype html>\n<html>\n  <body>\n    <p>hi</p>\n  </body>\n</html>\n", "<!doctype html><html><body><p>hi</p></body></html>"},
		{"wasm_exec.js", "// Go's loader\nx = 1;\n", "// Go's loader\nx = 1;\n"},
		{"data.wasm", "\x00asm", "\x00asm"},
	} {
		got, err := Minify(c.name, []byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if string(got) != c.want {
			t.Errorf("Minify(%s, %q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

func TestProcessHashesAndRewrites(t *testing.T) {
	files := map[string][]byte{
		"index.html":    []byte(`<script type="module" src="assets/main.js"></script>`),
		"main.js":       []byte(`import {f} from "./lib.js"; new Worker(new URL("./worker.js", import.meta.url));`),
		"lib.js":        []byte(`export const f = 1;`),
		"worker.js":     []byte(`import "./lib.js"; fetch(new URL("./docscore.wasm", import.meta.url)); new URL("./receipts.wasm", import.meta.url);`),
		"docscore.wasm": []byte("\x00asm\x01"),
		"receipts.wasm": []byte("\x00asm\x02"),
	}
	out, err := process(files)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].path != "index.html" {
		t.Fatalf("first file %s, want index.html", out[0].path)
	}
	byName := map[string]builtFile{}
	for _, f := range out {
		byName[f.source] = f
		if f.source != "index.html" {
			if want := "assets/" + HashedName(f.source, f.data); f.path != want {
				t.Errorf("%s written as %s, want %s (its hash)", f.source, f.path, want)
			}
		}
	}
	ref := func(from, to string) {
		t.Helper()
		name := strings.TrimPrefix(byName[to].path, "assets/")
		if !bytes.Contains(byName[from].data, []byte(name)) {
			t.Errorf("%s does not refer to %s as %s: %s", from, to, name, byName[from].data)
		}
	}
	ref("index.html", "main.js")
	ref("main.js", "lib.js")
	ref("main.js", "worker.js")
	ref("worker.js", "lib.js")
	ref("worker.js", "docscore.wasm")
	ref("worker.js", "receipts.wasm")
	if regexp.MustCompile(`"\./(lib|worker)\.js"`).Match(byName["main.js"].data) {
		t.Errorf("main.js keeps an unhashed reference: %s", byName["main.js"].data)
	}
	// A change in a leaf renames every file that leads to it.
	files["lib.js"] = []byte(`export const f = 2;`)
	again, err := process(files)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range again {
		changed := f.path != byName[f.source].path
		if want := f.source != "docscore.wasm" && f.source != "receipts.wasm" && f.source != "index.html"; changed != want {
			t.Errorf("%s: renamed %v after lib.js changed", f.source, changed)
		}
	}
}

func TestProcessRefusesCycles(t *testing.T) {
	_, err := process(map[string][]byte{
		"index.html": []byte(`<script src="assets/a.js"></script>`),
		"a.js":       []byte(`import "./b.js";`),
		"b.js":       []byte(`import "./a.js";`),
	})
	if err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("error %v, want a cycle", err)
	}
}

func TestCheckOut(t *testing.T) {
	dir := t.TempDir()
	if err := checkOut(filepath.Join(dir, "new")); err != nil {
		t.Errorf("absent folder: %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "prev", "assets"), 0o755)
	os.WriteFile(filepath.Join(dir, "prev", "index.html"), nil, 0o644)
	if err := checkOut(filepath.Join(dir, "prev")); err != nil {
		t.Errorf("previous build: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "prev", "notes.txt"), nil, 0o644)
	if err := checkOut(filepath.Join(dir, "prev")); err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("foreign folder: %v", err)
	}
	if _, err := Build(context.Background(), Options{}); err == nil {
		t.Error("Build without an output folder did not fail")
	}
}

func TestSampleJSONNamesFilesLikeTheCLI(t *testing.T) {
	b, err := sampleJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name":"sample/tabular/gt/gt_page_27.csv","role":"gt"`, `"name":"sample/tabular/runs.jsonl","role":"runs"`, `"name":"sample/tabular/EQUIVALENCES.md","role":"rules"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("sample.json lacks %s", want)
		}
	}
}

func TestReceiptsAndPipelineSamples(t *testing.T) {
	var rs struct{ Files []SampleFile }
	b, err := receiptsSampleJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rs); err != nil {
		t.Fatal(err)
	}
	roles := map[string]int{}
	for _, f := range rs.Files {
		roles[f.Role]++
		if f.Text == "" || f.Base64 != "" {
			t.Errorf("%s: want text content", f.Name)
		}
	}
	if len(rs.Files) != 26 || roles["receipt-ref"] != 24 || roles["receipt-run"] != 1 || roles["ignore"] != 1 ||
		rs.Files[0].Name != "sample/receipts/refs/cord-test-0000.json" || rs.Files[24].Name != "sample/receipts/run.jsonl" {
		t.Fatalf("receipts sample: %d files, roles %v, first %s", len(rs.Files), roles, rs.Files[0].Name)
	}

	root := os.DirFS(filepath.Join("..", "..", "..", ".."))
	var ps struct{ Files []SampleFile }
	if b, err = pipelineSampleJSON(root); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ps); err != nil {
		t.Fatal(err)
	}
	png, err := fs.ReadFile(root, PipelineExample+"/invoice.png")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]SampleFile{}
	for _, f := range ps.Files {
		got[f.Name] = f
	}
	cases, image := got[PipelineExample+"/cases.json"], got[PipelineExample+"/invoice.png"]
	if len(ps.Files) != 2 || cases.Role != "cases" || !strings.Contains(cases.Text, `"pipeline_id"`) ||
		image.Role != "case-file" || image.Text != "" || image.Base64 != base64.StdEncoding.EncodeToString(png) {
		t.Fatalf("pipeline example: %d files, cases role %q, image role %q (base64 %d bytes)", len(ps.Files), cases.Role, image.Role, len(image.Base64))
	}
	if _, err := pipelineSampleJSON(os.DirFS(t.TempDir())); err == nil {
		t.Error("no error without the example")
	}
}

func TestWasmBuildFlagsCarryTheVersion(t *testing.T) {
	if got := strings.Join(wasmBuildFlags(""), " "); got != strings.Join(WasmBuildFlags, " ") {
		t.Errorf("no version: flags %q, want WasmBuildFlags", got)
	}
	got := wasmBuildFlags("v1.2.3")
	want := "-ldflags=-s -w -X " + ProvenanceVersionVar + "=v1.2.3"
	found := false
	for _, f := range got {
		if f == want {
			found = true
		}
	}
	if !found {
		t.Errorf("flags %q lack %q", got, want)
	}
	if WasmBuildFlags[1] != "-ldflags=-s -w" {
		t.Errorf("WasmBuildFlags changed in place: %q", WasmBuildFlags[1])
	}
}
