//go:build !linux && !windows

package layers

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

// prefetch asks the system to read the part b of a mapped file in one
// request; it is advice that only Linux takes here (memory_linux.go).
func prefetch(b []byte) {}
