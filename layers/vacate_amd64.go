//go:build (linux || darwin) && amd64

package layers

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// vacate replaces the mapping m, in place, by an anonymous one of the same
// size that reads as zeros and takes no memory: the file m mapped is let
// go of (its disk space, when it was deleted or replaced, given back),
// while a reader still reading m reads zeros instead of faulting. The
// range is unmapped later (mmap.MMap.Unmap) as m was. See lease.go.
func vacate(m []byte) error {
	if len(m) == 0 {
		return nil
	}
	_, err := unix.MmapPtr(-1, 0, unsafe.Pointer(&m[0]), uintptr(len(m)), unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_FIXED|unix.MAP_NORESERVE)
	return err
}
