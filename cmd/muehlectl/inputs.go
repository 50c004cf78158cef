package main

import (
	"errors"
	"fmt"
	"os"

	"muehle/layers"
)

// Every file a command reads or writes at a path given on its command
// line (a package and its parts, a game record, a --rows file, a solve
// record for plan --calibrate, a placement book, review --write) is opened
// through layers.OpenRegular and its kin, as every file of a database
// folder is: without blocking, and only when it is a regular file, so
// that a FIFO waits for nobody and /dev/zero or /dev/stdin is not read
// without end; a file read whole is read up to a bound. The functions
// below word the refusal for a person. TestFileInputs lists the inputs
// and tries a FIFO and /dev/zero on each.

// maxRowsBytes bounds a --rows file: the longest measurement's rows
// take a few megabytes.
const maxRowsBytes = 256 << 20

// readInput reads the regular file at path, given for what (a flag, or
// "the game record"), at most limit bytes.
func readInput(what, path string, limit int64) ([]byte, error) {
	b, err := layers.ReadRegular(path, limit)
	return b, inputError(what, path, limit, err)
}

// inputError words an error of opening or reading the file at path.
func inputError(what, path string, limit int64, err error) error {
	if err == nil || errors.Is(err, os.ErrNotExist) {
		return err
	}
	if errors.Is(err, layers.ErrFormat) {
		if fi, serr := os.Stat(path); serr == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return fmt.Errorf("%s %s: not a regular file (%v): give a file, not a pipe, FIFO or device", what, path, fi.Mode().Type())
		}
		if limit > 0 {
			return fmt.Errorf("%s %s: more than %d MiB, too large for it", what, path, limit>>20)
		}
	}
	return fmt.Errorf("%s %s: %w", what, path, err)
}
