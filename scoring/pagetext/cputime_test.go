//go:build !js && !wasip1

package pagetext

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system time: on a machine shared
// with other work, it says what a benchmark costs better than the wall
// clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per op since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
