package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"muehle/retro"
)

func init() {
	register("solve", "compute missing database layers (resumable)", runSolve)
}

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("solve", "[--db DIR] [--stones K] [--max-stones N] [--placement | --all-phases]", stderr)
	dbf := addDBFlags(fs)
	maxStones := fs.Int("max-stones", 0, "solve only moving layers with at most `N` stones on the board (0 = all)")
	placement := fs.Bool("placement", false, "also compute the placement layers (needs all moving layers)")
	all := fs.Bool("all-phases", false, "the whole game: all moving layers, then the placement layers")
	workers := fs.Int("workers", 0, "goroutines (0 = one per core)")
	mem := fs.Int64("mem", 0, "memory budget in MiB for the solver state; larger pairs spill to a mapped file (0 = 3/4 of RAM)")
	noVerify := fs.Bool("no-verify", false, "skip verifying each finished layer")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *all {
		*placement, *maxStones = true, 0
	}
	db, err := dbf.open()
	if err != nil {
		return err
	}
	defer db.Close()
	opts := retro.SolveOptions{
		MaxStones:  *maxStones,
		Placement:  *placement,
		Workers:    *workers,
		MemBytes:   *mem << 20,
		SkipVerify: *noVerify,
	}
	if *placement && *maxStones > 0 {
		return errors.New("--placement needs every moving layer; drop --max-stones")
	}
	missing := retro.Missing(db, opts)
	if len(missing) == 0 {
		fmt.Fprintf(stdout, "database %s (k=%d): nothing to do, every requested layer is complete\n", *dbf.dir, *dbf.stones)
		return nil
	}
	fmt.Fprintf(stdout, "database %s (k=%d): %d units to compute\n", *dbf.dir, *dbf.stones, len(missing))
	show := newSolveProgress(stderr)
	opts.Progress = show.update
	start := time.Now()
	err = retro.Solve(ctx, db, opts)
	show.finish()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted after %s; run again to resume: %w", time.Since(start).Round(time.Second), err)
		}
		return err
	}
	fmt.Fprintf(stdout, "done in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}
