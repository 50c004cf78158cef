//go:build !linux && !windows

package layers

import "errors"

// AllocLarge returns n zeroed bytes for an array read or written at
// random; on Linux they come from huge pages, on Windows from
// VirtualAlloc.
func AllocLarge(n int) (b []byte, release func(), err error) {
	return make([]byte, n), func() {}, nil
}

// DropPages tells the system that the pages of the mapped file region b
// are not needed for now; elsewhere than on Linux and Windows it does
// nothing.
func DropPages(b []byte) {}

// TotalMemory returns 0, false: the machine's memory is not read here.
func TotalMemory() (uint64, bool) { return 0, false }

// AvailableMemory returns 0, false: the memory available is not read here.
func AvailableMemory() (uint64, bool) { return 0, false }

// prefetch asks the system to read the part b of a mapped file in one
// request; it is advice that only Linux takes here (memory_linux.go).
func prefetch(b []byte) {}

// EvictFiles drops the files of a folder from the page cache on Linux
// (memory_linux.go); here it cannot.
func EvictFiles(dir string) (int, error) { return 0, errors.ErrUnsupported }

// DropPageCache drops the whole page cache on Linux (memory_linux.go);
// here it cannot.
func DropPageCache() error { return errors.ErrUnsupported }
