package layers

import (
	"os"

	"golang.org/x/sys/unix"
)

// dropCache unmaps f's pages from this process and evicts its file from
// the page cache, so that the next reads go to the disk.
func dropCache(f *File) error {
	if err := unix.Madvise(f.m, unix.MADV_DONTNEED); err != nil {
		return err
	}
	fd, err := os.Open(f.path)
	if err != nil {
		return err
	}
	defer fd.Close()
	return unix.Fadvise(int(fd.Fd()), 0, 0, unix.FADV_DONTNEED)
}
