//go:build unix

package layers

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// systemFreeBytes returns the space df says is available on the file
// system of dir; it skips the test when there is no df.
func systemFreeBytes(t *testing.T, dir string) uint64 {
	t.Helper()
	out, err := exec.Command("df", "-Pk", dir).Output()
	if err != nil {
		t.Skipf("no df to compare with: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) < 4 {
		t.Fatalf("df output %q", out)
	}
	kb, err := strconv.ParseUint(f[3], 10, 64)
	if err != nil {
		t.Fatalf("df output %q: %v", out, err)
	}
	return kb * 1024
}
