package main

import (
	"context"
	"fmt"
	"io"

	"muehle/layers"
	"muehle/retro"
)

func init() {
	register("stats", "per-layer counts of won, lost and drawn positions", runStats)
}

// statsArgs are the checked flags of stats.
type statsArgs struct {
	db   dbFlags
	opts retro.SolveOptions
}

// parseStats parses and checks the flags of stats.
func parseStats(args []string, stderr io.Writer) (statsArgs, error) {
	fs := newFlags("stats", "[--db DIR] [--stones K] [--max-stones N] [--placement | --all-phases]", stderr)
	a := statsArgs{db: addDBFlags(fs)}
	sel := addLayerFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return a, err
	}
	opts, err := sel.options(*a.db.stones)
	if err == nil {
		err = a.db.check()
	}
	if err != nil {
		return a, flagError(fs, err)
	}
	a.opts = opts
	return a, nil
}

// runStats prints a line per layer the chosen game should have: "3-3 won
// lost drawn deepest-win deepest-loss", or why the layer is missing or
// damaged, and then fails.
func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parseStats(args, stderr)
	if err != nil {
		return err
	}
	db, err := a.db.openExisting()
	if err != nil {
		return err
	}
	defer db.Close()
	keys := retro.Layers(db, a.opts)
	missing, damaged := 0, 0
	for _, k := range keys {
		st, err := db.Check(k)
		switch st {
		case layers.StatusMissing:
			missing++
			fmt.Fprintf(stdout, "%s missing\n", k)
			continue
		case layers.StatusDamaged:
			damaged++
			fmt.Fprintf(stdout, "%s damaged: %v\n", k, err)
			continue
		}
		f, err := db.Layer(k)
		if err != nil {
			return err
		}
		h := f.Header()
		win, loss := fmt.Sprint(h.DeepestWin), fmt.Sprint(h.DeepestLoss)
		if h.Won == 0 {
			win = "-"
		}
		if h.Lost == 0 {
			loss = "-"
		}
		fmt.Fprintf(stdout, "%s %d %d %d %s %s\n", k, h.Won, h.Lost, h.Drawn, win, loss)
	}
	if missing+damaged > 0 {
		return fmt.Errorf("of %d layers in %s (k=%d), %d are missing and %d damaged; solve computes them", len(keys), *a.db.dir, *a.db.stones, missing, damaged)
	}
	return nil
}
