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

// hold stops the process p where it is (SIGSTOP), so that a test can look
// at what it holds without racing it, and returns what lets it go on
// (SIGCONT).
func hold(t *testing.T, p *os.Process) (release func()) {
	t.Helper()
	if err := p.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := p.Signal(syscall.SIGCONT); err != nil {
			t.Error(err)
		}
	}
}
