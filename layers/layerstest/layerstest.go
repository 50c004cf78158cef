// Package layerstest holds helpers for the tests of layers and the
// packages above it; only tests import it (TestImportGraph checks).
package layerstest

import (
	"os"
	"os/exec"
	"strings"
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

// DeletedMappings returns the files under dir that this process still
// maps although they are deleted (/proc/self/maps; the test is skipped
// where there is none): a layer file replaced, whose disk space stays
// taken while it is mapped.
func DeletedMappings(tb testing.TB, dir string) []string {
	tb.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		tb.Skipf("no /proc/self/maps: %v", err)
	}
	var names []string
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, dir); i >= 0 && strings.HasSuffix(line, " (deleted)") {
			names = append(names, line[i:])
		}
	}
	return names
}
