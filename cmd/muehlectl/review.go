package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/teach"
)

func init() {
	register("review", "the database's verdict on every move of a game record", runReview)
}

// refuteMax bounds the refutation line printed by review --refute.
const refuteMax = 60

// runReview prints the review of a game record, one move a line: the
// position's value before the move and the move's value, from the mover's
// view, "?" where the move gave up value, and the best move beside every
// move that is not of the best value. Exit status 1 when a move cannot be
// judged (a layer missing or damaged), after the table.
func runReview(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("review", "[--db DIR] [--refute N] [--write FILE] [--stored] [--unreachable] [--mem MiB] GAMEFILE", stderr)
	dir := fs.String("db", layers.DefaultDir(), "database `directory` (the stones per side come from the record)")
	refute := fs.Int("refute", 0, "also print the refutation of move `N` (as numbered in the first column): the opponent's best line to the next removal or the end")
	write := fs.String("write", "", "write the record with the verdicts as comments to `FILE` (see docs/records.md)")
	stored := fs.Bool("stored", false, "print the verdicts the record keeps in its comments, without the database")
	unreachable := addUnreachableFlag(fs)
	mem := addCacheFlag(fs)
	file, err := parseReviewArgs(fs, args)
	if err != nil {
		return err
	}
	text, err := readRecordFile(file)
	if err != nil {
		return fmt.Errorf("reading the game: %w", err)
	}
	g, comments, err := muehle.ParseRecordWithComments(string(text))
	if err == nil {
		err = play.Supported(g.Rules())
	}
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if err := checkReachable(stdout, g.Start(), g.Stones(), *unreachable); err != nil {
		return fmt.Errorf("%s: the start position: %w", file, err)
	}
	if *refute < 0 || *refute > g.Ply() {
		return flagError(fs, fmt.Errorf("--refute %d: the game has %d moves", *refute, g.Ply()))
	}
	if err := mem.check(); err != nil {
		return flagError(fs, err)
	}
	if *stored && (*refute > 0 || *write != "") {
		return flagError(fs, errors.New("--stored reads no database: it takes neither --refute nor --write"))
	}

	var vs []teach.Verdict
	var db *layers.DB
	if *stored {
		if vs, err = teach.VerdictsFromComments(g, comments); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	} else {
		if _, err := os.Stat(*dir); errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("no database in %s: the folder does not exist", *dir)
		}
		v := g.Position().Game.With(g.Stones())
		if *dir, err = databaseDir(*dir, v); err != nil {
			return err
		}
		if db, err = layers.OpenDB(*dir, v); err != nil {
			return err
		}
		defer db.Close()
		mem.apply(db)
		db.VerifiedOnly() // an unverified layer's values are no verdict
		if vs, err = teach.Review(ctx, db, g); err != nil {
			return err
		}
	}
	unknown := printReview(stdout, g, vs)

	if *refute > 0 {
		v := vs[*refute-1]
		line, err := teach.Refutation(db, g.Positions()[*refute-1], v, refuteMax)
		what := "refutation"
		if v.Mark != teach.MarkWorse {
			what = "principal line" // the move gave up nothing: how the game goes on
		}
		fmt.Fprintf(stdout, "\n%s after %s %s (%s to move):\n", what, moveLabel(g, *refute-1), g.Rules().Board.MoveString(v.Move), v.Mover.Other())
		printLine(stdout, g, *refute, line)
		if err != nil {
			fmt.Fprintf(stdout, "  (the line stops: %s)\n", describe(layers.Unused, err))
		}
	}
	if *write != "" {
		out := g.RecordWithComments(teach.Comments(g, vs))
		if err := layers.WriteRegular(*write, []byte(out)); err != nil {
			err = inputError("--write", *write, 0, err)
			return fmt.Errorf("writing the reviewed game: %w", err)
		}
		fmt.Fprintf(stdout, "\nwrote the record with the verdicts to %s\n", *write)
	}
	if unknown > 0 {
		return fmt.Errorf("%d of %d moves could not be judged (see the table)", unknown, len(vs))
	}
	return nil
}

