// Package sitebuild builds the static site into a folder any static host
// can serve: it compiles the four WebAssembly files (Wasm: the tabular
// core, the receipt scorer, the harness and the comparison, each but the
// core loaded by the page only when it is needed), copies Go's
// wasm_exec.js, bundles the samples, minifies the HTML, CSS, JavaScript and SVG of package site with
// tdewolff/minify, and gives every asset a content-hashed name
// (main.3f9a61c2.js) so that hosts may cache them forever. index.html
// keeps its name and is the only file to revalidate.
//
// The output is:
//
//	index.html
//	assets/<name>.<hash>.<ext>   every other file
//
// Every reference is relative, so the folder works under any path prefix.
package sitebuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
	"github.com/tdewolff/minify/v2/svg"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/site"
)

// WasmPackage is the package compiled to docscore.wasm, the tabular core.
const WasmPackage = "./wasm/site"

// WasmFile is one WebAssembly file of the site and the main package it is
// compiled from.
type WasmFile struct {
	Name    string // docscore.wasm
	Package string // ./wasm/site
}

// Wasm lists the site's WebAssembly files, one per family of scorers: the
// tabular core with the comparison of reports (SPEC F), which the page
// loads at once (and whose size the tests hold to 1.5 MB
// gzip-compressed), then the receipt scorer, the tables, the page text
// and the harness, which the page's workers load only when their files
// are dropped.
var Wasm = []WasmFile{
	{"docscore.wasm", WasmPackage},
	{"receipts.wasm", "./wasm/site/receipts"},
	{"tables.wasm", "./wasm/site/tables"},
	{"text.wasm", "./wasm/site/text"},
	{"harness.wasm", "./wasm/site/harness"},
}

// PipelineExample is the harness example the page's "Load pipeline
// example" loads, relative to the module root: its cases file and the
// files it names.
const PipelineExample = "examples/harness/pipeline"

// WasmBuildFlags are the go build flags of every site wasm: no file paths,
// no symbol table or DWARF. Code off the scoring hot path — the regexp
// and html packages (no longer in the core since the rule file's Markdown
// reader is the package's own; the harness and receipt scorer link them),
// CSV decoding, encoding/json and reflect (the report
// avoids them; the request, its texts sent beside it as parts, is small),
// the bridge, fmt, the input layer (ingest, schema, inputerr) and the
// report's JSON writer — is compiled without inlining, which keeps the
// gzip size under 1.5 MB; the scorer's inner loops (scoring/text,
// scoring/tabular, the JSON scanner) keep it. The writer (jsonout) went
// without inlining when the cells' confidence intervals (scoring/stats)
// were linked: its small methods, inlined at every key of the report's
// encoder, were 9.6 KB of gzip; the three input packages 3.6 KB more.
// Five standard packages the scorer never calls in a loop go without it
// too: syscall/js and syscall (the page's glue), internal/fmtsort (fmt's
// map printing), internal/filepathlite (os) and internal/reflectlite
// (errors.As and sort.Slice's swapper: a swap of a struct element, as of
// the pairing's candidates, makes two more small calls).
var WasmBuildFlags = []string{"-trimpath", "-ldflags=-s -w",
	"-gcflags=regexp/...=-l", "-gcflags=html=-l",
	"-gcflags=encoding/json=-l", "-gcflags=reflect=-l", "-gcflags=encoding/csv=-l", "-gcflags=fmt=-l", "-gcflags=strconv=-l",
	"-gcflags=github.com/docscore/docscore/rules=-l", "-gcflags=github.com/docscore/docscore/scoring/api=-l",
	"-gcflags=github.com/docscore/docscore/scoring/internal/jsonout=-l", "-gcflags=github.com/docscore/docscore/scoring/ingest=-l",
	"-gcflags=github.com/docscore/docscore/scoring/schema=-l", "-gcflags=github.com/docscore/docscore/scoring/inputerr=-l",
	"-gcflags=github.com/docscore/docscore/wasm/...=-l", "-gcflags=syscall/js=-l", "-gcflags=syscall=-l",
	"-gcflags=internal/fmtsort=-l", "-gcflags=internal/reflectlite=-l", "-gcflags=internal/filepathlite=-l"}

