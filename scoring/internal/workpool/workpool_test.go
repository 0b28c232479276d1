package workpool

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// TestRunCallsEveryTask: every task runs once, on at most the workers
// asked for.
func TestRunCallsEveryTask(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 8, 100} {
		const n = 50
		var calls [n]atomic.Int32
		var running, most atomic.Int32
		err := Run(n, workers, func(k int) error {
			r := running.Add(1)
			for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
			}
			calls[k].Add(1)
			running.Add(-1)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for k := range calls {
			if c := calls[k].Load(); c != 1 {
				t.Errorf("workers %d: task %d ran %d times", workers, k, c)
			}
		}
		if m := int(most.Load()); m > max(workers, 1) {
			t.Errorf("workers %d: %d tasks at once", workers, m)
		}
	}
}

// TestRunFirstErrorInOrder: the error is the lowest failed task's, as a
// loop's, whatever the number of workers; no task starts after a
// failure is seen.
func TestRunFirstErrorInOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 4, 16} {
		for _, failing := range [][]int{{7}, {3, 9}, {9, 3}, {0}, {49}} {
			bad := map[int]bool{}
			for _, k := range failing {
				bad[k] = true
			}
			var ran atomic.Int32
			err := Run(50, workers, func(k int) error {
				ran.Add(1)
				if bad[k] {
					return fmt.Errorf("task %d", k)
				}
				return nil
			})
			lowest := min(failing[0], failing[len(failing)-1])
			if want := fmt.Sprintf("task %d", lowest); err == nil || err.Error() != want {
				t.Errorf("workers %d, failing %v: error %v, want %s", workers, failing, err, want)
			}
			if workers == 1 && int(ran.Load()) != lowest+1 {
				t.Errorf("one worker ran %d tasks, want %d", ran.Load(), lowest+1)
			}
		}
	}
	if err := Run(0, 4, func(int) error { return errors.New("never") }); err != nil {
		t.Errorf("no tasks: %v", err)
	}
}
