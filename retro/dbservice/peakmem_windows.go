package dbservice

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// resetPeakMemory does nothing on Windows, which keeps no peak but the
// one since the process started: peakMemory reports that one, so after
// the first unit of a solve a unit's peak may be an earlier unit's.
func resetPeakMemory() {}

// processMemoryCounters is the PROCESS_MEMORY_COUNTERS of
// GetProcessMemoryInfo.
type processMemoryCounters struct {
	cb                         uint32
	pageFaultCount             uint32
	peakWorkingSetSize         uintptr
	workingSetSize             uintptr
	quotaPeakPagedPoolUsage    uintptr
	quotaPagedPoolUsage        uintptr
	quotaPeakNonPagedPoolUsage uintptr
	quotaNonPagedPoolUsage     uintptr
	pagefileUsage              uintptr
	peakPagefileUsage          uintptr
}

var getProcessMemoryInfo = windows.NewLazySystemDLL("kernel32.dll").NewProc("K32GetProcessMemoryInfo")

// peakMemory returns the peak working set of the process in bytes since it
// started, or 0 when the system does not say.
func peakMemory() uint64 {
	c := processMemoryCounters{cb: uint32(unsafe.Sizeof(processMemoryCounters{}))}
	r, _, _ := getProcessMemoryInfo.Call(uintptr(windows.CurrentProcess()), uintptr(unsafe.Pointer(&c)), uintptr(c.cb))
	if r == 0 {
		return 0
	}
	return uint64(c.peakWorkingSetSize)
}
