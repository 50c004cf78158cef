//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package play

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on the file at path (created
// if missing) and returns the function that releases it. It serialises the
// merge-and-write of Book.Save between processes.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
