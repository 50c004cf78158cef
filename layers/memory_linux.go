package layers

import "golang.org/x/sys/unix"

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
