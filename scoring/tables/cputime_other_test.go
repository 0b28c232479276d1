//go:build !unix

package tables

// cpuSeconds is not measured here: the benchmark reports no CPU rate.
func cpuSeconds() float64 { return 0 }
