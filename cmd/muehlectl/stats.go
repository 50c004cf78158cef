package main

import (
	"context"
	"fmt"
	"io"
)

func init() {
	register("stats", "per-layer counts of won, lost and drawn positions", runStats)
}

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("stats", "[--db DIR] [--stones K] [--placement]", stderr)
	dbf := addDBFlags(fs)
	placement := fs.Bool("placement", false, "list the placement layers too")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, err := dbf.open()
	if err != nil {
		return err
	}
	defer db.Close()
	keys := present(db, *placement)
	if len(keys) == 0 {
		return fmt.Errorf("no layers in %s for k=%d", *dbf.dir, *dbf.stones)
	}
	for _, k := range keys {
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
	return nil
}
