package main

import (
	"io"

	"muehle/layers"
	"muehle/retro/dbservice"
)

// openRecord opens the solve record of db (layers/record.go: every finished
// unit of `muehlectl solve` appends a line) for appending, creating the
// folder and the file when needed.
func openRecord(db *layers.DB) (io.WriteCloser, error) {
	return layers.AppendRecord(db.RecordPath())
}

// commit returns the version control revision the program was built from
// (dbservice.Commit).
func commit() string { return dbservice.Commit() }