// VersionEnv names the environment variable that holds the version a
// build writes into every report's provenance (the Makefile's VERSION):
// the page's wasm gets it as the binary and the Worker do, so that the
// three write the same bytes.
const VersionEnv = "DOCSCORE_VERSION"

// ProvenanceVersionVar is the variable every host's build sets with -X.
const ProvenanceVersionVar = "github.com/docscore/docscore/scoring/provenance.Version"

// wasmBuildFlags is WasmBuildFlags with the provenance version linked in
// when one is given.
func wasmBuildFlags(version string) []string {
	flags := append([]string(nil), WasmBuildFlags...)
	if version == "" {
		return flags
	}
	for i, f := range flags {
		if strings.HasPrefix(f, "-ldflags=") {
			flags[i] = f + " -X " + ProvenanceVersionVar + "=" + version
		}
	}
	return flags
}

// Options configure a build.
type Options struct {
	// Out is the folder to write; it is replaced when it holds a previous
	// build (an index.html and an assets folder) and must otherwise be
	// empty or absent.
	Out string
	// Root is the module root to compile the wasm from; "" finds it with
	// "go env GOMOD" from the working directory.
	Root string
	// Go is the go command; "" means "go" from PATH.
	Go string
	// Sources are the site's source files; nil means site.FS.
	Sources fs.FS
	// Log receives the go command's output; nil discards it.
	Log io.Writer
}

// Asset is one written file.
type Asset struct {
	Source string // the source name: main.js, docscore.wasm
	Path   string // its path in the output: assets/main.3f9a61c2.js
	Size   int    // bytes written
	Gzip   int    // bytes gzip-compressed (best compression)
}

// Result lists what a build wrote, index.html first.
type Result struct {
	Assets []Asset
}

// Find returns the asset built from the named source (the e2e tests,
// built with -tags e2e, measure the wasm files through it).
func (r *Result) Find(source string) (Asset, bool) {
	for _, a := range r.Assets {
		if a.Source == source {
			return a, true
		}
	}
	return Asset{}, false
}

// Build writes the site into opts.Out.
func Build(ctx context.Context, opts Options) (*Result, error) {
	if opts.Out == "" {
		return nil, errors.New("sitebuild: no output folder")
	}
	goCmd := opts.Go
	if goCmd == "" {
		goCmd = "go"
	}
	src := opts.Sources
	if src == nil {
		src = site.FS
	}
	root := opts.Root
	if root == "" {
		out, err := exec.CommandContext(ctx, goCmd, "env", "GOMOD").Output()
		if err != nil || strings.TrimSpace(string(out)) == "" || strings.TrimSpace(string(out)) == os.DevNull {
			return nil, fmt.Errorf("sitebuild: cannot find the module root (run it inside the docscore module): %v", err)
		}
		root = filepath.Dir(strings.TrimSpace(string(out)))
	}
	if err := checkOut(opts.Out); err != nil {
		return nil, err
	}

	files, err := BuildWasm(ctx, goCmd, root, Wasm, opts.Log)
	if err != nil {
		return nil, err
	}
	if files["wasm_exec.js"], err = WasmExec(ctx, goCmd); err != nil {
		return nil, err
	}
	if files["sample.json"], err = sampleJSON(); err != nil {
		return nil, err
	}
	if files["sample-receipts.json"], err = receiptsSampleJSON(); err != nil {
		return nil, err
	}
	if files["sample-tables.json"], err = tablesSampleJSON(); err != nil {
		return nil, err
	}
	if files["sample-text.json"], err = textSampleJSON(); err != nil {
		return nil, err
	}
	if files["sample-pipeline.json"], err = pipelineSampleJSON(os.DirFS(root)); err != nil {
		return nil, err
	}
	if files["formats.html"], err = formatsHTML(os.DirFS(root)); err != nil {
		return nil, err
	}
	err = fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch path.Ext(p) {
		case ".html", ".css", ".js", ".svg":
		default:
			return nil // READMEs, Go files and tests are not part of the site
		}
		name := path.Base(p)
		if _, dup := files[name]; dup {
			return fmt.Errorf("sitebuild: two assets are named %s", name)
		}
		b, err := fs.ReadFile(src, p)
		files[name] = b
		return err
	})
	if err != nil {
		return nil, err
	}
	if _, ok := files["index.html"]; !ok {
		return nil, errors.New("sitebuild: the sources have no index.html")
	}
	built, err := process(files)
	if err != nil {
		return nil, err
	}
	return write(opts.Out, built)
}

