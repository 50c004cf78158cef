//go:build !windows

package dbservice

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// resetPeakMemory resets the kernel's record of this process's peak
// resident memory (Linux; elsewhere it does nothing), so that peakMemory
// reports the peak of what follows.
func resetPeakMemory() {
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakMemory returns the peak resident memory in bytes since the last
// reset, or 0 when the system does not say. It counts the pages of mapped
// files the process has in memory too, once for each mapping: the layers
// DB keeps the mappings it no longer uses out of it (DB.retireLocked).
func peakMemory() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
