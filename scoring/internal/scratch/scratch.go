// Package scratch lends memory that a loop reuses from one turn to the
// next: a result used at once and let go (a streamed scoring's image)
// needs no new memory of its own each time.
package scratch

// Slice returns (*buf)[:n], zeroed, growing *buf (by a quarter more than
// asked) when it is short: the same memory on every call that fits. As
// with make, the slice is never nil, even empty (a report writes a nil
// list as null).
func Slice[S ~[]T, T any](buf *S, n int) S {
	if *buf == nil || cap(*buf) < n {
		*buf = make(S, n, n+n/4)
	}
	s := (*buf)[:n]
	clear(s)
	return s
}
