package layers

import (
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestFreeBytes compares FreeBytes with df on a folder and on a folder
// that does not exist yet (measured at its parent). The file system is
// shared with other programs, so the two may differ by what was written
// between the calls: a 1 % tolerance.
func TestFreeBytes(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Join(dir, "not", "yet")} {
		got, err := FreeBytes(d)
		if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "freebsd" {
			if !errors.Is(err, ErrFreeSpaceUnknown) {
				t.Errorf("FreeBytes(%s): got %v, want ErrFreeSpaceUnknown", d, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
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
		want := kb * 1024
		if diff := float64(got) - float64(want); diff > 0.01*float64(want) || -diff > 0.01*float64(want) {
			t.Errorf("FreeBytes(%s): got %d, want about %d (df)", d, got, want)
		}
	}
}
