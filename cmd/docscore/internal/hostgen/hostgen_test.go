package hostgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api/registry"
)

// TestGeneratedFilesAreCurrent fails while npm's and Python's generated
// files differ from a fresh generation from the registry: an operation or
// option added, changed or removed in the registry without running
// "go run ./cmd/docscore/internal/hostgen/run", or a generated file
// edited by hand.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..", "..", "..")
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
		if err != nil {
			t.Errorf("%s: %v (run go run ./cmd/docscore/internal/hostgen/run)", path, err)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from a fresh generation from the registry: run go run ./cmd/docscore/internal/hostgen/run", path)
		}
	}
}

// TestEveryOperationIsGenerated checks that each operation has its npm
// function and its .d.ts overloads, each the command line answers its
// Python function, and every option of it in each.
func TestEveryOperationIsGenerated(t *testing.T) {
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	js, ts, py := string(files[NPMFile]), string(files[TypesFile]), string(files[PythonFile])
	for _, o := range registry.Operations() {
		if !strings.Contains(js, "export function "+o.Name+"(input, options)") {
			t.Errorf("%s: no npm function", o.Name)
		}
		if !strings.Contains(ts, "export function "+o.Name+"(input: ") {
			t.Errorf("%s: no .d.ts declaration", o.Name)
		}
		if o.Command != "" && !strings.Contains(py, "\ndef "+snake(o.Name)+"(") {
			t.Errorf("%s: no Python function", o.Name)
		}
		for _, p := range options(o) {
			if !strings.Contains(ts, "  "+camel(p.Name)+"?: ") && !(p.Required && strings.Contains(ts, "  "+camel(p.Name)+": ")) {
				t.Errorf("%s: option %s missing from the .d.ts", o.Name, p.Name)
			}
			if o.Command != "" && p.FlagName() != "" && !strings.Contains(py, "(\"--"+p.FlagName()+"\", "+p.Name+")") {
				t.Errorf("%s: option %s missing from Python", o.Name, p.Name)
			}
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct{ in, camel, snake, prefix string }{
		{"ci_level", "ciLevel", "ci_level", "Ci_level"},
		{"scoreTabular", "scoreTabular", "score_tabular", "Tabular"},
		{"checkRules", "checkRules", "check_rules", "Rules"},
		{"compare", "compare", "compare", "Compare"},
	} {
		if got := camel(c.in); got != c.camel {
			t.Errorf("camel(%s) = %s, want %s", c.in, got, c.camel)
		}
		if got := snake(c.in); got != c.snake {
			t.Errorf("snake(%s) = %s, want %s", c.in, got, c.snake)
		}
		if got := typePrefix(c.in); got != c.prefix {
			t.Errorf("typePrefix(%s) = %s, want %s", c.in, got, c.prefix)
		}
	}
}
