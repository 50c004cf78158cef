package layers

import (
	"time"

	"golang.org/x/sys/windows"
)

// CPUTime returns the processor time (user and kernel) this process has
// used so far (GetProcessTimes), and whether it could be read.
func CPUTime() (time.Duration, bool) {
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &created, &exited, &kernel, &user); err != nil {
		return 0, false
	}
	ticks := func(t windows.Filetime) int64 { return int64(t.HighDateTime)<<32 | int64(t.LowDateTime) }
	return time.Duration(ticks(kernel)+ticks(user)) * 100, true
}
