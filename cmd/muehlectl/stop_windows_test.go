package main

import (
	"os"
	"os/exec"
	"syscall"
	"testing"

	"golang.org/x/sys/windows"
)

// ownGroup starts cmd in a process group of its own, so that interrupt's
// Ctrl-Break reaches it and not this test.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// interrupt asks the process p to stop as a user would: Ctrl-Break to its
// process group (which Go delivers as os.Interrupt, as it does Ctrl-C). It
// skips the test where the system cannot send it: Wine, which has no
// console when run from a Unix shell, refuses GenerateConsoleCtrlEvent
// (make test-windows checks Ctrl-C there through Wine's SIGINT instead).
func interrupt(t *testing.T, p *os.Process) {
	t.Helper()
	if err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(p.Pid)); err != nil {
		t.Skipf("Ctrl-Break cannot be sent here: %v", err)
	}
}

// hold would stop the process p where it is; Windows has no signal for it,
// so p goes on, and a test that looks at what p holds may find it moved on
// (as on a fast machine: run such tests on Unix to be sure).
func hold(t *testing.T, p *os.Process) (release func()) {
	return func() {}
}
