// Package npmpkg builds the npm package @docscore/core (the repository's
// npm/ folder): the package's JavaScript and type declarations (npm/src),
// the WebAssembly files of the page's families compiled with the page's
// flags (sitebuild.WasmBuildFlags), and Go's
// wasm_exec.js from the Go that compiled them, all in the package's dist/
// folder, with the repository's LICENSE, packed by "npm pack" into a
// tarball.
//
// It stages the package in a temporary folder, so that the source tree
// gets no build output: npm/ holds only what is committed.
package npmpkg

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/sitebuild"
)

// Wasm lists the package's WebAssembly files: the page's (sitebuild.Wasm;
// the comparison of reports is in docscore.wasm).
var Wasm = sitebuild.Wasm

// Options configure a build.
type Options struct {
	// Root is the docscore module's root: the wasm are compiled there and
	// the package's sources read from its npm/ folder.
	Root string
	// Out is the folder the tarball is written to; it is created.
	Out string
	// Go is the go command; "" means "go" from PATH.
	Go string
	// Log receives the output of go and npm; nil discards it.
	Log io.Writer
}

// Result is a packed package.
type Result struct {
	Tarball string           // its path
	Size    int64            // its size in bytes
	Files   map[string]int64 // the size of each file in the package, by path (dist/docscore.wasm)
}

// Pack builds the package and packs it into opts.Out.
func Pack(ctx context.Context, opts Options) (*Result, error) {
	goCmd := opts.Go
	if goCmd == "" {
		goCmd = "go"
	}
	stage, err := os.MkdirTemp("", "docscore-npm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	if err := stageSources(opts.Root, stage); err != nil {
		return nil, err
	}
	dist := filepath.Join(stage, "dist")
	files, err := sitebuild.BuildWasm(ctx, goCmd, opts.Root, Wasm, opts.Log)
	if err != nil {
		return nil, err
	}
	if files["wasm_exec.js"], err = sitebuild.WasmExec(ctx, goCmd); err != nil {
		return nil, err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dist, name), b, 0o644); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, err
	}
	out, err := filepath.Abs(opts.Out)
	if err != nil {
		return nil, err
	}
	return npmPack(ctx, stage, out, opts.Log)
}

// stageSources copies into stage what the package carries besides the
// built files: package.json and README.md from npm/, the repository's
// LICENSE, and npm/src's JavaScript and type declarations into dist/.
func stageSources(root, stage string) error {
	dist := filepath.Join(stage, "dist")
	if err := os.Mkdir(dist, 0o755); err != nil {
		return err
	}
	src := filepath.Join(root, "npm")
	for from, to := range map[string]string{
		filepath.Join(src, "package.json"): "package.json",
		filepath.Join(src, "README.md"):    "README.md",
		filepath.Join(root, "LICENSE"):     "LICENSE",
	} {
		if err := copyFile(from, filepath.Join(stage, to)); err != nil {
			return err
		}
	}
	sources, err := os.ReadDir(filepath.Join(src, "src"))
	if err != nil {
		return fmt.Errorf("npmpkg: the package's sources: %v", err)
	}
	for _, e := range sources {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), ".js") || strings.HasSuffix(e.Name(), ".d.ts")) {
			if err := copyFile(filepath.Join(src, "src", e.Name()), filepath.Join(dist, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// npmPack runs "npm pack" in dir and reads what it packed from its JSON.
func npmPack(ctx context.Context, dir, out string, log io.Writer) (*Result, error) {
	cmd := exec.CommandContext(ctx, "npm", "pack", "--json", "--pack-destination", out)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if log != nil {
		cmd.Stderr = io.MultiWriter(&stderr, log)
	}
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("npmpkg: npm pack: %v\n%s", err, stderr.String())
	}
	var packed []struct {
		Filename string `json:"filename"`
		Size     int64  `json:"size"`
		Files    []struct {
			Path string `json:"path"`
			Size int64  `json:"size"`
		} `json:"files"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &packed); err != nil || len(packed) != 1 {
		return nil, fmt.Errorf("npmpkg: npm pack --json answered %.300q (%v): expected one package", stdout.String(), err)
	}
	p := packed[0]
	r := &Result{Tarball: filepath.Join(out, p.Filename), Size: p.Size, Files: map[string]int64{}}
	for _, f := range p.Files {
		r.Files[f.Path] = f.Size
	}
	return r, nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("npmpkg: %v", err)
	}
	return os.WriteFile(to, b, 0o644)
}
