package layers

import (
	"errors"
	"path/filepath"
	"runtime"
	"testing"
)

// TestFreeBytes compares FreeBytes with what the system's own tool says
// (df on Unix, dir on Windows: systemFreeBytes) on a folder and on a
// folder that does not exist yet (measured at its parent). The file
// system is shared with other programs, so the two may differ by what was
// written between the calls: a 1 % tolerance.
func TestFreeBytes(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Join(dir, "not", "yet")} {
		got, err := FreeBytes(d)
		switch runtime.GOOS {
		case "linux", "darwin", "freebsd", "windows":
		default:
			if !errors.Is(err, ErrFreeSpaceUnknown) {
				t.Errorf("FreeBytes(%s): got %v, want ErrFreeSpaceUnknown", d, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		want := systemFreeBytes(t, dir)
		if diff := float64(got) - float64(want); diff > 0.01*float64(want) || -diff > 0.01*float64(want) {
			t.Errorf("FreeBytes(%s): got %d, want about %d", d, got, want)
		}
	}
}

// TestAvailableMemory: where the system tells both, the memory available
// is some of the machine's memory.
func TestAvailableMemory(t *testing.T) {
	total, ok1 := TotalMemory()
	avail, ok2 := AvailableMemory()
	if !ok1 || !ok2 {
		t.Skipf("the system tells the total %v, the available %v", ok1, ok2)
	}
	if avail == 0 || avail > total {
		t.Errorf("available %d bytes of %d", avail, total)
	}
}
