//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// ownGroup prepares cmd so that interrupt reaches it alone: nothing to do
// on Unix.
func ownGroup(cmd *exec.Cmd) {}

// interrupt asks the process p to stop as a user or the system would:
// SIGTERM.
func interrupt(t *testing.T, p *os.Process) {
	t.Helper()
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
}
