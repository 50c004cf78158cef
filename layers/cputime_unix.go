//go:build unix

package layers

import (
	"syscall"
	"time"
)

// CPUTime returns the processor time (user and system) this process has
// used so far, and whether it could be read: for the benchmarks' records
// and the tests that compare it with the wall time.
func CPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
