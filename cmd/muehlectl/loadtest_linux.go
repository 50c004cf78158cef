package main

import (
	"os/exec"
	"syscall"
)

// endWithParent makes the server process that loadtest starts end with
// loadtest, however loadtest ends.
func endWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
