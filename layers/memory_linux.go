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
// are dropped; b stays valid. A body of a compressed layer decoded in
// memory is left as it is (its pages are no file's: dropped, they would
// read as zeros).
func DropPages(b []byte) {
	if isDecoded(b) {
		return
	}
	if p := pages(b, false); p != nil {
		_ = unix.Madvise(p, unix.MADV_DONTNEED) // advice; fine if refused
	}
}

// prefetch asks the kernel to read the part b of a mapped file in one
// request, before it is read through: a block about to be checked. Left
// to page faults, the first fault reads the read-around window around it
// (8 MiB on the machine that computed the standard database: a cold probe
// of a 3 MB layer read all of it; TestColdProbeReadsLittle).
func prefetch(b []byte) {
	if p := pages(b, true); p != nil {
		_ = unix.Madvise(p, unix.MADV_WILLNEED) // advice; fine if refused
	}
}

// pages returns the pages of the mapped region b: those that b overlaps
// when outward (b must lie in one mapping, whose start is page-aligned),
// else those that lie wholly inside b; nil when there are none.
func pages(b []byte, outward bool) []byte {
	if len(b) == 0 {
		return nil
	}
	page := uintptr(unix.Getpagesize())
	start := uintptr(unsafe.Pointer(&b[0]))
	lo, hi := (start+page-1)&^(page-1), (start+uintptr(len(b)))&^(page-1)
	if outward {
		lo, hi = start&^(page-1), (start+uintptr(len(b))+page-1)&^(page-1)
	}
	if hi <= lo {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&b[0]), -int(start-lo))), hi-lo)
}

// TotalMemory returns the machine's physical memory in bytes (MemTotal of
// /proc/meminfo), and whether it could be read.
func TotalMemory() (uint64, bool) { return meminfo("MemTotal:") }

// AvailableMemory returns the memory in bytes that processes may still
// take without the system swapping or ending one (MemAvailable of
// /proc/meminfo: the free memory and the page cache it can give up), and
// whether it could be read.
func AvailableMemory() (uint64, bool) { return meminfo("MemAvailable:") }

// meminfo returns the field of /proc/meminfo named name, in bytes.
func meminfo(name string) (uint64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) >= 2 && string(f[0]) == name {
			kb, err := strconv.ParseUint(string(f[1]), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// EvictFiles asks the kernel to drop the regular files directly in dir
// from the page cache (posix_fadvise DONTNEED), so that their next reads
// go to the disk, and returns how many it evicted: a cold start of a
// reader of dir without dropping the whole page cache. Pages that a
// process has mapped stay.
func EvictFiles(dir string) (int, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range es {
		if !e.Type().IsRegular() {
			continue
		}
		f, err := os.Open(dir + "/" + e.Name())
		if err != nil {
			continue // removed meanwhile
		}
		err = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
		f.Close()
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// DropPageCache writes the dirty pages out and drops the whole page cache
// (echo 3 > /proc/sys/vm/drop_caches): only root may.
func DropPageCache() error {
	unix.Sync()
	return os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0)
}
