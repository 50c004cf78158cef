package main

import (
	"context"
	"fmt"
	"io"

	"muehle/layers"
	"muehle/retro"
)

func init() {
	register("convert", "rewrite placement layers of one byte per slot as dense files", runConvert)
}

// runConvert rewrites the placement layers that the reachable sweep wrote
// before the dense files (one byte per slot, the unreachable classes
// Unused) as dense files with the same values (retro.ConvertDense): the
// 9-stone game's placement layers shrink from 16.7 GiB to 5.1 GiB. Such
// layers are read as they are; converting only saves disk. It is safe to
// interrupt and to run again, and keeps each layer's verification.
func runConvert(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("convert", "[--db DIR] [--stones K]", stderr)
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
	before := placementBytes(db)
	n, err := retro.ConvertDense(ctx, db, func(k layers.Key, i, n int) {
		fmt.Fprintf(stdout, "layer %d of %d  %s\n", i+1, n, k)
	}, func(s string) { fmt.Fprintln(stdout, s) })
	after := placementBytes(db)
	if n == 0 && err == nil {
		fmt.Fprintf(stdout, "nothing to convert: no placement layer of one byte per slot with holes in %s\n", layers.GameDir(db.Dir(), db.Stones()))
		return nil
	}
	fmt.Fprintf(stdout, "%d layers converted; placement layers %s before, %s now\n", n, sizeText(int64(before)), sizeText(int64(after)))
	return err
}

// placementBytes returns the size of the placement layers' files of db.
func placementBytes(db *layers.DB) uint64 {
	var n uint64
	for _, k := range layers.PlacementLayers(db.Stones()) {
		if h, err := db.Header(k); err == nil {
			n += layers.HeaderSize + h.BodySize()
		}
	}
	return n
}
