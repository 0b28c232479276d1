// Package workpool runs n independent tasks on a few goroutines and
// reports their errors as a loop from 0 to n-1 would.
package workpool

import (
	"sync"
	"sync/atomic"
)

// Run calls one(k) for k from 0 to n-1 on up to workers goroutines (one
// task at a time on each, taken in increasing k) and returns the error of
// the lowest k that failed, or nil. After a failure no task starts; every
// task below a failed one has started, so the error returned is the one
// the loop would have returned.
func Run(n, workers int, one func(k int) error) error {
	workers = min(workers, n)
	if workers <= 1 {
		for k := range n {
			if err := one(k); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				if errs[k] = one(k); errs[k] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
