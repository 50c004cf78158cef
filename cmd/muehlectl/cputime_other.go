//go:build !unix

package main

import "time"

// cpuTime reports that processor time cannot be measured here.
func cpuTime() (time.Duration, bool) { return 0, false }
