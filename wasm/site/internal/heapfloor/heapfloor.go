// Package heapfloor puts a floor under the Go heap: it keeps the garbage
// collector from running every few megabytes while the heap is small.
//
// The site's WebAssembly core runs on one thread, so every collection
// stops the scoring; natively a collection runs beside it on another
// core. A call that scores the benchmark corpus allocates about 34 MB
// while little of it stays live, so with the default GOGC=100 and a small
// heap the collector runs over and over within each call. Holding n bytes
// that the collector counts as live, but never scans and the program never
// touches, lets the heap grow to about 2n before a collection and reuses
// that memory from call to call.
package heapfloor

// ballast is the floor: pointer-free, never read or written, so the
// collector marks it in one step and, in fresh memory, it is never paged
// in.
var ballast []byte

// Set makes the collector count n bytes more as live, replacing the floor
// a previous call set; n <= 0 removes the floor.
func Set(n int) {
	ballast = nil
	if n > 0 {
		ballast = make([]byte, n)
	}
}

// Size is the floor Set put in place, in bytes.
func Size() int { return len(ballast) }
