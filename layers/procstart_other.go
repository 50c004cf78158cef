//go:build !linux && !windows

package layers

// processStart cannot tell here; the lock's process id and heartbeat
// decide alone.
func processStart(pid int) (uint64, bool) { return 0, false }
