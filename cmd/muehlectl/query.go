package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

func init() {
	register("query", "value and depth of a position and of each of its moves", runQuery)
}

func runQuery(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlags("query", "--position TEXT [--db DIR] [--stones K]", stderr)
	dbf := addDBFlags(fs)
	text := fs.String("position", "", "the position, e.g. \"........................ w 9 9\" (see muehle/doc.go)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *text == "" {
		return flagError(fs, fmt.Errorf("--position: want a position text"))
	}
	if err := dbf.check(); err != nil {
		return flagError(fs, err)
	}
	pos, err := muehle.ParsePosition(*text)
	if err != nil {
		return err
	}
	if err := pos.Validate(*dbf.stones); err != nil {
		return err
	}
	db, err := dbf.openExisting()
	if err != nil {
		return err
	}
	defer db.Close()

	key := layers.KeyOf(pos)
	fmt.Fprintf(stdout, "position %s\nlayer    %s", pos, key)
	if i, ok := db.Indexer().Layer(key).IndexChecked(pos); ok {
		fmt.Fprintf(stdout, " index %d", i)
	}
	fmt.Fprintln(stdout)
	value, verr := db.Probe(pos)
	fmt.Fprintf(stdout, "value    %s\n", describe(value, verr))
	if verr != nil {
		defer func() { // after the moves: query fails when it has no value
			if err == nil {
				err = fmt.Errorf("no value for the position: %w", verr)
			}
		}()
	}

	if pos.IsOver() {
		fmt.Fprintln(stdout, "no legal moves: the game is over")
		return nil
	}
	// The perfect player's own evaluation ranks the moves: by value, then
	// by the share of the opponent's replies that give up value.
	mvs, err := play.NewPerfect(db, nil, nil).Evaluate(pos)
	if err != nil {
		fmt.Fprintf(stdout, "moves    %s\n", describe(layers.Unused, err))
		return nil
	}
	fmt.Fprintf(stdout, "%d moves, best first (the value each gives the side to move; the opponent's replies won/drawn/lost for the opponent):\n", len(mvs))
	for _, mv := range mvs {
		fmt.Fprintf(stdout, "  %-10s %-12s replies %d/%d/%d\n", mv.Move, mv.Value,
			mv.Replies[play.ReplyWins], mv.Replies[play.ReplyDraws], mv.Replies[play.ReplyLoses])
	}
	return nil
}

// describe renders a probed value, or why there is none.
func describe(v layers.Value, err error) string {
	if k, ok := layers.Damaged(err); ok {
		return fmt.Sprintf("layer %s damaged (solve recomputes it)", k)
	}
	switch {
	case errors.Is(err, layers.ErrMissing):
		return "layer missing"
	case err != nil:
		return "error: " + err.Error()
	}
	return v.String()
}
