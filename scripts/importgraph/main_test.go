package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestArchitectureIsCurrent fails when docs/architecture.md's picture of
// the package imports differs from the packages' imports now: run
// "make imports" and commit the file.
func TestArchitectureIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	g, err := load(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"cmd/docscore", "wasm/site", "wasm/worker", "scoring/tabular", "rules", "httpapi"} {
		if _, ok := g[p]; !ok {
			t.Errorf("the graph lacks %s", p)
		}
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Replace(string(doc), Mermaid(g))
	if err != nil {
		t.Fatal(err)
	}
	if want != string(doc) {
		t.Fatal("docs/architecture.md's import graph is stale: run make imports (go run ./scripts/importgraph -w docs/architecture.md)")
	}
}

func TestReduce(t *testing.T) {
	g := Graph{
		"a": {"b", "c", "d"},
		"b": {"c"},
		"c": {"d"},
		"d": nil,
		"e": {"d", "b"},
	}
	want := Graph{"a": {"b"}, "b": {"c"}, "c": {"d"}, "d": {}, "e": {"b"}}
	if got := Reduce(g); !reflect.DeepEqual(got, want) {
		t.Fatalf("Reduce: %v, want %v", got, want)
	}
}

func TestMermaid(t *testing.T) {
	g := Graph{"cmd/x": {"scoring/y", "scoring/z"}, "scoring/y": {"scoring/z"}, "scoring/z": nil}
	want := "```mermaid\nflowchart LR\n" +
		"  subgraph dir_cmd [cmd/]\n    cmd_x[\"cmd/x\"]\n  end\n" +
		"  subgraph dir_scoring [scoring/]\n    scoring_y[\"scoring/y\"]\n    scoring_z[\"scoring/z\"]\n  end\n" +
		"  cmd_x --> scoring_y\n  scoring_y --> scoring_z\n```\n"
	if got := Mermaid(g); got != want {
		t.Fatalf("Mermaid:\n%s\nwant:\n%s", got, want)
	}
}

func TestReplace(t *testing.T) {
	doc := "# A\n\n" + Begin + "\nold\n" + End + "\n\nafter\n"
	got, err := Replace(doc, "new\n")
	if err != nil || got != "# A\n\n"+Begin+"\nnew\n"+End+"\n\nafter\n" {
		t.Fatalf("Replace: %q %v", got, err)
	}
	if _, err := Replace("no markers", "x"); err == nil || !strings.Contains(err.Error(), "markers") {
		t.Fatalf("Replace without markers: %v", err)
	}
}
