//go:build !linux

package layers

import (
	"errors"
	"time"
)

func dropCache(f *File) error { return errors.New("not supported on this system") }

// cpuTime returns 0: CPU time is measured on Linux only.
func cpuTime() time.Duration { return 0 }
