package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"muehle/layers"
)

// This file holds the --rows files of the long measurements (searcherrors,
// tactics, match): a text file of tab-separated rows, one result a line, each
// added as soon as it is computed, so that a run that stops resumes from
// what the file holds. Each command reads and writes its own columns.

// rowLine is a line of a --rows file that holds a row, with its number
// (from 1) for error messages.
type rowLine struct {
	n    int
	text string
}

// readRowLines returns the lines of the --rows file path that hold rows:
// not empty, not a comment (starting with #). A path of "" or a file that
// does not exist yet holds none.
func readRowLines(path string) ([]rowLine, error) {
	if path == "" {
		return nil, nil
	}
	data, err := readInput("--rows", path, maxRowsBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ls []rowLine
	for i, line := range strings.Split(string(data), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			ls = append(ls, rowLine{i + 1, line})
		}
	}
	return ls, nil
}

// appendRowLine adds line (without its newline) to the --rows file path,
// creating it; nothing for a path of "".
func appendRowLine(path, line string) error {
	if path == "" {
		return nil
	}
	f, err := layers.OpenAppendRegular(path)
	if err != nil {
		return inputError("--rows", path, 0, err)
	}
	_, err = fmt.Fprintln(f, line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--rows %s: %w", path, err)
	}
	return nil
}
