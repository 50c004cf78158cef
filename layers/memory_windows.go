package layers

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// AllocLarge returns n zeroed bytes outside the Go heap (VirtualAlloc),
// for arrays read or written at random (the group-B table, the solver's
// state, layer bodies it looks values up in); release gives them back at
// once (VirtualFree), as on Linux, instead of when the garbage collector
// runs. b must not be used afterwards. (Large pages would need a
// privilege that ordinary users lack: the pages are the usual 4 KiB.)
func AllocLarge(n int) (b []byte, release func(), err error) {
	if n == 0 {
		return nil, func() {}, nil
	}
	addr, err := windows.VirtualAlloc(0, uintptr(n), windows.MEM_COMMIT|windows.MEM_RESERVE, windows.PAGE_READWRITE)
	if err != nil {
		return nil, nil, fmt.Errorf("layers: allocating %d bytes: %w", n, err)
	}
	b = unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(nil), addr)), n)
	return b, func() { windows.VirtualFree(addr, 0, windows.MEM_RELEASE) }, nil
}

// DropPages tells the system that this process does not need the pages of
// the read-only mapped file region b for now: they leave its working set
// (they stay in the system's file cache while memory allows), and the
// next access reads them again. VirtualUnlock on pages that are not locked
// does that; its error (they were not locked) is expected. Only the whole
// pages inside b are dropped; b stays valid.
func DropPages(b []byte) {
	if len(b) == 0 {
		return
	}
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(&b[0]))
	lo := (start + page - 1) &^ (page - 1)
	hi := (start + uintptr(len(b))) &^ (page - 1)
	if hi <= lo {
		return
	}
	_ = windows.VirtualUnlock(lo, hi-lo) // advice; ERROR_NOT_LOCKED is its success
}

// memoryStatusEx is the MEMORYSTATUSEX of GlobalMemoryStatusEx.
type memoryStatusEx struct {
	length               uint32
	memoryLoad           uint32
	totalPhys            uint64
	availPhys            uint64
	totalPageFile        uint64
	availPageFile        uint64
	totalVirtual         uint64
	availVirtual         uint64
	availExtendedVirtual uint64
}

var globalMemoryStatusEx = windows.NewLazySystemDLL("kernel32.dll").NewProc("GlobalMemoryStatusEx")

// TotalMemory returns the machine's physical memory in bytes
// (GlobalMemoryStatusEx), and whether the system told it.
func TotalMemory() (uint64, bool) {
	st := memoryStatusEx{length: uint32(unsafe.Sizeof(memoryStatusEx{}))}
	if r, _, _ := globalMemoryStatusEx.Call(uintptr(unsafe.Pointer(&st))); r == 0 {
		return 0, false
	}
	return st.totalPhys, st.totalPhys > 0
}

// AvailableMemory returns the physical memory in bytes that processes may
// still take (GlobalMemoryStatusEx's available physical memory), and
// whether the system told it.
func AvailableMemory() (uint64, bool) {
	st := memoryStatusEx{length: uint32(unsafe.Sizeof(memoryStatusEx{}))}
	if r, _, _ := globalMemoryStatusEx.Call(uintptr(unsafe.Pointer(&st))); r == 0 {
		return 0, false
	}
	return st.availPhys, st.availPhys > 0
}

// prefetch asks the system to read the part b of a mapped file in one
// request; it is advice that only Linux takes here (memory_linux.go).
func prefetch(b []byte) {}

// EvictFiles drops the files of a folder from the page cache on Linux
// (memory_linux.go); here it cannot.
func EvictFiles(dir string) (int, error) { return 0, errors.ErrUnsupported }

// DropPageCache drops the whole page cache on Linux (memory_linux.go);
// here it cannot.
func DropPageCache() error { return errors.ErrUnsupported }
