package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"muehle/layers"
	"muehle/retro/dbservice"
)

func init() {
	register("compress", "keep a folder's verified layers compressed, in place", runCompress)
}

// runCompress rewrites every verified layer of a folder's game compressed
// (dbservice.Compress, which the Database tab runs too: blocks coded one
// by one, decoded again and compared byte for byte before the file is
// replaced; the header, the block file and the verification record
// stay). It is safe to interrupt and to run again: a layer is replaced in
// one rename, and the layers compressed already are skipped. It refuses
// to start when the folder's disk lacks the room of the largest layer's
// temporary file. It compares --sample positions of each layer, drawn at
// random, read through a database opened afresh with the values read
// before.
func runCompress(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compress", "[--db DIR] [--game G] [--stones K] [--sample N]", stderr)
	dbf := addDBFlags(fs)
	sample := fs.Int("sample", 1000, "positions of each layer compared before and after")
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
	start := time.Now()
	res, err := dbservice.Compress(ctx, db, dbservice.CompressRun{Sample: *sample, OwnDB: true, Layer: func(r dbservice.LayerResult) {
		state := "compressed"
		if !r.Done {
			state = "left as it is"
		}
		h := r.Header
		fmt.Fprintf(stdout, "layer %d of %d  %-10s %s, %s: %s -> %s (%.3f bits per stored value) in %v\n",
			r.Step, r.Steps, r.Key, state, kindOf(h), sizeText(r.Before), sizeText(r.After), 8*float64(r.After)/float64(max(1, h.Won+h.Lost+h.Drawn)), r.Took.Round(time.Millisecond))
	}})
	if err != nil {
		return err
	}
	if res.Done+res.Left == 0 {
		fmt.Fprintf(stdout, "no verified layer in %s\n", db.GameDir())
		return nil
	}
	fmt.Fprintf(stdout, "%d layers compressed, %d left as they are (compressed already, or not smaller compressed), %d not verified (left as they are); layer files %s before, %s now; %d positions of each layer compared in %v\n",
		res.Done, res.Left, res.Unverified, sizeText(res.Before), sizeText(res.After), *sample, time.Since(start).Round(time.Second))
	return nil
}

// kindOf names a layer's kind in the lines of compress.
func kindOf(h layers.Header) string {
	switch {
	case h.Key.IsMoving():
		return "moving"
	case h.Dense():
		return "placement, dense"
	}
	return "placement"
}
