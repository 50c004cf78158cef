package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"muehle/retro/dbservice"
)

func init() {
	register("repair", "recompute the damaged layers, and the missing ones they need (as the window's Recompute damaged layers)", runRepair)
}

// runRepair recomputes the damaged layers of a database folder with the
// window's repair policy (dbservice.RepairOptions): the moving layers up
// to the largest damaged one, and the placement layers if one of them is
// damaged. It checks every layer file completely first.
func runRepair(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("repair", "[--db DIR] [--game G] [--stones K] [--workers N]", stderr)
	dbf := addDBFlags(fs)
	workers := addWorkers(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	err := dbf.check()
	if err == nil {
		err = checkWorkers(*workers)
	}
	if err != nil {
		return flagError(fs, err)
	}
	db, err := dbf.openExisting()
	if err != nil {
		return err
	}
	defer db.Close()
	dbservice.CheckAll(db)
	opts, ok := dbservice.RepairOptions(db)
	if !ok {
		fmt.Fprintf(stdout, "database %s (%s): no damaged layer\n", *dbf.dir, dbf.label())
		return nil
	}
	var names []string
	for _, k := range dbservice.Damaged(db) {
		names = append(names, k.String())
	}
	fmt.Fprintf(stdout, "database %s (%s): damaged: %s\n", *dbf.dir, dbf.label(), strings.Join(names, ", "))
	opts.Workers = *workers
	return solveTasks(ctx, db, dbf, opts, stdout, stderr)
}
