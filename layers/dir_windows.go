package layers

import (
	"os"
	"path/filepath"
)

// defaultDir returns %LOCALAPPDATA%\muehle\database: the user's data that
// stays on this machine (a database of 29 GB must not travel with a
// roaming profile, as %APPDATA% does). The group-B table's cache
// (DefaultIndexer: os.UserCacheDir, which is %LOCALAPPDATA% on Windows)
// is %LOCALAPPDATA%\muehle, beside the database folder rather than in
// it. "" when %LOCALAPPDATA% is not set.
func defaultDir() string {
	if d := os.Getenv("LOCALAPPDATA"); d != "" {
		return filepath.Join(d, "muehle", "database")
	}
	return ""
}
