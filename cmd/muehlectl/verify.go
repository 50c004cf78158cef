package main

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"muehle/layers"
	"muehle/retro"
)

func init() {
	register("verify", "recompute every stored value from its children", runVerify)
}

// verifyArgs are the checked flags of verify.
type verifyArgs struct {
	db      dbFlags
	keys    []layers.Key // --layer, else nil: the layers of opts
	opts    retro.SolveOptions
	limit   int
	workers int
}

// parseVerify parses and checks the flags of verify.
func parseVerify(args []string, stderr io.Writer) (verifyArgs, error) {
	fs := newFlags("verify", "[--db DIR] [--stones K] [--max-stones N] [--placement | --all-phases] [--layer KEY]", stderr)
	a := verifyArgs{db: addDBFlags(fs)}
	sel := addLayerFlags(fs)
	only := fs.String("layer", "", "verify only this layer, e.g. 3-4 or p5+2-4+2")
	limit := fs.Int("limit", 10, "mismatches to list per layer (1 to 1000)")
	workers := addWorkers(fs)
	if err := parseFlags(fs, args); err != nil {
		return a, err
	}
	opts, err := sel.options(a.db.perSide())
	if err == nil {
		err = a.db.check()
	}
	if err == nil {
		err = checkWorkers(*workers)
	}
	if err == nil {
		err = inRange("--limit", *limit, 1, 1000, "")
	}
	if err == nil && *only != "" {
		var k layers.Key
		if k, err = layers.ParseKey(*only); err == nil && !layers.ValidIn(a.db.variant(), k) {
			err = fmt.Errorf("--layer %s: not a layer of the %d-stone game", k, *a.db.stones)
		}
		a.keys = []layers.Key{k}
	}
	if err != nil {
		return a, flagError(fs, err)
	}
	a.opts, a.limit, a.workers = opts, *limit, *workers
	return a, nil
}

// runVerify lists every layer the chosen game should have and checks each:
// missing, damaged (a file that fails its checks), wrong (a value its
// children contradict) or verified. It records each verified layer, as
// solve does, and fails when any layer is not verified.
func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parseVerify(args, stderr)
	if err != nil {
		return err
	}
	db, err := a.db.openExisting()
	if err != nil {
		return err
	}
	defer db.Close()
	keys := a.keys
	if keys == nil {
		keys = retro.Layers(db, a.opts)
	}
	count := map[string]int{}
	for _, k := range keys {
		start := time.Now()
		state, detail := verifyOne(ctx, db, k, a, stdout)
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while verifying %s: %w", k, ctx.Err())
		}
		count[state]++
		if state == "ok" {
			detail += "  " + time.Since(start).Round(time.Millisecond).String()
		}
		fmt.Fprintf(stdout, "%-10s %-8s %s\n", k, state, detail)
	}
	if n := len(keys) - count["ok"]; n > 0 {
		return fmt.Errorf("%d of %d layers not verified: %d missing, %d damaged, %d wrong, %d failed",
			n, len(keys), count["missing"], count["damaged"], count["wrong"], count["failed"])
	}
	fmt.Fprintf(stdout, "all %d layers verified\n", len(keys))
	return nil
}

// verifyOne checks layer k and returns its state ("ok", "missing",
// "damaged", "wrong" or "failed") and a detail; it lists mismatches on w.
func verifyOne(ctx context.Context, db *layers.DB, k layers.Key, a verifyArgs, w io.Writer) (string, string) {
	switch st, err := db.Check(k); st {
	case layers.StatusMissing:
		return "missing", ""
	case layers.StatusDamaged:
		return "damaged", err.Error()
	}
	var done atomic.Uint64
	ms, err := retro.VerifyLayer(ctx, db, k, a.workers, a.limit, &done)
	for _, m := range ms {
		fmt.Fprintf(w, "MISMATCH %v\n", m)
	}
	switch {
	case len(ms) > 0:
		return "wrong", fmt.Sprintf("%d slots checked; solve removes and recomputes it", done.Load())
	case err != nil:
		return "failed", err.Error()
	}
	detail := fmt.Sprintf("%12d slots", done.Load())
	if err := db.MarkVerified(k); err != nil {
		detail += " (not recorded: " + err.Error() + ")"
	}
	return "ok", detail
}
