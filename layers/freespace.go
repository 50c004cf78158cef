package layers

import (
	"errors"
	"os"
	"path/filepath"
)

// ErrFreeSpaceUnknown is wrapped by FreeBytes where the system cannot say
// how much disk space is free.
var ErrFreeSpaceUnknown = errors.New("layers: free disk space unknown on this system")

// FreeBytes returns the disk space available to this user on the file
// system that holds dir. A dir that does not exist yet (a database folder
// the first computation creates) is measured at its nearest existing
// parent.
func FreeBytes(dir string) (uint64, error) {
	p, err := filepath.Abs(dir)
	if err != nil {
		return 0, err
	}
	for {
		if _, err := os.Stat(p); err == nil {
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	return freeBytes(p)
}
