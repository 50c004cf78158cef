package layers

import (
	"errors"

	"golang.org/x/sys/windows"
)

// processAlive reports whether a process with this id runs on this host:
// one that can be opened and has not ended. A process of another user
// that cannot be opened (access denied) counts as alive.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	// An ended process stays openable while some handle to it is open:
	// it is alive only while waiting for it would wait.
	ev, err := windows.WaitForSingleObject(h, 0)
	return err == nil && ev == uint32(windows.WAIT_TIMEOUT)
}
