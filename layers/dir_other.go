//go:build !windows

package layers

import (
	"os"
	"path/filepath"
)

// defaultDir returns $XDG_DATA_HOME/muehle, else ~/.local/share/muehle;
// "" when the home directory is unknown.
func defaultDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "muehle")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "muehle")
	}
	return ""
}
