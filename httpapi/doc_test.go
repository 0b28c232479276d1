package httpapi

import (
	"os"
	"strings"
	"testing"
)

// TestEveryRouteIsDocumented fails when a route of the table is missing
// from the package doc's route list, or the doc lists a route the table
// does not have.
func TestEveryRouteIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		f := strings.Fields(strings.TrimPrefix(line, "//"))
		if len(f) >= 2 && (f[0] == "GET" || f[0] == "POST") && strings.HasPrefix(f[1], "/") {
			documented[f[0]+" "+f[1]] = true
		}
	}
	for _, rt := range routes() {
		name := rt.method + " " + rt.path
		if !documented[name] {
			t.Errorf("route %s is not in doc.go's route list", name)
		}
		delete(documented, name)
	}
	for name := range documented {
		t.Errorf("doc.go lists %s, which the route table does not have", name)
	}
}

// TestRouteTables fails when a route is missing from the Worker guide's
// route table (the README links there).
func TestRouteTables(t *testing.T) {
	for _, doc := range []string{"../docs/worker.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, rt := range routes() {
			if !strings.Contains(string(b), "| `"+rt.method+" "+rt.path+"` |") {
				t.Errorf("%s: no row | `%s %s` | in its route table", doc, rt.method, rt.path)
			}
		}
	}
}
