package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"muehle/layers"
	"muehle/muehle"
)

func init() {
	register("query", "value and depth of a position and of each of its moves", runQuery)
}

func runQuery(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("query", "--position TEXT [--db DIR] [--stones K]", stderr)
	dbf := addDBFlags(fs)
	text := fs.String("position", "", "the position, e.g. \"........................ w 9 9\" (see muehle/doc.go)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *text == "" {
		fs.Usage()
		return errUsage
	}
	pos, err := muehle.ParsePosition(*text)
	if err != nil {
		return err
	}
	if err := pos.Validate(*dbf.stones); err != nil {
		return err
	}
	db, err := dbf.open()
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
	fmt.Fprintf(stdout, "value    %s\n", describe(db.Probe(pos)))

	type row struct {
		m   muehle.Move
		v   layers.Value
		err error
	}
	var rows []row
	for _, m := range pos.Moves() {
		v, err := db.Probe(pos.Play(m))
		rows = append(rows, row{m, v.Parent(), err})
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		switch {
		case a.err != nil || b.err != nil:
			return boolInt(a.err != nil) - boolInt(b.err != nil)
		case a.v.Better(b.v):
			return -1
		case b.v.Better(a.v):
			return 1
		}
		return 0
	})
	if len(rows) == 0 {
		fmt.Fprintln(stdout, "no legal moves: the game is over")
		return nil
	}
	fmt.Fprintf(stdout, "%d moves, best first (the value each gives the side to move):\n", len(rows))
	for _, r := range rows {
		fmt.Fprintf(stdout, "  %-10s %s\n", r.m, describe(r.v, r.err))
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// describe renders a probed value, or why there is none.
func describe(v layers.Value, err error) string {
	switch {
	case errors.Is(err, layers.ErrMissing):
		return "layer missing"
	case err != nil:
		return "error: " + err.Error()
	}
	return v.String()
}
