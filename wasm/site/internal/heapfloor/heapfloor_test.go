package heapfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// heapGoal is the heap size at which the collector will start its next
// cycle, after a full collection.
func heapGoal() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func TestSetRaisesTheHeapGoal(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer Set(0)
	const floor = 64 << 20
	Set(0)
	without := heapGoal()
	if without >= floor {
		t.Fatalf("the heap goal is %d MB before any floor: too large for this test", without>>20)
	}
	for _, tc := range []struct {
		n       int
		minGoal uint64 // with GOGC=100: twice the floor
	}{
		{floor, 2 * floor},
		{floor / 2, floor}, // a second call replaces the first floor
	} {
		Set(tc.n)
		if Size() != tc.n {
			t.Fatalf("Size() = %d after Set(%d)", Size(), tc.n)
		}
		if g := heapGoal(); g < tc.minGoal {
			t.Errorf("Set(%d MB): heap goal %d MB, want at least %d MB", tc.n>>20, g>>20, tc.minGoal>>20)
		}
	}
	Set(0)
	if Size() != 0 {
		t.Fatalf("Size() = %d after Set(0)", Size())
	}
	if g := heapGoal(); g >= floor {
		t.Errorf("after Set(0) the heap goal is still %d MB", g>>20)
	}
}
