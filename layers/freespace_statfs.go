//go:build linux || darwin || freebsd

package layers

import (
	"fmt"
	"syscall"
)

// freeBytes returns the space available to unprivileged users on the file
// system of the existing path p.
func freeBytes(p string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(p, &st); err != nil {
		return 0, fmt.Errorf("layers: free disk space of %s: %w", p, err)
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}
