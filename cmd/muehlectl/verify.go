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
	sample  int    // --sample: slots re-derived per layer, 0 for all
	seed    uint64 // --seed of the sample
}

// parseVerify parses and checks the flags of verify.
func parseVerify(args []string, stderr io.Writer) (verifyArgs, error) {
	fs := newFlags("verify", "[--db DIR] [--stones K] [--max-stones N] [--placement | --all-phases] [--layer KEY[,KEY…]] [--sample N [--seed S]]", stderr)
	a := verifyArgs{db: addDBFlags(fs)}
	sel := addLayerFlags(fs)
	only := fs.String("layer", "", "verify only these layers, e.g. 3-4 or \"9-9,8-9,p5+2-4+2\"")
	sample := fs.Int("sample", 0, "re-derive only `N` stored slots of each layer, drawn at random (0: every slot); a sample checks values, not which slots are stored, and records nothing")
	seed := fs.Uint64("seed", 1, "seed of --sample")
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
	if err == nil {
		err = inRange("--sample", *sample, 0, 100_000_000, "")
	}
	if err == nil && *only != "" {
		a.keys, err = a.db.layerKeys(*only)
	}
	if err != nil {
		return a, flagError(fs, err)
	}
	a.opts, a.limit, a.workers, a.sample, a.seed = opts, *limit, *workers, *sample, *seed
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
		if state == "ok" || state == "sampled" {
			detail += "  " + time.Since(start).Round(time.Millisecond).String()
		}
		fmt.Fprintf(stdout, "%-10s %-8s %s\n", k, state, detail)
	}
	if n := len(keys) - count["ok"] - count["sampled"]; n > 0 {
		return fmt.Errorf("%d of %d layers not verified: %d missing, %d damaged, %d wrong, %d failed",
			n, len(keys), count["missing"], count["damaged"], count["wrong"], count["failed"])
	}
	if a.sample > 0 {
		fmt.Fprintf(stdout, "samples of all %d layers re-derived from their children, no mismatch (nothing recorded: a sample is not the full verification)\n", len(keys))
		return nil
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
	if a.sample > 0 {
		return sampleOne(ctx, db, k, a, w)
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

// sampleOne re-derives a sample of layer k's stored values (--sample) and
// returns its state ("sampled", "wrong" or "failed") and a detail; it
// lists mismatches on w.
func sampleOne(ctx context.Context, db *layers.DB, k layers.Key, a verifyArgs, w io.Writer) (string, string) {
	n, ms, err := retro.VerifySample(ctx, db, k, a.sample, a.seed, a.limit)
	for _, m := range ms {
		fmt.Fprintf(w, "MISMATCH %v\n", m)
	}
	switch {
	case len(ms) > 0:
		return "wrong", fmt.Sprintf("in a sample of %d slots", n)
	case err != nil:
		return "failed", err.Error()
	}
	return "sampled", fmt.Sprintf("%12d slots re-derived", n)
}
