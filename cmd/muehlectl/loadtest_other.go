//go:build !linux

package main

import "os/exec"

// endWithParent does nothing here: the server process that loadtest
// starts ends when loadtest stops it (loadtest_linux.go has the rest).
func endWithParent(cmd *exec.Cmd) {}