// parseReviewArgs parses the flags and the one game file, which may stand
// before, between or after the flags.
func parseReviewArgs(fs *flag.FlagSet, args []string) (string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", parseError(err)
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		return "", flagError(fs, fmt.Errorf("want one game file, got %d", len(files)))
	}
	return files[0], nil
}

// moveLabel returns the number of move i of g as a record writes it: "3."
// for White's move, "3..." for Black's.
func moveLabel(g *muehle.Game, i int) string {
	n := i
	if g.Start().Turn == muehle.Black {
		n++
	}
	if n%2 == 0 {
		return fmt.Sprintf("%d.", n/2+1)
	}
	return fmt.Sprintf("%d...", n/2+1)
}

// printReview prints the verdicts as a table and a summary, and returns the
// number of moves that could not be judged.
func printReview(w io.Writer, g *muehle.Game, vs []teach.Verdict) (unknown int) {
	var worse [2]int
	b := g.Rules().Board // moves are named on the game's board
	fmt.Fprintf(w, "%4s  %-18s %-6s %-12s    %s\n", "#", "move", "by", "before", "after")
	for i, v := range vs {
		extra := ""
		switch {
		case v.Mark == teach.MarkUnknown:
			unknown++
			extra = "unknown: " + reason(v.Err)
		case v.Best != muehle.NoMove && v.Best != v.Move && v.BestValue.Better(v.After):
			extra = fmt.Sprintf("best %s %s", b.MoveString(v.Best), v.BestValue)
		case v.Best == muehle.NoMove && v.Err != nil:
			extra = "best unknown: " + reason(v.Err)
		}
		if v.Mark == teach.MarkWorse {
			worse[v.Mover]++
		}
		mark := ""
		if v.Mark == teach.MarkWorse {
			mark = "?"
		}
		line := fmt.Sprintf("%4d  %-18s %-6s %-12s -> %-12s %-1s %s", i+1, moveLabel(g, i)+" "+b.MoveString(v.Move), v.Mover,
			valueOrUnknown(v.Before), valueOrUnknown(v.After), mark, extra)
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	fmt.Fprintf(w, "moves that gave up value: White %d, Black %d; not judged: %d of %d\n", worse[muehle.White], worse[muehle.Black], unknown, len(vs))
	return unknown
}

// printLine prints a principal line that starts after move ply of g.
func printLine(w io.Writer, g *muehle.Game, ply int, line []teach.Step) {
	pos := g.Positions()[ply]
	for k, s := range line {
		fmt.Fprintf(w, "      %-18s %-6s %s\n", moveLabel(g, ply+k)+" "+pos.Board().MoveString(s.Move), pos.Turn, s.Value)
		pos = pos.Play(s.Move)
	}
	if pos.IsOver() {
		fmt.Fprintf(w, "  the game is over: %s to move has lost\n", pos.Turn)
	}
}

// valueOrUnknown renders a verdict's value, "unknown" where the database gave none.
func valueOrUnknown(v layers.Value) string {
	if v == layers.Unused {
		return "unknown"
	}
	return v.String()
}

// reason renders why a verdict is unknown: the first of its reasons.
func reason(err error) string {
	if err == nil {
		return "no reason given"
	}
	if k, ok := layers.Damaged(err); ok {
		return fmt.Sprintf("layer %s damaged (solve recomputes it)", k)
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	return first
}

// maxRecordBytes bounds the game record review reads: a record of the
// longest game is a few tens of kilobytes, and an endless input
// (/dev/zero) must end in an error, not in all the memory there is.
const maxRecordBytes = 4 << 20

// readRecordFile reads the game record in file, at most maxRecordBytes,
// without a UTF-8 byte-order mark at its start.
func readRecordFile(file string) ([]byte, error) {
	b, err := readInput("the game record", file, maxRecordBytes)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		err = fmt.Errorf("%w (not a game record)", err)
	}
	// A byte-order mark some editors write first is no part of the text.
	return bytes.TrimPrefix(b, []byte("\uFEFF")), err
}
