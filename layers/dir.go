package layers

import (
	"os"
	"path/filepath"
)

// DefaultDir returns the database directory used when none is named: the
// folder "muehle" in the user's data directory ($XDG_DATA_HOME, else
// ~/.local/share), or "muehle-db" in the working directory when the home
// directory is unknown. The desktop program and muehlectl share it.
func DefaultDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "muehle")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "muehle")
	}
	return "muehle-db"
}
