// Command importgraph draws the imports between docscore's packages as a
// Mermaid flowchart and keeps docs/architecture.md's copy current:
//
//	go run ./scripts/importgraph            print the chart
//	go run ./scripts/importgraph -w FILE    replace the chart in FILE ("make imports")
//
// It shows the packages that ship: those the shipped programs import
// (cmd/docscore and the WebAssembly programs under wasm/, listed for both
// the native platform and js/wasm), grouped by their top folder. Each
// import that another path of imports already implies is left out (a
// transitive reduction), so an arrow is a direct dependency that no
// longer route explains. Tools, tests and examples are not drawn.
// TestArchitectureIsCurrent fails when FILE's chart is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// Module is the module path every drawn package starts with.
const Module = "github.com/docscore/docscore"

// The markers around the chart in the file -w rewrites.
const (
	Begin = "<!-- importgraph: begin (make imports writes this chart) -->"
	End   = "<!-- importgraph: end -->"
)

func main() {
	write := flag.String("w", "", "replace the chart between the importgraph markers of this file")
	flag.Parse()
	g, err := load(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "importgraph:", err)
		os.Exit(1)
	}
	chart := Mermaid(g)
	if *write == "" {
		fmt.Print(chart)
		return
	}
	old, err := os.ReadFile(*write)
	if err != nil {
		fmt.Fprintln(os.Stderr, "importgraph:", err)
		os.Exit(1)
	}
	doc, err := Replace(string(old), chart)
	if err != nil {
		fmt.Fprintf(os.Stderr, "importgraph: %s: %v\n", *write, err)
		os.Exit(1)
	}
	if doc != string(old) {
		if err := os.WriteFile(*write, []byte(doc), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "importgraph:", err)
			os.Exit(1)
		}
	}
}

// Graph maps each package (relative to Module) to the module packages it
// imports.
type Graph map[string][]string

// load lists the module's packages in dir for the native platform and for
// js/wasm, and keeps those the shipped programs reach.
func load(dir string) (Graph, error) {
	all := Graph{}
	var mains []string
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}} {{.Name}} {{join .Imports \" \"}}", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list: %v %s", err, stderr.String())
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || !strings.HasPrefix(f[0], Module+"/") {
				continue
			}
			pkg := strings.TrimPrefix(f[0], Module+"/")
			if _, seen := all[pkg]; !seen {
				all[pkg] = nil
				if f[1] == "main" && shipped(pkg) {
					mains = append(mains, pkg)
				}
			}
			for _, imp := range f[2:] {
				if strings.HasPrefix(imp, Module+"/") {
					all[pkg] = appendNew(all[pkg], strings.TrimPrefix(imp, Module+"/"))
				}
			}
		}
	}
	// Keep what the shipped programs reach.
	g := Graph{}
	var visit func(string)
	visit = func(p string) {
		if _, ok := g[p]; ok {
			return
		}
		g[p] = all[p]
		for _, q := range all[p] {
			visit(q)
		}
	}
	for _, m := range mains {
		visit(m)
	}
	return g, nil
}

// shipped reports whether a main package is one docscore ships: the
// command and the WebAssembly programs, not the build tools.
func shipped(pkg string) bool {
	return pkg == "cmd/docscore" || strings.HasPrefix(pkg, "wasm/")
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// Reduce returns g without the imports that another path implies: p → q
// is dropped when q is reachable from another import of p.
func Reduce(g Graph) Graph {
	reach := map[string]map[string]bool{}
	var reachable func(string) map[string]bool
	reachable = func(p string) map[string]bool {
		if r, ok := reach[p]; ok {
			return r
		}
		r := map[string]bool{}
		reach[p] = r
		for _, q := range g[p] {
			r[q] = true
			for x := range reachable(q) {
				r[x] = true
			}
		}
		return r
	}
	out := Graph{}
	for p, imps := range g {
		out[p] = []string{}
		for _, q := range imps {
			implied := false
			for _, other := range imps {
				if other != q && reachable(other)[q] {
					implied = true
					break
				}
			}
			if !implied {
				out[p] = append(out[p], q)
			}
		}
		sort.Strings(out[p])
	}
	return out
}

// Mermaid draws g, reduced, as a Mermaid flowchart in a fenced block:
// one subgraph per top folder, packages sorted, then the arrows sorted.
func Mermaid(g Graph) string {
	r := Reduce(g)
	pkgs := make([]string, 0, len(r))
	for p := range r {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart LR\n")
	top := ""
	for _, p := range pkgs {
		t, _, _ := strings.Cut(p, "/")
		if t != top {
			if top != "" {
				b.WriteString("  end\n")
			}
			top = t
			fmt.Fprintf(&b, "  subgraph %s [%s/]\n", id("dir/"+t), t)
		}
		fmt.Fprintf(&b, "    %s[\"%s\"]\n", id(p), p)
	}
	if top != "" {
		b.WriteString("  end\n")
	}
	for _, p := range pkgs {
		for _, q := range r[p] {
			fmt.Fprintf(&b, "  %s --> %s\n", id(p), id(q))
		}
	}
	b.WriteString("```\n")
	return b.String()
}

// id is a Mermaid node id for a package path.
func id(p string) string {
	return strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(p)
}

// Replace puts chart between doc's markers.
func Replace(doc, chart string) (string, error) {
	i := strings.Index(doc, Begin)
	j := strings.Index(doc, End)
	if i < 0 || j < i {
		return "", fmt.Errorf("no %q … %q markers", Begin, End)
	}
	return doc[:i+len(Begin)] + "\n" + chart + doc[j:], nil
}
