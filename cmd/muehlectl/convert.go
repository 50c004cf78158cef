package main

import (
	"context"
	"fmt"
	"io"

	"muehle/layers"
	"muehle/retro/dbservice"
)

func init() {
	register("convert", "rewrite the layers of an older format in this one", runConvert)
}

// runConvert rewrites the layers of the format before (layers.OldVersion:
// the slots in the order before, placement layers of one byte per slot)
// in this format, with the same values (retro.ConvertOld): the 9-stone
// game's placement layers shrink from 16.7 GiB to 5.1 GiB. This program
// reads no layer of the format before, and solves nothing in a folder
// that has one. It is safe to interrupt and to run again, and keeps each
// layer's verification.
func runConvert(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("convert", "[--db DIR] [--game G] [--stones K]", stderr)
	dbf := addDBFlags(fs)
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
	before := layerBytes(db)
	step := 0
	n, err := dbservice.Convert(ctx, db, dbservice.ConvertRun{Progress: func(p dbservice.Progress) {
		if p.Step != step { // a layer begins (the reports between are the window's)
			step = p.Step
			fmt.Fprintf(stdout, "layer %d of %d  %s  %s\n", p.Step, p.Steps, p.Unit, p.LeftWords())
		}
	}, Skipped: func(s string) { fmt.Fprintln(stdout, s) }})
	after := layerBytes(db)
	if n == 0 && err == nil {
		fmt.Fprintf(stdout, "nothing to convert: no layer of the format before in %s\n", db.GameDir())
		return nil
	}
	fmt.Fprintf(stdout, "%d layers converted; layer files %s before, %s now\n", n, sizeText(int64(before)), sizeText(int64(after)))
	return err
}

// layerBytes returns the size of the layer files of db's game, of either
// format.
func layerBytes(db *layers.DB) uint64 {
	var n uint64
	for _, k := range layers.Order(db.Stones(), true) {
		h, err := db.Header(k)
		if err != nil {
			h, err = db.OldHeader(k)
		}
		if err == nil {
			n += layers.HeaderSize + h.BodySize()
		}
	}
	return n
}
