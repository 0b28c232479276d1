package scratch

import (
	"fmt"
	"testing"
)

// TestSlice: a call that fits reuses the memory and zeroes what it
// hands out; one that does not grows it; an empty one is not nil.
func TestSlice(t *testing.T) {
	var none []int
	if Slice(&none, 0) == nil {
		t.Error("an empty slice from nil memory is nil, where make's is not")
	}
	var buf []int
	a := Slice(&buf, 3)
	if len(a) != 3 || cap(buf) < 3 {
		t.Fatalf("len %d, cap %d", len(a), cap(buf))
	}
	a[0], a[1], a[2] = 7, 8, 9
	b := Slice(&buf, 2)
	if &b[0] != &a[0] {
		t.Error("a call that fits took new memory")
	}
	if b[0] != 0 || b[1] != 0 {
		t.Errorf("reused memory not zeroed: %v", b)
	}
	c := Slice(&buf, 100)
	if len(c) != 100 || cap(buf) < 100 || c[0] != 0 {
		t.Errorf("grown: len %d, cap %d, first %d", len(c), cap(buf), c[0])
	}
}

func ExampleSlice() {
	var buf []string
	for _, n := range []int{2, 1} {
		s := Slice(&buf, n)
		s[0] = "used"
		fmt.Println(len(s), cap(buf))
	}
	// Output:
	// 2 2
	// 1 2
}
