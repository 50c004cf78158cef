//go:build !unix && !windows

package layers

import "time"

// CPUTime returns 0, false: the processor time is not read here.
func CPUTime() (time.Duration, bool) { return 0, false }
