//go:build !(linux || darwin || freebsd || windows)

package layers

import "fmt"

// freeBytes cannot measure free space on this system.
func freeBytes(p string) (uint64, error) {
	return 0, fmt.Errorf("%w (%s)", ErrFreeSpaceUnknown, p)
}
