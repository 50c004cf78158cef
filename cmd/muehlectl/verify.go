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

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify", "[--db DIR] [--stones K] [--layer KEY]", stderr)
	dbf := addDBFlags(fs)
	only := fs.String("layer", "", "verify only this layer, e.g. 3-4")
	limit := fs.Int("limit", 10, "mismatches to list per layer")
	workers := fs.Int("workers", 0, "goroutines (0 = one per core)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, err := dbf.open()
	if err != nil {
		return err
	}
	defer db.Close()
	var keys []layers.Key
	if *only != "" {
		k, err := layers.ParseKey(*only)
		if err != nil {
			return err
		}
		keys = []layers.Key{k}
	} else {
		keys = present(db, true)
	}
	if len(keys) == 0 {
		return fmt.Errorf("no layers in %s for k=%d", *dbf.dir, *dbf.stones)
	}
	bad := 0
	for _, k := range keys {
		start := time.Now()
		var done atomic.Uint64
		ms, err := retro.VerifyLayer(ctx, db, k, *workers, *limit, &done)
		for _, m := range ms {
			fmt.Fprintf(stdout, "MISMATCH %v\n", m)
		}
		if err != nil {
			fmt.Fprintf(stdout, "%-10s FAILED: %v\n", k, err)
			bad++
			if ctx.Err() != nil {
				return ctx.Err()
			}
			continue
		}
		if len(ms) > 0 {
			bad++
		}
		fmt.Fprintf(stdout, "%-10s %12d slots  ok=%v  %s\n", k, done.Load(), len(ms) == 0, time.Since(start).Round(time.Millisecond))
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d layers failed verification", bad, len(keys))
	}
	fmt.Fprintf(stdout, "all %d layers verified\n", len(keys))
	return nil
}
