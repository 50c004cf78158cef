package main

import (
	"context"
	"fmt"
	"io"

	"muehle/retro/dbservice"
)

func init() {
	register("status", "what a database folder holds: its layers as the window's Database tab shows them", runStatus)
}

// runStatus prints what a database folder holds (dbservice.Describe), the
// tables of the window's Database tab; with --check after checking every
// layer file completely, so that a damaged body is marked too.
func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("status", "[--db DIR] [--game G] [--stones K] [--check]", stderr)
	dbf := addDBFlags(fs)
	check := fs.Bool("check", false, "check every layer file completely (header, size, body checksum) first, as repair does; else only the headers are read")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := dbf.check(); err != nil {
		return flagError(fs, err)
	}
	db, err := dbf.openExisting()
	if err != nil {
		return err
	}
	defer db.Close()
	if *check {
		dbservice.CheckAll(db)
	}
	if old := dbservice.OldOf(db); old.Layers > 0 {
		fmt.Fprintf(stdout, "%s\n\n", old.Words())
	}
	fmt.Fprintln(stdout, dbservice.Describe(db, dbservice.Busy{}).Text)
	return nil
}