// checkOut refuses to replace a folder that is not a previous build.
func checkOut(out string) error {
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != "index.html" && e.Name() != "assets" {
			return fmt.Errorf("sitebuild: %s holds %s: not a previous site build, refusing to replace it", out, e.Name())
		}
	}
	return nil
}

// BuildWasm compiles WebAssembly files (Wasm, or the npm package's list)
// with WasmBuildFlags in one go build (the packages they share are
// compiled once) and returns them by name.
func BuildWasm(ctx context.Context, goCmd, root string, wasm []WasmFile, log io.Writer) (map[string][]byte, error) {
	tmp, err := os.MkdirTemp("", "docscore-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	args := append([]string{"build"}, wasmBuildFlags(os.Getenv(VersionEnv))...)
	args = append(args, "-o", tmp+string(filepath.Separator))
	for _, w := range wasm {
		args = append(args, w.Package)
	}
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if log != nil {
		cmd.Stdout, cmd.Stderr = io.MultiWriter(&buf, log), io.MultiWriter(&buf, log)
	}
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("sitebuild: GOOS=js GOARCH=wasm go %s: %v\n%s", strings.Join(args, " "), err, buf.String())
	}
	out := map[string][]byte{}
	for _, w := range wasm {
		// go build -o DIR/ names each command after its package's folder.
		b, err := os.ReadFile(filepath.Join(tmp, path.Base(w.Package)))
		if err != nil {
			return nil, fmt.Errorf("sitebuild: %s: %v", w.Name, err)
		}
		out[w.Name] = b
	}
	return out, nil
}

// WasmExec returns the wasm_exec.js of the Go that builds the wasm: the
// two must come from the same release.
func WasmExec(ctx context.Context, goCmd string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, goCmd, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("sitebuild: go env GOROOT: %v", err)
	}
	goroot := strings.TrimSpace(string(out))
	b, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, fmt.Errorf("sitebuild: %v (the Go installation lacks lib/wasm/wasm_exec.js)", err)
	}
	return b, nil
}

// SampleFile is one file of a bundled sample as the page loads it: its
// content as UTF-8 text, or as base64 when it is binary.
type SampleFile struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	Note   string `json:"note,omitempty"`
	Text   string `json:"text,omitempty"`
	Base64 string `json:"base64,omitempty"`
}

func sampleFiles(files []SampleFile) ([]byte, error) {
	return json.Marshal(struct {
		Files []SampleFile `json:"files"`
	}{files})
}

// sampleJSON bundles the tabular sample with the names and roles the
// command line's --sample gives it, so the page's report is byte for byte
// the one of "docscore score tabular --sample".
func sampleJSON() ([]byte, error) {
	req, err := sample.TabularRequest(true)
	if err != nil {
		return nil, err
	}
	var files []SampleFile
	for _, f := range req.GT {
		files = append(files, SampleFile{Name: f.Name, Role: "gt", Text: string(f.Data)})
	}
	files = append(files, SampleFile{Name: req.Runs.Name, Role: "runs", Text: string(req.Runs.Data)})
	files = append(files, SampleFile{Name: req.Rules.Name, Role: "rules", Text: string(req.Rules.Data)})
	return sampleFiles(files)
}

