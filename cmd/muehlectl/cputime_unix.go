//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time (user and system) the process has
// used so far, and whether it could be measured.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
