package layers

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// AllocLarge returns n zeroed bytes outside the Go heap, backed by huge
// pages where the kernel allows it, for arrays read or written at random
// (the group-B table, the solver's state, layer bodies it looks values up
// in): with 4 KiB pages nearly every such access would also miss the TLB.
// release gives the memory back; b must not be used afterwards.
func AllocLarge(n int) (b []byte, release func(), err error) {
	if n == 0 {
		return nil, func() {}, nil
	}
	b, err = unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, nil, err
	}
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // a hint; fine if refused
	return b, func() { unix.Munmap(b) }, nil
}

// DropPages tells the kernel that this process does not need the pages of
// the read-only mapped file region b for now: they leave its resident memory (they
// stay in the page cache while memory allows), and the next access reads
// them again. For a region copied once into memory for random access, this
// keeps the copy from being counted twice. Only the whole pages inside b
// are dropped; b stays valid.
func DropPages(b []byte) {
	page := uintptr(unix.Getpagesize())
	if len(b) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(&b[0]))
	lo := (start + page - 1) &^ (page - 1)
	hi := (start + uintptr(len(b))) &^ (page - 1)
	if hi <= lo {
		return
	}
	_ = unix.Madvise(b[lo-start:hi-start], unix.MADV_DONTNEED) // advice; fine if refused
}

// TotalMemory returns the machine's physical memory in bytes (MemTotal of
// /proc/meminfo), and whether it could be read.
func TotalMemory() (uint64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) >= 2 && string(f[0]) == "MemTotal:" {
			kb, err := strconv.ParseUint(string(f[1]), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