// receiptsSampleJSON bundles the receipts sample: the CORD references,
// the complete pilot run and, not used until the user says so, the
// interrupted one. The report is that of "docscore score receipts --refs
// sample/receipts/refs --run sample/receipts/run.jsonl".
func receiptsSampleJSON() ([]byte, error) {
	refs, err := fs.Glob(sample.Receipts, "receipts/refs/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(refs)
	var files []SampleFile
	add := func(name, role, note string) error {
		b, err := fs.ReadFile(sample.Receipts, name)
		files = append(files, SampleFile{Name: path.Join("sample", name), Role: role, Note: note, Text: string(b)})
		return err
	}
	for _, n := range refs {
		if err := add(n, "receipt-ref", "bundled sample: a CORD annotation"); err != nil {
			return nil, err
		}
	}
	if err := add("receipts/run.jsonl", "receipt-run", "bundled sample: a complete pilot run"); err != nil {
		return nil, err
	}
	if err := add("receipts/run_incomplete.jsonl", "ignore", "bundled sample: an interrupted run (one pair missing, one recorded twice); make it the receipt run, and the other Not used, to see the completeness check"); err != nil {
		return nil, err
	}
	return sampleFiles(files)
}

// tablesSampleJSON bundles the tables sample for the tables view
// (tables.html): the ground truth and the runs file under the names that
// make its report that of "docscore score tables --gt
// sample/tables/gt.html --runs sample/tables/runs.jsonl".
func tablesSampleJSON() ([]byte, error) {
	return familySample(sample.Tables, []string{"tables/gt.html"}, "tables-gt", "tables/runs.jsonl", "tables-runs")
}

// textSampleJSON bundles the page-text sample for the page-text view
// (text.html): the ground-truth pages and the runs file under the names
// that make its report that of "docscore score text --gt sample/text/gt
// --runs sample/text/runs.jsonl".
func textSampleJSON() ([]byte, error) {
	gt, err := fs.Glob(sample.Text, "text/gt/*")
	if err != nil {
		return nil, err
	}
	sort.Strings(gt)
	return familySample(sample.Text, gt, "text-gt", "text/runs.jsonl", "text-runs")
}

// familySample bundles a family view's sample: its ground-truth files
// and its runs file, each named as the repository holds it under sample/.
func familySample(fsys fs.FS, gt []string, gtRole, runs, runsRole string) ([]byte, error) {
	var files []SampleFile
	for i, name := range append(gt, runs) {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		role := gtRole
		if i == len(gt) {
			role = runsRole
		}
		files = append(files, SampleFile{Name: path.Join("sample", name), Role: role, Text: string(b)})
	}
	return sampleFiles(files)
}

// pipelineSampleJSON bundles the harness's pipeline example from the
// module root: the cases file and the files it names (binary ones as
// base64), under their paths in the repository, so the report is that of
// "docscore eval --cases examples/harness/pipeline/cases.json".
func pipelineSampleJSON(root fs.FS) ([]byte, error) {
	entries, err := fs.ReadDir(root, PipelineExample)
	if err != nil {
		return nil, fmt.Errorf("sitebuild: the pipeline example: %v", err)
	}
	var files []SampleFile
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := path.Join(PipelineExample, e.Name())
		b, err := fs.ReadFile(root, name)
		if err != nil {
			return nil, err
		}
		f := SampleFile{Name: name, Role: "case-file", Note: "bundled example: named by cases.json"}
		if e.Name() == "cases.json" {
			f.Role, f.Note = "cases", "bundled example: the seed's extraction and total pipeline, five times"
		}
		if utf8.Valid(b) {
			f.Text = string(b)
		} else {
			f.Base64 = base64.StdEncoding.EncodeToString(b)
		}
		files = append(files, f)
	}
	return sampleFiles(files)
}

// newMinifier registers one minifier per type. JavaScript keeps its
// variable names: the modules' exports and the worker's message names
// must survive, and gzip takes most of what renaming would save.
func newMinifier() *minify.M {
	m := minify.New()
	m.AddFunc("text/css", css.Minify)
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: true, KeepDefaultAttrVals: true})
	m.Add("text/javascript", &js.Minifier{KeepVarNames: true})
	m.AddFunc("image/svg+xml", svg.Minify)
	return m
}

