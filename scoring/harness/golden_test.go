package harness

import (
	"flag"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with the golden file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	testkit.Golden(t, path, got, *update)
}
