package layers

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// freeBytes returns the space available to this user (quotas counted) on
// the volume of the existing path p (GetDiskFreeSpaceEx). A path longer
// than the system's old limit of 260 characters, which the call does not
// take, is measured at its volume's root.
func freeBytes(p string) (uint64, error) {
	q := p
	if len(q) >= windows.MAX_PATH-12 {
		q = filepath.VolumeName(p) + `\`
	}
	name, err := windows.UTF16PtrFromString(q)
	if err != nil {
		return 0, fmt.Errorf("layers: free disk space of %s: %w", p, err)
	}
	var avail, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(name, &avail, &total, &free); err != nil {
		return 0, fmt.Errorf("layers: free disk space of %s: %w", p, err)
	}
	return avail, nil
}
