package layers

import (
	"path/filepath"
	"runtime"
	"testing"
)

// TestDefaultDir checks the database folder of each system: the variable
// it comes from, and the fallback when neither it nor a home is known.
func TestDefaultDir(t *testing.T) {
	base := t.TempDir()
	if runtime.GOOS == "windows" {
		t.Setenv("LOCALAPPDATA", base)
		if got, want := DefaultDir(), filepath.Join(base, "muehle", "database"); got != want {
			t.Errorf("DefaultDir with LOCALAPPDATA=%s: got %s, want %s", base, got, want)
		}
		t.Setenv("LOCALAPPDATA", "")
	} else {
		t.Setenv("XDG_DATA_HOME", base)
		if got, want := DefaultDir(), filepath.Join(base, "muehle"); got != want {
			t.Errorf("DefaultDir with XDG_DATA_HOME=%s: got %s, want %s", base, got, want)
		}
		t.Setenv("XDG_DATA_HOME", "")
		t.Setenv("HOME", base)
		if got, want := DefaultDir(), filepath.Join(base, ".local", "share", "muehle"); got != want {
			t.Errorf("DefaultDir with HOME=%s: got %s, want %s", base, got, want)
		}
		t.Setenv("HOME", "")
	}
	if got := DefaultDir(); got != "muehle-db" {
		t.Errorf("DefaultDir with no data folder known: got %s, want muehle-db", got)
	}
}
