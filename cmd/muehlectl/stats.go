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
	opts, err := sel.options(a.db.perSide())
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
	missing, damaged, err := checkLayers(db, keys, func(k layers.Key, h layers.Header, _ layers.Status) {
		fmt.Fprintf(stdout, "%s %d %d %d %s %s\n", k, h.Won, h.Lost, h.Drawn, depth(h.DeepestWin, h.Won), depth(h.DeepestLoss, h.Lost))
	}, func(k layers.Key, what string) {
		fmt.Fprintf(stdout, "%s %s\n", k, what)
	})
	if err != nil {
		return err
	}
	if missing+damaged > 0 {
		return fmt.Errorf("of %d layers in %s (k=%d), %d are missing and %d damaged; solve computes them", len(keys), *a.db.dir, *a.db.stones, missing, damaged)
	}
	return nil
}

// checkLayers checks each layer of keys fully (db.Check) and calls sound
// with the header and status of every sound one and bad with "missing" or
// "damaged: why" for the others, in order; it returns how many were
// missing and damaged.
func checkLayers(db *layers.DB, keys []layers.Key, sound func(k layers.Key, h layers.Header, st layers.Status), bad func(k layers.Key, what string)) (missing, damaged int, err error) {
	for _, k := range keys {
		st, cerr := db.Check(k)
		switch st {
		case layers.StatusMissing:
			missing++
			bad(k, "missing")
			continue
		case layers.StatusDamaged:
			damaged++
			bad(k, fmt.Sprintf("damaged: %v", cerr))
			continue
		}
		h, err := db.Header(k) // not Layer: a compressed layer would be decoded, its won depths found, for its header
		if err != nil {
			return missing, damaged, err
		}
		sound(k, h, st)
	}
	return missing, damaged, nil
}

// depth formats a deepest depth, "-" when there is no such position (n = 0).
func depth(d int, n uint64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(d)
}
