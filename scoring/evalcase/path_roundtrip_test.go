package evalcase

import (
	"testing"
)

// TestCanonicalPathIsAFixedPoint checks that a rendered path is its own
// canonical form for keys with characters a JSON encoder would escape.
func TestCanonicalPathIsAFixedPoint(t *testing.T) {
	for _, key := range []string{"a&b", "x<y>", `quo"te`, `back\slash`, "new\nline", "tab\there", "ü é", "a.b", "a]b", "a[0]"} {
		leaves, err := Flatten(map[string]any{key: 1})
		if err != nil || len(leaves) != 1 {
			t.Fatalf("Flatten(%q): %v %v", key, leaves, err)
		}
		p := leaves[0].Path
		got, err := CanonicalPath(p)
		if err != nil || got != p {
			t.Errorf("key %q: path %s canonicalizes to %s (%v)", key, p, got, err)
		}
	}
}
