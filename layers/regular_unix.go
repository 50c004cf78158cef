//go:build unix

package layers

import (
	"os"
	"syscall"
)

// sysOpen is os.OpenFile with O_NONBLOCK: opening a FIFO without a
// writer returns at once instead of waiting for one.
func sysOpen(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NONBLOCK, perm)
}
