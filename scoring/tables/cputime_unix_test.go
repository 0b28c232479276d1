//go:build unix

package tables

import "syscall"

// cpuSeconds is the process's user and system CPU time so far, so that a
// benchmark on a shared machine can report a rate per CPU second as well
// as per wall second.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
