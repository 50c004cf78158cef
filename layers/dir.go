package layers

// DefaultDir returns the database directory used when none is named, which
// the desktop program and muehlectl share: on Windows
// %LOCALAPPDATA%\muehle\database (dir_windows.go), elsewhere the folder
// "muehle" in the user's data directory ($XDG_DATA_HOME, else
// ~/.local/share: dir_other.go); or "muehle-db" in the working directory
// when the system does not name that directory.
func DefaultDir() string {
	if d := defaultDir(); d != "" {
		return d
	}
	return "muehle-db"
}
