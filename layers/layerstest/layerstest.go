// Package layerstest holds helpers for the tests of layers and the
// packages above it; only tests import it (TestImportGraph checks).
package layerstest

import (
	"os"
	"os/exec"
	"testing"
)

// DeadPID returns the id of a process that has ended: a run of the test
// binary that runs no test.
func DeadPID(tb testing.TB) int {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		tb.Fatal(err)
	}
	return cmd.Process.Pid
}
