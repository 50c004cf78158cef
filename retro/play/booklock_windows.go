package play

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes an exclusive lock on the file at path (created if
// missing; LockFileEx on its first byte, waiting for it) and returns the
// function that releases it. It serialises the merge-and-write of
// Book.Save between processes, as flock does elsewhere.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	h := windows.Handle(f.Fd())
	var ol windows.Overlapped
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		windows.UnlockFileEx(h, 0, 1, 0, &ol)
		f.Close()
	}, nil
}
