package main

import (
	"io"
	"runtime/debug"

	"muehle/layers"
)

// openRecord opens the solve record of db (layers/record.go: every finished
// unit of `muehlectl solve` appends a line) for appending, creating the
// folder and the file when needed.
func openRecord(db *layers.DB) (io.WriteCloser, error) {
	return layers.AppendRecord(db.RecordPath())
}

// commit returns the version control revision the program was built from,
// with "+dirty" when the tree had changes, or "unknown".
func commit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}