var mediaTypes = map[string]string{".css": "text/css", ".html": "text/html", ".js": "text/javascript", ".svg": "image/svg+xml"}

// Minify minifies one source file by its extension; other files are
// returned as they are.
func Minify(name string, b []byte) ([]byte, error) {
	mt, ok := mediaTypes[path.Ext(name)]
	if !ok || name == "wasm_exec.js" {
		return b, nil // Go's loader is copied as released
	}
	out, err := newMinifier().Bytes(mt, b)
	if err != nil {
		return nil, fmt.Errorf("sitebuild: minifying %s: %v", name, err)
	}
	return out, nil
}

// refPattern matches a quoted reference to name: "name", 'name',
// "./name" or "assets/name".
func refPattern(name string) *regexp.Regexp {
	return regexp.MustCompile(`(["'/])` + regexp.QuoteMeta(name) + `(["'])`)
}

// HashedName returns name with the first 8 bytes of the SHA-256 of b, in
// hex, before its extension.
func HashedName(name string, b []byte) string {
	sum := sha256.Sum256(b)
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:4]) + ext
}

type builtFile struct {
	source, path string
	data         []byte
}

// process minifies every file, then names them in dependency order: a
// file's references are rewritten to the hashed names of the files it
// refers to before its own hash is taken, so a change anywhere renames
// every file that leads to it.
func process(files map[string][]byte) ([]builtFile, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	min := map[string][]byte{}
	patterns := map[string]*regexp.Regexp{}
	for _, n := range names {
		b, err := Minify(n, files[n])
		if err != nil {
			return nil, err
		}
		min[n] = b
		patterns[n] = refPattern(n)
	}
	deps := map[string][]string{}
	for _, n := range names {
		if _, text := mediaTypes[path.Ext(n)]; !text {
			continue
		}
		for _, d := range names {
			if d != n && d != "index.html" && patterns[d].Match(min[n]) {
				deps[n] = append(deps[n], d)
			}
		}
	}
	hashed := map[string]string{}
	var out []builtFile
	var visit func(n string, stack []string) error
	visit = func(n string, stack []string) error {
		if _, done := hashed[n]; done {
			return nil
		}
		for _, s := range stack {
			if s == n {
				return fmt.Errorf("sitebuild: assets refer to each other in a cycle: %s", strings.Join(append(stack, n), " → "))
			}
		}
		b := min[n]
		for _, d := range deps[n] {
			if err := visit(d, append(stack, n)); err != nil {
				return err
			}
			b = patterns[d].ReplaceAll(b, []byte("${1}"+hashed[d]+"${2}"))
		}
		p := n
		if n != "index.html" {
			hashed[n] = HashedName(n, b)
			p = "assets/" + hashed[n]
		} else {
			hashed[n] = n
		}
		out = append(out, builtFile{source: n, path: p, data: b})
		return nil
	}
	for _, n := range append([]string{"index.html"}, names...) {
		if err := visit(n, nil); err != nil {
			return nil, err
		}
	}
	// index.html first, then the assets by name.
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].source == "index.html") != (out[j].source == "index.html") {
			return out[i].source == "index.html"
		}
		return out[i].path < out[j].path
	})
	return out, nil
}

func write(out string, built []builtFile) (*Result, error) {
	for _, old := range []string{filepath.Join(out, "index.html"), filepath.Join(out, "assets")} {
		if err := os.RemoveAll(old); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Join(out, "assets"), 0o755); err != nil {
		return nil, err
	}
	res := &Result{}
	for _, f := range built {
		if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(f.path)), f.data, 0o644); err != nil {
			return nil, err
		}
		res.Assets = append(res.Assets, Asset{Source: f.source, Path: f.path, Size: len(f.data), Gzip: GzipSize(f.data)})
	}
	return res, nil
}

// GzipSize returns the size of b gzip-compressed at best compression.
func GzipSize(b []byte) int {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Len()
}
