package judging

import (
	"fmt"
	"testing"
)

// TestShuffledOrder pins the documented seeding (a change of it must bump
// ShuffleKeyVersion) and checks that a second order always differs.
func TestShuffledOrder(t *testing.T) {
	if got := fmt.Sprint(ShuffledOrder(6, ShuffleKey("statement-001", "extract"))); got != "[0 4 1 3 2 5]" {
		t.Errorf("order %s, pinned [0 4 1 3 2 5]", got)
	}
	for n := 2; n < 9; n++ {
		for _, key := range []string{"", "a", "b|c", ShuffleKey("x", "y")} {
			p := ShuffledOrder(n, key)
			seen, identity := map[int]bool{}, true
			for i, v := range p {
				seen[v] = true
				identity = identity && v == i
			}
			if len(seen) != n || identity {
				t.Fatalf("n %d key %q: %v is not a different permutation", n, key, p)
			}
		}
	}
	req := JudgeRequest{}
	if _, _, ok := ShuffledRequest(req); ok {
		t.Error("a request without two references was reordered")
	}
}
