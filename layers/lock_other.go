//go:build !unix && !windows

package layers

// processAlive cannot tell here; the lock's heartbeat decides alone.
func processAlive(pid int) bool { return pid > 0 }
