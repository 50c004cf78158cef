package layers

import "golang.org/x/sys/unix"

// allocTable returns n zeroed bytes outside the Go heap, backed by huge
// pages where the kernel allows it: the group-B table is read at random,
// and with 4 KiB pages nearly every look-up would also miss the TLB.
// release gives the memory back.
func allocTable(n int) (b []byte, release func(), err error) {
	b, err = unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, nil, err
	}
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // a hint; fine if refused
	return b, func() { unix.Munmap(b) }, nil
}
