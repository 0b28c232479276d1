package ingest

import "testing"

func TestRunKeys(t *testing.T) {
	var k RunKeys
	for _, c := range []struct {
		model, phase, run, page string
		line, prev              int
	}{
		{"m", "p", "1", "a", 1, 0},
		{"m", "p", "2", "a", 2, 0},
		{"m", "p", "1", "b", 3, 0},
		{"m", "q", "1", "a", 4, 0},
		{"m", "p", "1", "a", 5, 1},   // given at line 1
		{"m", "p", `"1"`, "a", 6, 0}, // a string run is another run
		{"m", "p", "null", "a", 7, 0},
		{"m", "p", "null", "a", 8, 7},
		{"m", "p", "2", "a", 9, 2},
	} {
		if got := k.Add(c.model, c.phase, []byte(c.run), c.page, c.line); got != c.prev {
			t.Errorf("line %d: Add = %d, want %d", c.line, got, c.prev)
		}
	}
}

// TestRunKeysSparse: a triple's run numbers far apart move it to a map,
// which still finds every earlier line.
func TestRunKeysSparse(t *testing.T) {
	var k RunKeys
	for i := range 300 {
		run := []byte{byte('a' + i%26), byte('a' + i/26)}
		if got := k.Add("m", "p", run, "x", i+1); got != 0 {
			t.Fatalf("run %s: Add = %d", run, got)
		}
		k.Add("m", "p", run, "y", 10000+i) // number the runs on another triple
	}
	for i := range 300 {
		run := []byte{byte('a' + i%26), byte('a' + i/26)}
		if got := k.Add("m", "p", run, "x", 5000); got != i+1 {
			t.Fatalf("run %s again: Add = %d, want %d", run, got, i+1)
		}
	}
	// A triple whose first run has a large number goes sparse at once.
	if k.Add("m", "p", []byte("zz"), "z", 7000) != 0 || k.Add("m", "p", []byte("zz"), "z", 7001) != 7000 {
		t.Fatal("a late run on a new triple")
	}
}
